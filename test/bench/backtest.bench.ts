/**
 * W1 backtest: one model over 600 expeds × 5,000 rows (3.0M rows), 10 core features, all three
 * terms per exped through `scoreFrameInParallel` (worker threads when it pays). Ids are 16-hex
 * strings in random order within each exped (the engine sorts them), a few % of feature cells
 * missing. Targets: median ≤ 0.75 s, peak RSS ≤ 500 MB.
 *
 * The frame is built as a parser would hold it: each id one flat 16-character string (not the
 * generator's concatenation), and the exped column 3M references to 600 label strings.
 */
import { availableParallelism } from "node:os";
import type { Frame } from "../../src/data/frame.js";
import { Rng } from "../../src/domain/rng.js";
import { scoreFrameInParallel } from "../../src/scoring/backtest.js";
import { medianMs, peakRssMb, report } from "./measure.js";

const EXPEDS = 600;
const ROWS = 5_000;
const FEATURES = 10;

function backtestFrame(): Frame {
  const rng = new Rng("bench:w1");
  const n = EXPEDS * ROWS;
  const ids = new Array<string>(n);
  const scratch = Buffer.alloc(16);
  const labels = Array.from({ length: EXPEDS }, (_, e) => `exped_${String(e).padStart(4, "0")}`);
  const exped = new Array<string>(n);
  const core = Array.from({ length: FEATURES }, () => new Float64Array(n));
  const target = new Float64Array(n);
  const benchmark = new Float64Array(n);
  const prediction = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    scratch.write(rng.hex(16), "latin1");
    ids[i] = scratch.toString("latin1");
    exped[i] = labels[Math.floor(i / ROWS)];
    let signal = 0;
    for (let f = 0; f < FEATURES; f++) {
      const z = rng.normal();
      signal += z;
      core[f][i] = rng.next() < 0.02 ? -1 : Math.min(9, Math.max(0, Math.floor(z * 2 + 5)));
    }
    const latent = 0.1 * signal + rng.normal();
    target[i] = Math.max(0, Math.min(1, Math.round(latent + 2) / 4));
    benchmark[i] = 1 / (1 + Math.exp(-(0.05 * signal + 0.5 * rng.normal())));
    prediction[i] = 1 / (1 + Math.exp(-(0.04 * signal + 0.3 * rng.normal())));
  }
  const columns: Record<string, Float64Array> = { prediction, target, v1_designated: benchmark };
  core.forEach((col, f) => (columns[`feature_${f}`] = col));
  return { ids, exped, columns };
}

export async function run(): Promise<void> {
  const frame = backtestFrame();
  const inputRss = peakRssMb();
  const columns = { prediction: "prediction", target: "target", benchmark: "v1_designated", core: Array.from({ length: FEATURES }, (_, f) => `feature_${f}`) };
  let expeds = 0;
  const single = await medianMs(5, () => scoreFrameInParallel(frame, columns, { workers: 0 }));
  const singleRss = peakRssMb();
  const { median, all } = await medianMs(5, async () => (expeds = (await scoreFrameInParallel(frame, columns)).length));
  report("W1 backtest (scoreFrameInParallel, all three terms)", {
    workload: `${expeds} expeds × ${ROWS} rows = ${(expeds * ROWS / 1e6).toFixed(1)}M rows, ${FEATURES} core features, ${availableParallelism()} cores`,
    median: `${(median / 1000).toFixed(3)} s (target ≤ 0.75 s)`,
    runs: all.map((ms) => (ms / 1000).toFixed(3)).join(" "),
    "one thread": `${(single.median / 1000).toFixed(3)} s median; runs ${single.all.map((ms) => (ms / 1000).toFixed(3)).join(" ")}; peak RSS ${singleRss.toFixed(0)} MB`,
    "peak RSS": `${peakRssMb().toFixed(0)} MB, whole process incl. input and workers (target ≤ 500 MB)`,
    "input": `peak RSS ${inputRss.toFixed(0)} MB once the frame is built (columns ${(((FEATURES + 3) * 8 * EXPEDS * ROWS) / 2 ** 20).toFixed(0)} MB + 3M id strings)`,
  });
}
