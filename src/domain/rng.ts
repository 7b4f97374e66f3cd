import { createHash } from "node:crypto";
import { xoroshiro128plus, type RandomGenerator } from "pure-rand";

/**
 * The seeded PRNG. Never shared between purposes: each consumer forks its own stream by name
 * (`rng.fork("dataset")`, `rng.fork("agent:alice")`), so adding a consumer never shifts another's
 * numbers and any step can be replayed from the seed alone.
 */
export class Rng {
  private readonly gen: RandomGenerator;

  constructor(readonly seed: string | number) {
    this.gen = xoroshiro128plus(seed32(String(seed)));
  }

  /** An independent stream for `purpose`, a pure function of this stream's seed and the name. */
  fork(purpose: string): Rng {
    return new Rng(`${this.seed}/${purpose}`);
  }

  /** Uniform in [0, 1) with 53 random bits. */
  next(): number {
    const hi = this.gen.unsafeNext() >>> 5;
    const lo = this.gen.unsafeNext() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Standard normal (Box-Muller; one value per call, so the stream stays simple to reason about). */
  normal(): number {
    let u = this.next();
    while (u === 0) u = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** `n` lowercase hexadecimal characters: each 32-bit draw's 8, most significant first. */
  hex(n: number): string {
    let s = "";
    while (s.length < n) {
      const w = this.gen.unsafeNext() >>> 0;
      s += HEX_BYTE[w >>> 24] + HEX_BYTE[(w >>> 16) & 255] + HEX_BYTE[(w >>> 8) & 255] + HEX_BYTE[w & 255];
    }
    return s.slice(0, n);
  }

  /** Fisher-Yates shuffle in place. */
  shuffle<T>(xs: T[]): T[] {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [xs[i], xs[j]] = [xs[j], xs[i]];
    }
    return xs;
  }
}

/** Each byte's two lowercase hex digits (a dataset's row ids take one `hex` call each). */
const HEX_BYTE = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

function seed32(s: string): number {
  return createHash("sha256").update(s).digest().readInt32LE(0);
}
