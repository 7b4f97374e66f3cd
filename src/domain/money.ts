/** Money: USDC amounts are integer micro units (1 USDC = 1 000 000 micro); no float money is stored. */
export const MICRO_PER_USDC = 1_000_000n;

const DECIMAL_USDC = /^\d+(\.\d{1,6})?$/;

/**
 * A principal given in dollars, as a decimal string ("2.5") or a JSON number (2.5), in exact micro
 * units; null when it is not a positive finite decimal with at most 6 decimals (NaN, Infinity,
 * "1e3", "-1", "0", "1.0000001", anything but a string or number). A bigint, so an amount of any
 * size is exact and can be compared with a limit before it is narrowed to a number.
 */
export function parseUsdcMicro(value: unknown): bigint | null {
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return null;
    text = String(value);
  } else if (typeof value === "string") {
    text = value.trim();
  } else {
    return null;
  }
  if (!DECIMAL_USDC.test(text)) return null;
  const [whole, fraction = ""] = text.split(".");
  const micro = BigInt(whole) * MICRO_PER_USDC + BigInt(fraction.padEnd(6, "0"));
  return micro > 0n ? micro : null;
}

