/** A commander parser for a numeric flag of at least `min`; the error names the flag and the value. */
export function numberFlag(flag: string, min: number) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < min) throw new Error(`${flag}: expected a number >= ${min}, got '${v}'`);
    return n;
  };
}

/** A commander parser for a TCP port: an integer from 0 (any free port) to 65535. */
export function portFlag(flag: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!/^\d+$/.test(v) || n > 65535) throw new Error(`${flag}: expected a port number from 0 to 65535, got '${v}'`);
    return n;
  };
}
