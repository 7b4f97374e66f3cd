import { refuse } from "../../domain/errors.js";
import type { Deployment } from "./deployment.js";

/**
 * The deployment's rate limit: a fixed window (no token bucket) per key and endpoint, on the
 * injected clock. Windows are aligned to multiples of `window_seconds` since the epoch; counts live
 * in memory, so a restarted server starts fresh windows. The 429 names the ceiling and carries no
 * `Retry-After` (spec, Limits).
 */
export class RateLimiter {
  private window = Number.NaN;
  private readonly counts = new Map<string, number>();

  constructor(private readonly limit: Deployment["rate_limit"]) {}

  /** Counts one request of `key` on `endpoint` at `now`; refuses it past the ceiling. */
  hit(key: string, endpoint: string, now: number): void {
    const window = Math.floor(now / (this.limit.window_seconds * 1000));
    if (window !== this.window) {
      this.window = window;
      this.counts.clear();
    }
    const id = `${endpoint}\u0000${key}`;
    const n = (this.counts.get(id) ?? 0) + 1;
    this.counts.set(id, n);
    if (n > this.limit.ceiling) {
      throw refuse("rate_limited", this.limit, { extra: { ceiling: this.limit.ceiling, window_seconds: this.limit.window_seconds } });
    }
  }
}
