/**
 * How many lanes' truths a checking thread keeps: the practice board's and the open round's. The
 * pool and its thread apply `useTruth` to the same sequence of tasks, so the pool knows which
 * truths a thread holds without asking it.
 */
const KEPT_TRUTHS = 2;

/** Marks truth `key` as the one used last, holding `value`; past KEPT_TRUTHS the one used longest ago is dropped. */
export function useTruth<V>(kept: Map<number, V>, key: number, value: V): void {
  kept.delete(key);
  kept.set(key, value);
  if (kept.size > KEPT_TRUTHS) kept.delete(kept.keys().next().value as number);
}
