/**
 * How many lanes' truths a checking thread keeps (the practice board's and a round's or two): the
 * pool and its thread apply the same rule to the same sequence of sends, so the pool knows which
 * truths a thread holds without asking it.
 */
const KEPT_TRUTHS = 4;

/** Keeps `value` under `key`, dropping the oldest key past KEPT_TRUTHS. */
export function keepTruth<V>(kept: Map<number, V>, key: number, value: V): void {
  kept.set(key, value);
  if (kept.size > KEPT_TRUTHS) kept.delete(kept.keys().next().value as number);
}
