import { refuse, ServiceError } from "../../domain/errors.js";
import { keyDigest } from "../../domain/ids.js";
import type { Deployment } from "./deployment.js";

/**
 * Failed authentications (an unknown key) per client address, in the rate limit's fixed windows on
 * the injected clock. Past `failed_auth_ceiling` in a window, a call from that address is refused
 * with 429 (no `Retry-After`; the detail names the ceiling) until the window ends, before its key is
 * looked up, so keys cannot be guessed at speed and a right guess looks like a wrong one.
 *
 * The lockout is per address (one client cannot be told from another behind it: on loopback every
 * local client is 127.0.0.1), but it spares the keys already at work there: a key that has
 * authenticated from the address is let through whatever other keys failed, so one client's wrong
 * keys do not lock out its neighbours. A key never seen from the address is refused during a
 * lockout even when it is right: letting every right key through would tell a right guess from a
 * wrong one, and the lockout would no longer slow guessing at all.
 */
export class AuthFailures {
  private window = Number.NaN;
  private readonly counts = new Map<string, number>();
  /** Per address, the digests of the keys that authenticated from it (only valid keys: as many as are in use). */
  private readonly atWork = new Map<string, Set<string>>();

  constructor(private readonly limit: Deployment["rate_limit"]) {}

  /** Refuses a call bearing `key` from `address` once the address's failures in the current window passed the ceiling, unless the key is at work there. */
  check(address: string, key: string | undefined | null, now: number): void {
    if (this.count(address, now) < this.limit.failed_auth_ceiling) return;
    if (key && this.atWork.get(address)?.has(keyDigest(key))) return;
    const { failed_auth_ceiling: ceiling, window_seconds } = this.limit;
    throw refuse("auth_rate_limited", { ceiling, window_seconds }, { extra: { ceiling, window_seconds } });
  }

  /** Runs `authenticate` for `key`; an unknown key counts one failure against `address`, a known one is at work there from now on. */
  counting<T>(address: string, key: string | undefined | null, now: number, authenticate: () => T): T {
    let result: T;
    try {
      result = authenticate();
    } catch (e) {
      if (e instanceof ServiceError && e.code === "invalid_api_key") this.counts.set(address, this.count(address, now) + 1);
      throw e;
    }
    if (key) {
      const keys = this.atWork.get(address) ?? new Set<string>();
      this.atWork.set(address, keys.add(keyDigest(key)));
    }
    return result;
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
