/**
 * Money as the service states it: integer micro-USDC (1 USDC = 1 000 000 micro), never a float.
 * Callers send amounts as decimal strings ("2.5"); a JSON number is refused upstream, so a value
 * like 0.1 never passes through binary floating point.
 */
export const MICRO_PER_USDC = 1_000_000;

const DECIMAL = /^(\d+)(?:\.(\d{1,6}))?$/;

/** `"2.5"` → 2 500 000; null when the text is not a non-negative decimal with at most 6 decimals. */
export function parseUsdc(text: string): number | null {
  const m = DECIMAL.exec(text);
  if (!m) return null;
  const micro = Number(m[1]) * MICRO_PER_USDC + Number((m[2] ?? "").padEnd(6, "0"));
  return Number.isSafeInteger(micro) ? micro : null;
}

/** 2 500 000 → `"2.5"`; -1 → `"-0.000001"`. Exact for every safe integer. */
export function formatUsdc(micro: number): string {
  const sign = micro < 0 ? "-" : "";
  const abs = Math.abs(micro);
  const whole = Math.floor(abs / MICRO_PER_USDC);
  const frac = String(abs % MICRO_PER_USDC).padStart(6, "0").replace(/0+$/, "");
  return `${sign}${whole}${frac ? `.${frac}` : ""}`;
}
