/**
 * A CSV number field read straight from its bytes, the same double `Number(text)` gives: a
 * decimal of at most 2^53 in its digits, scaled by at most 10^22, is one exact integer times or
 * divided by one exact power of ten, a single correctly rounded operation (Clinger's fast path).
 * Anything else (17-digit values, exponents out of range, `Infinity`, spaces...) goes through
 * the string. Empty, `NaN` and `nan` are missing (NaN); `inf`, `-inf` (as pandas writes them,
 * any case) and `Infinity` are infinite.
 */
export class NotANumber extends Error {
  constructor(readonly text: string) {
    super(`'${text}' is not a number`);
  }
}

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];
const MAX_EXACT = 2 ** 53;
const MISSING_TEXT = new Set(["", "NaN", "nan"]);
const INFINITE_TEXT = new Map([
  ["inf", Infinity],
  ["+inf", Infinity],
  ["-inf", -Infinity],
]);

export function parseNumberBytes(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  let negative = false;
  if (i < end && (bytes[i] === 0x2d || bytes[i] === 0x2b)) negative = bytes[i++] === 0x2d;
  let m = 0;
  let digits = 0;
  let scale = 0;
  for (; i < end && isDigit(bytes[i]); i++, digits++) m = m * 10 + (bytes[i] - 0x30);
  if (i < end && bytes[i] === 0x2e) {
    for (i++; i < end && isDigit(bytes[i]); i++, digits++, scale--) m = m * 10 + (bytes[i] - 0x30);
  }
  if (digits > 0 && i < end && (bytes[i] | 0x20) === 0x65) {
    let j = i + 1;
    let expNegative = false;
    if (j < end && (bytes[j] === 0x2d || bytes[j] === 0x2b)) expNegative = bytes[j++] === 0x2d;
    let e = 0;
    const from = j;
    for (; j < end && isDigit(bytes[j]) && e < 1000; j++) e = e * 10 + (bytes[j] - 0x30);
    if (j > from) {
      scale += expNegative ? -e : e;
      i = j;
    }
  }
  if (i === end && digits > 0 && m < MAX_EXACT) {
    const v = m === 0 ? 0 : scale >= 0 && scale <= 22 ? m * POW10[scale] : scale < 0 && scale >= -22 ? m / POW10[-scale] : NaN;
    if (!Number.isNaN(v)) return negative ? -v : v;
  }
  return parseText(Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString("utf8"));
}

/** The slow path, exactly the old reader's rules. */
function parseText(raw: string): number {
  if (MISSING_TEXT.has(raw)) return NaN;
  const infinite = INFINITE_TEXT.get(raw.toLowerCase());
  if (infinite !== undefined) return infinite;
  const v = Number(raw);
  if (Number.isNaN(v) || raw.trim() === "") throw new NotANumber(raw);
  return v;
}

function isDigit(b: number): boolean {
  return b >= 0x30 && b <= 0x39;
}
