/** A series as one line of Unicode block characters, on a scale given by the caller so several lines compare. */
import { type Domain, linear } from "./scale.js";

const BLOCKS = "▁▂▃▄▅▆▇█";

/** One block per value: the domain's min is ▁, its max █. */
export function sparkline(values: number[], domain: Domain): string {
  const level = linear(domain, 0, BLOCKS.length - 1);
  return values.map((v) => BLOCKS[Math.min(BLOCKS.length - 1, Math.max(0, Math.round(level(v))))]).join("");
}

/** At most `k` values of a cumulative series: the last value of each of k even buckets, so the final value stays. */
export function lastOfBuckets(values: number[], k: number): number[] {
  if (values.length <= k) return values;
  return Array.from({ length: k }, (_, i) => values[Math.ceil(((i + 1) * values.length) / k) - 1]);
}
