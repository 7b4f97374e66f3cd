/** `s(x) = sign(x)·|x|^1.5`, written as `|x|·√|x|` (one rounding fewer than a general pow). `out` may be `x`. */
export function signedPower(x: Float64Array, n: number, out: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const v = x[i];
    const a = Math.abs(v);
    const s = a * Math.sqrt(a);
    out[i] = v < 0 ? -s : s;
  }
}
