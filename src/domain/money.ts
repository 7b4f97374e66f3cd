/**
 * Money as the service states it: integer micro-USDC (1 USDC = 1 000 000 micro), never a float.
 * Event allocations take amounts as decimal strings ("2.5"); a JSON number is refused upstream, so
 * a value like 0.1 never passes through binary floating point. Tournament stakes also take a number.
 */
export const MICRO_PER_USDC = 1_000_000;

const DECIMAL = /^(\d+)(?:\.(\d{1,6}))?$/;

/** Longer amount texts are refused unread: no amount needs them, and a megabyte of digits costs time. */
const MAX_AMOUNT_CHARS = 40;

/** Exact micro of a non-negative decimal with at most 6 decimals, as a bigint (any size); null otherwise. */
function decimalMicro(text: string): bigint | null {
  if (text.length > MAX_AMOUNT_CHARS) return null;
  const m = DECIMAL.exec(text);
  if (!m) return null;
  return BigInt(m[1]) * BigInt(MICRO_PER_USDC) + BigInt((m[2] ?? "").padEnd(6, "0"));
}

/** `"2.5"` → 2 500 000; null when the text is not a non-negative decimal with at most 6 decimals, or too large. */
export function parseUsdc(text: string): number | null {
  const micro = decimalMicro(text);
  return micro !== null && micro <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(micro) : null;
}

/**
 * A principal given in dollars, as a decimal string ("2.5") or a JSON number (2.5), in exact micro
 * units; null when it is not a positive finite decimal with at most 6 decimals (NaN, Infinity,
 * "1e3", "-1", "0", "1.0000001", anything but a string or number). A bigint, so an amount of any
 * size is exact and can be compared with a limit before it is narrowed to a number.
 */
export function parseUsdcMicro(value: unknown): bigint | null {
  if (typeof value === "number" && !Number.isFinite(value)) return null;
  if (typeof value !== "number" && typeof value !== "string") return null;
  const micro = decimalMicro(typeof value === "number" ? String(value) : value.trim());
  return micro !== null && micro > 0n ? micro : null;
}

/** 2 500 000 → `"2.5"`; -1 → `"-0.000001"`. Exact for every safe integer. */
export function formatUsdc(micro: number): string {
  const sign = micro < 0 ? "-" : "";
  const abs = Math.abs(micro);
  const whole = Math.floor(abs / MICRO_PER_USDC);
  const frac = String(abs % MICRO_PER_USDC).padStart(6, "0").replace(/0+$/, "");
  return `${sign}${whole}${frac ? `.${frac}` : ""}`;
}
