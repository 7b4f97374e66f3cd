/**
 * Time, as the service sees it. Everything reads time from an injected Clock; only the engine (or
 * the organiser's clock-control API) moves a SimClock. Times are epoch milliseconds, UTC.
 */
export interface Clock {
  now(): number;
  /** True while an organiser holds a running clock still (the cadence's `clock_paused`). */
  paused?(): boolean;
}

/** A clock that moves only when told to. */
export class SimClock implements Clock {
  constructor(private t: number) {}

  now(): number {
    return this.t;
  }

  set(t: number): void {
    if (t < this.t) throw new Error(`SimClock cannot move backwards (${iso(t)} < ${iso(this.t)})`);
    this.t = t;
  }

  advance(ms: number): void {
    this.set(this.t + ms);
  }
}

export const iso = (t: number): string => new Date(t).toISOString();

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
