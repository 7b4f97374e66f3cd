/**
 * The W1 workload, shared by the in-memory and the streamed W1 benchmarks so both score the same
 * values: 600 expeds × 5,000 rows, 10 core features (a few % missing), a target in quarters, a
 * designated benchmark and a prediction weakly related to the features; ids 16-hex strings in
 * random order within each exped. Rows come one at a time from one seeded generator, in order.
 */
import { Rng } from "../../src/domain/rng.js";

export const EXPEDS = 600;
export const ROWS = 5_000;
export const FEATURES = 10;
/** Numeric columns in the order rows are written: target, benchmark, prediction, then the core features. */
export const NUMERIC = 3 + FEATURES;

export const expedLabel = (e: number) => `exped_${String(e).padStart(4, "0")}`;
export const featureName = (f: number) => `feature_${f}`;

/**
 * The W1 generator: call `row(id, values)` for each of the `expeds`·ROWS rows in order; `values` is
 * reused. More expeds than W1's continue the same seeded stream, so W1 is the first EXPEDS of them.
 */
export function generateRows(row: (index: number, hexId: string, values: Float64Array) => void, expeds = EXPEDS): void {
  for (const { index, id, values } of w1Rows(expeds)) row(index, id, values);
}

/** `generateRows` as a generator, for writers that wait on I/O between rows. */
export function* w1Rows(expeds = EXPEDS): Generator<{ index: number; id: string; values: Float64Array }> {
  const rng = new Rng("bench:w1");
  const values = new Float64Array(NUMERIC);
  for (let i = 0; i < expeds * ROWS; i++) {
    const id = rng.hex(16);
    let signal = 0;
    for (let f = 0; f < FEATURES; f++) {
      const z = rng.normal();
      signal += z;
      values[3 + f] = rng.next() < 0.02 ? -1 : Math.min(9, Math.max(0, Math.floor(z * 2 + 5)));
    }
    const latent = 0.1 * signal + rng.normal();
    values[0] = Math.max(0, Math.min(1, Math.round(latent + 2) / 4));
    values[1] = 1 / (1 + Math.exp(-(0.05 * signal + 0.5 * rng.normal())));
    values[2] = 1 / (1 + Math.exp(-(0.04 * signal + 0.3 * rng.normal())));
    yield { index: i, id, values };
  }
}
