import { compareIds } from "./align.js";

const INTEGER = /^[+-]?\d+$/;

/**
 * The order expeds are reported and their series read in: labels that are whole numbers (a
 * pandas `era` column of ints, written as 1, 2, … 10) by their value, before any other label;
 * other labels (`era_001`, dates) in byte order. Byte order alone would put era 10 before era 9,
 * and series figures that read the order (autocorrelation, drawdown) would be wrong.
 */
export function compareExpeds(a: string, b: string): number {
  const ai = INTEGER.test(a);
  const bi = INTEGER.test(b);
  if (ai && bi) {
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : compareIds(a, b); // "01" and "1": one value, still one order
  }
  if (ai !== bi) return ai ? -1 : 1;
  return compareIds(a, b);
}
