/**
 * Participants' code: the cost of one predict call in a persistent Python worker after warm-up
 * (fit once, then predict per round, as a backtest replay does), trusted and sandboxed, against a
 * one-shot run (start the interpreter, load the pickle, predict, stop) as the auto-submit lane
 * does. Workload: 200 rows × 24 features. Goal: ≤ 30 ms per predict call after warm-up.
 */
import { fileURLToPath } from "node:url";
import type { Frame } from "../../src/domain/frame.js";
import { Rng } from "../../src/domain/rng.js";
import { probeSandbox, type Isolation } from "../../src/participant/isolation.js";
import { startPythonWorker } from "../../src/participant/python-worker.js";
import { runPredict } from "../../src/participant/run-predict.js";
import { predictPickles } from "../helpers/predict-pickles.js";
import { medianMs, peakRssMb, report } from "./measure.js";

const ROWS = 200;
const FEATURES = 24;
const CALLS = 50;
const ONE_SHOTS = 7;
const STRATEGY = fileURLToPath(new URL("../fixtures/participant/linear.py", import.meta.url));

function frame(rng: Rng, exped: string, target: boolean): Frame {
  const ids = Array.from({ length: ROWS }, () => rng.hex(16));
  const columns: Record<string, Float64Array> = {};
  for (let f = 0; f < FEATURES; f++) columns[`feature_${f}`] = Float64Array.from({ length: ROWS }, () => rng.int(5) / 4);
  if (target) columns.target = Float64Array.from({ length: ROWS }, () => rng.next());
  return { ids, exped: ids.map(() => exped), columns };
}

async function perCall(isolation: Isolation, train: Frame, live: Frame): Promise<Record<string, string>> {
  const start = await medianMs(1, async () => {
    const started = await startPythonWorker({ source: { kind: "module", path: STRATEGY, params: { ridge: 0.1 } }, isolation, label: "linear.py" });
    if (!started.ok) throw new Error(started.error);
    const fitted = await started.worker.fit(train, 60);
    if (!fitted.ok) throw new Error(fitted.error);
    await started.worker.close();
  });
  const started = await startPythonWorker({ source: { kind: "module", path: STRATEGY, params: { ridge: 0.1 } }, isolation, label: "linear.py" });
  if (!started.ok) throw new Error(started.error);
  const worker = started.worker;
  await worker.fit(train, 60);
  for (let i = 0; i < 5; i++) await worker.predict(live, null, 60);
  const { median, all } = await medianMs(CALLS, async () => {
    const out = await worker.predict(live, null, 60);
    if (!out.ok) throw new Error(out.error);
  });
  await worker.close();
  const sorted = [...all].sort((a, b) => a - b);
  return {
    [`${isolation} start+fit`]: `${start.median.toFixed(1)} ms`,
    [`${isolation} predict`]: `${median.toFixed(2)} ms median, p90 ${sorted[Math.floor(CALLS * 0.9)].toFixed(2)} ms (${CALLS} calls, goal ≤ 30 ms)`,
  };
}

async function oneShot(isolation: Isolation, pkl: Uint8Array, live: Frame): Promise<Record<string, string>> {
  const { median } = await medianMs(ONE_SHOTS, async () => {
    const out = await runPredict({ pkl, features: live, benchmark: live, timeout_seconds: 60, isolation });
    if (!out.ok) throw new Error(out.error);
  });
  return { [`${isolation} one-shot`]: `${median.toFixed(1)} ms median (${ONE_SHOTS} runs: start, load pickle, predict, stop)` };
}

export async function run(): Promise<void> {
  const rng = new Rng("bench:participant-worker");
  const train = frame(rng, "exped_0001", true);
  const live = frame(rng, "exped_0002", false);
  const pkl = (await predictPickles())("mean_rank");
  const sandbox = await probeSandbox();
  const isolations: Isolation[] = sandbox.ok ? ["trusted", "sandbox"] : ["trusted"];
  const lines: Record<string, string> = { workload: `${ROWS} rows × ${FEATURES} features, least squares fit once, predict per call` };
  if (!sandbox.ok) lines.sandbox = `not measured: ${sandbox.reason}`;
  for (const isolation of isolations) Object.assign(lines, await perCall(isolation, train, live));
  for (const isolation of isolations) Object.assign(lines, await oneShot(isolation, pkl, live));
  lines["peak RSS"] = `${peakRssMb().toFixed(0)} MB (Node only)`;
  report("Participant worker: per-predict cost after warm-up vs one-shot", lines);
}
