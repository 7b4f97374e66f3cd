import { refuse, ServiceError } from "../domain/errors.js";
import type { Deployment } from "./deployment.js";

/**
 * Failed authentications (an unknown key) per client address, in the rate limit's fixed windows on
 * the injected clock. Past `failed_auth_ceiling` in a window, every keyed call from that address is
 * refused with 429 (no `Retry-After`; the detail names the ceiling) until the window ends, so keys
 * cannot be guessed at speed, and a right guess looks like a wrong one.
 */
export class AuthFailures {
  private window = Number.NaN;
  private readonly counts = new Map<string, number>();

  constructor(private readonly limit: Deployment["rate_limit"]) {}

  /** Refuses a call from `address` once its failures in the current window passed the ceiling. */
  check(address: string, now: number): void {
    if (this.count(address, now) >= this.limit.failed_auth_ceiling) {
      const { failed_auth_ceiling: ceiling, window_seconds } = this.limit;
      throw refuse("auth_rate_limited", { ceiling, window_seconds }, { extra: { ceiling, window_seconds } });
    }
  }

  /** Runs `authenticate`; an unknown key counts one failure against `address`. */
  counting<T>(address: string, now: number, authenticate: () => T): T {
    try {
      return authenticate();
    } catch (e) {
      if (e instanceof ServiceError && e.code === "invalid_api_key") this.counts.set(address, this.count(address, now) + 1);
      throw e;
    }
  }

  private count(address: string, now: number): number {
    const window = Math.floor(now / (this.limit.window_seconds * 1000));
    if (window !== this.window) {
      this.window = window;
      this.counts.clear();
    }
    return this.counts.get(address) ?? 0;
  }
}
