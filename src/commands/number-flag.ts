/** A commander parser for a numeric flag of at least `min`; the error names the flag and the value. */
export function numberFlag(flag: string, min: number) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < min) throw new Error(`${flag}: expected a number >= ${min}, got '${v}'`);
    return n;
  };
}
