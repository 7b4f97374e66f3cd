import type { Clock } from "./clock.js";

/**
 * The wall clock, epoch ms: for display (a progress line's elapsed time, a log directory's name) and
 * for skipping a needless look at a call's CPU time (src/participant/call-limit.ts), never for simulated time.
 */
export function wallTime(): number {
  return Date.now();
}

/**
 * The one real-time adapter: simulated time that runs at `speed` times the wall clock from
 * `start`. The only place in Basecamp that reads the wall clock. An organiser can pause it (it
 * then stands still) and resume it (it runs on from where it stood).
 */
export class RealtimeClock implements Clock {
  private wallStart = wallTime();
  private frozenAt: number | null = null;

  constructor(
    private start: number,
    private readonly speed = 1,
  ) {}

  now(): number {
    return this.frozenAt ?? this.start + Math.floor((wallTime() - this.wallStart) * this.speed);
  }

  /** Jumps simulated time forward (organiser clock control); the wall clock keeps running. */
  advance(ms: number): void {
    if (this.frozenAt !== null) this.frozenAt += ms;
    else this.start += ms;
  }

  paused(): boolean {
    return this.frozenAt !== null;
  }

  pause(): void {
    this.frozenAt ??= this.now();
  }

  resume(): void {
    if (this.frozenAt === null) return;
    this.start = this.frozenAt;
    this.wallStart = wallTime();
    this.frozenAt = null;
  }
}
