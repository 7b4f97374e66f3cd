/** fast-check generators for one exped's truth and a prediction: ties, NaNs, missing features, unicode ids. */
import fc from "fast-check";

const targetValue = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(0, 0.25, 0.5, 0.75, 1) },
  { weight: 1, arbitrary: fc.constant(NaN) },
);
const predictionValue = fc.oneof(
  { weight: 4, arbitrary: fc.double({ min: 0, max: 1, noNaN: true }) },
  { weight: 3, arbitrary: fc.constantFrom(0.1, 0.2, 0.3) },
  { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity) },
);
const benchmarkValue = fc.oneof(
  { weight: 6, arbitrary: fc.double({ min: 0, max: 1, noNaN: true }) },
  { weight: 3, arbitrary: fc.constantFrom(0, 0.5, 1) },
  { weight: 1, arbitrary: fc.constant(NaN) },
);
const coreValue = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 9 }) },
  { weight: 1, arbitrary: fc.constantFrom(-1, NaN) },
);
const id = fc.string({ unit: "binary", minLength: 1, maxLength: 3 });

const column = <T extends number>(value: fc.Arbitrary<T>, n: number) =>
  fc.array(value, { minLength: n, maxLength: n }).map((xs) => Float64Array.from(xs));

export interface ExpedCase {
  ids: string[];
  target: Float64Array;
  benchmark: Float64Array | null;
  core: Float64Array[];
  prediction: Float64Array;
}

export const expedCase = (maxRows = 30): fc.Arbitrary<ExpedCase> =>
  fc.integer({ min: 0, max: maxRows }).chain((n) =>
    fc.record({
      ids: fc.uniqueArray(id, { minLength: n, maxLength: n }),
      target: column(targetValue, n),
      benchmark: fc.option(column(benchmarkValue, n), { freq: 5 }),
      core: fc.array(column(coreValue, n), { maxLength: 3 }),
      prediction: column(predictionValue, n),
    }),
  );

/**
 * A strictly increasing map of the distinct finite values of `x` (NaN stays NaN): the k-th smallest
 * distinct value goes to the k-th partial sum of positive `steps`, so no two values merge.
 */
export function increasingTransform(x: Float64Array, steps: number[], offset: number): Float64Array {
  const distinct = [...new Set(Array.from(x).filter(Number.isFinite))].sort((a, b) => a - b);
  const image = new Map<number, number>();
  let level = offset;
  distinct.forEach((v, k) => {
    level += steps[k % steps.length];
    image.set(v, level);
  });
  return x.map((v) => (Number.isFinite(v) ? image.get(v)! : v));
}

/** A random reordering of 0..n-1. */
export const permutationOf = (n: number) =>
  fc.shuffledSubarray(Array.from({ length: n }, (_, i) => i), { minLength: n, maxLength: n });
