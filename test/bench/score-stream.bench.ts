/**
 * W1 scoring, streamed: the same workload as `score-frame.bench.ts` (600 expeds × 5,000 rows, 10 core
 * features, all three terms), scored by `scoreExpedStream` as a reader hands it over one exped at a
 * time, so the whole history is never in memory. Target: peak RSS ≤ 500 MB (and median ≤ 0.75 s).
 *
 * Before timing, the generator writes the rows to a temporary file, one block per exped (16-byte
 * latin1 ids, then each numeric column as float64), holding one block in memory at a time. Each
 * timed run reads that file from the start: the read (from the page cache) and the decoding into
 * id strings and columns are inside the timed region, generation is not. `npm run bench` runs each
 * bench in its own process, so the peak RSS printed is this bench's alone.
 */
import { closeSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { scoreExpedStream, type ExpedInput } from "../../src/scoring/score-stream.js";
import { EXPEDS, expedLabel, FEATURES, generateRows, NUMERIC, ROWS } from "./w1-data.js";
import { medianMs, peakRssMb, report } from "./measure.js";

const ID_BYTES = 16;
const BLOCK = ROWS * (ID_BYTES + 8 * NUMERIC);

function writeBlocks(path: string): void {
  const fd = openSync(path, "w");
  const block = Buffer.alloc(BLOCK);
  const numeric = new Float64Array(block.buffer, block.byteOffset + ROWS * ID_BYTES, ROWS * NUMERIC);
  generateRows((i, id, values) => {
    const r = i % ROWS;
    block.write(id, r * ID_BYTES, "latin1");
    for (let c = 0; c < NUMERIC; c++) numeric[c * ROWS + r] = values[c];
    if (r === ROWS - 1) writeSync(fd, block);
  });
  closeSync(fd);
}

/** The expeds of the file one at a time; the columns are views on one reused block. */
function* readBlocks(path: string): Generator<ExpedInput> {
  const fd = openSync(path, "r");
  const block = Buffer.allocUnsafeSlow(BLOCK);
  const column = (c: number) => new Float64Array(block.buffer, block.byteOffset + ROWS * (ID_BYTES + 8 * c), ROWS);
  const [target, benchmark, prediction, ...core] = Array.from({ length: NUMERIC }, (_, c) => column(c));
  try {
    for (let e = 0; e < EXPEDS; e++) {
      if (readSync(fd, block, 0, BLOCK, e * BLOCK) !== BLOCK) throw new Error(`short read of exped ${e}`);
      const ids = new Array<string>(ROWS);
      for (let r = 0; r < ROWS; r++) ids[r] = block.toString("latin1", r * ID_BYTES, (r + 1) * ID_BYTES);
      yield { exped: expedLabel(e), truth: { ids, target, benchmark, core }, prediction };
    }
  } finally {
    closeSync(fd);
  }
}

export async function run(): Promise<void> {
  const before = peakRssMb();
  const path = join(tmpdir(), `basecamp-w1-${process.pid}.bin`);
  try {
    writeBlocks(path);
    let expeds = 0;
    const { median, all } = await medianMs(5, async () => (expeds = (await scoreExpedStream(readBlocks(path))).length));
    report("W1 scoring, streamed (scoreExpedStream over a file read one exped at a time, all three terms)", {
      workload: `${expeds} expeds × ${ROWS} rows = ${((expeds * ROWS) / 1e6).toFixed(1)}M rows, ${FEATURES} core features, ${availableParallelism()} cores`,
      median: `${(median / 1000).toFixed(3)} s (target ≤ 0.75 s), reading and decoding the file included`,
      runs: all.map((ms) => (ms / 1000).toFixed(3)).join(" "),
      "peak RSS": `${peakRssMb().toFixed(0)} MB, whole process incl. workers (target ≤ 500 MB); ${before.toFixed(0)} MB before this bench`,
    });
  } finally {
    rmSync(path, { force: true });
  }
}
