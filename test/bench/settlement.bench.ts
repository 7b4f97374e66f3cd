/**
 * W2 settlement: one round, 2,000 submissions × 5,000 instruments against one exped, all three
 * terms, through `scoreSubmissions` (worker threads when it pays). Each submission has its own ids
 * array in the round's order, as parsed from a request. Target: median ≤ 3 s.
 */
import { availableParallelism } from "node:os";
import { Rng } from "../../src/domain/rng.js";
import { scoreSubmissions } from "../../src/scoring/exped.js";
import { medianMs, report } from "./measure.js";

const SUBMISSIONS = 2_000;
const INSTRUMENTS = 5_000;
const FEATURES = 10;

export async function run(): Promise<void> {
  const rng = new Rng("bench:w2");
  const col = (f: () => number) => Float64Array.from({ length: INSTRUMENTS }, f);
  const ids = Array.from({ length: INSTRUMENTS }, () => rng.hex(16));
  const truth = {
    ids,
    target: col(() => rng.int(5) / 4),
    benchmark: col(() => rng.next()),
    core: Array.from({ length: FEATURES }, () => col(() => (rng.next() < 0.02 ? -1 : rng.int(10)))),
  };
  const subs = Array.from({ length: SUBMISSIONS }, () => ({ ids: ids.slice(), prediction: col(() => rng.next()) }));
  const single = await medianMs(1, () => scoreSubmissions(truth, subs.slice(0, 200), { workers: 0 }));
  const { median, all } = await medianMs(5, () => scoreSubmissions(truth, subs));
  report("W2 settlement (scoreSubmissions, all three terms)", {
    workload: `${SUBMISSIONS} submissions × ${INSTRUMENTS} instruments, ${FEATURES} core features, ${availableParallelism()} cores`,
    median: `${(median / 1000).toFixed(3)} s (target ≤ 3 s)`,
    runs: all.map((ms) => (ms / 1000).toFixed(3)).join(" "),
    "one thread": `${(single.median / 200).toFixed(3)} ms per submission`,
  });
}
