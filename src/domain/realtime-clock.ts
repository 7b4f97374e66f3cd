import type { Clock } from "./clock.js";

/**
 * The one real-time adapter: simulated time that runs at `speed` times the wall clock from
 * `start`. The only place in Basecamp that reads the wall clock.
 */
export class RealtimeClock implements Clock {
  private readonly wallStart = Date.now();
  private offset = 0;

  constructor(
    private readonly start: number,
    private readonly speed = 1,
  ) {}

  now(): number {
    return this.start + this.offset + Math.floor((Date.now() - this.wallStart) * this.speed);
  }

  /** Jumps simulated time forward (organiser clock control); the wall clock keeps running. */
  advance(ms: number): void {
    this.offset += ms;
  }
}
