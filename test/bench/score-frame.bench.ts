/**
 * W1 scoring, in memory: one model over 600 expeds × 5,000 rows (3.0M rows), 10 core features, all three
 * terms per exped through `scoreFrameInParallel` (worker threads when it pays). Ids are 16-hex
 * strings in random order within each exped (the engine sorts them), a few % of feature cells
 * missing. Targets: median ≤ 0.75 s, peak RSS ≤ 500 MB.
 *
 * The frame is built as a parser would hold it: each id one flat 16-character string (not the
 * generator's concatenation), the exped column 3M references to 600 label strings, and the numeric
 * columns on SharedArrayBuffers (`sharedColumn`), so worker threads read them without copies.
 */
import { availableParallelism } from "node:os";
import { sharedColumn, type Frame } from "../../src/domain/frame.js";
import { scoreFrameInParallel } from "../../src/scoring/score-frame.js";
import { EXPEDS, expedLabel, FEATURES, featureName, generateRows, NUMERIC, ROWS } from "./w1-data.js";
import { medianMs, peakRssMb, report } from "./measure.js";

function w1Frame(): Frame {
  const n = EXPEDS * ROWS;
  const ids = new Array<string>(n);
  const scratch = Buffer.alloc(16);
  const labels = Array.from({ length: EXPEDS }, (_, e) => expedLabel(e));
  const exped = new Array<string>(n);
  const numeric = Array.from({ length: NUMERIC }, () => sharedColumn(n));
  generateRows((i, id, values) => {
    scratch.write(id, "latin1");
    ids[i] = scratch.toString("latin1");
    exped[i] = labels[Math.floor(i / ROWS)];
    for (let c = 0; c < NUMERIC; c++) numeric[c][i] = values[c];
  });
  const [target, benchmark, prediction, ...core] = numeric;
  const columns: Record<string, Float64Array> = { prediction, target, v1_designated: benchmark };
  core.forEach((col, f) => (columns[featureName(f)] = col));
  return { ids, exped, columns };
}

export async function run(): Promise<void> {
  const frame = w1Frame();
  const inputRss = peakRssMb();
  const columns = { prediction: "prediction", target: "target", benchmark: "v1_designated", core: Array.from({ length: FEATURES }, (_, f) => featureName(f)) };
  let expeds = 0;
  const single = await medianMs(5, () => scoreFrameInParallel(frame, columns, { workers: 0 }));
  const singleRss = peakRssMb();
  const { median, all } = await medianMs(5, async () => (expeds = (await scoreFrameInParallel(frame, columns)).length));
  report("W1 scoring (scoreFrameInParallel, all three terms)", {
    workload: `${expeds} expeds × ${ROWS} rows = ${(expeds * ROWS / 1e6).toFixed(1)}M rows, ${FEATURES} core features, ${availableParallelism()} cores`,
    median: `${(median / 1000).toFixed(3)} s (target ≤ 0.75 s)`,
    runs: all.map((ms) => (ms / 1000).toFixed(3)).join(" "),
    "one thread": `${(single.median / 1000).toFixed(3)} s median; runs ${single.all.map((ms) => (ms / 1000).toFixed(3)).join(" ")}; peak RSS ${singleRss.toFixed(0)} MB`,
    "peak RSS": `${peakRssMb().toFixed(0)} MB, whole process incl. input and workers (target ≤ 500 MB)`,
    "input": `peak RSS ${inputRss.toFixed(0)} MB once the frame is built (columns ${(((FEATURES + 3) * 8 * EXPEDS * ROWS) / 2 ** 20).toFixed(0)} MB + 3M id strings)`,
  });
}
