import { cpus } from "node:os";
import { wallTime } from "../domain/realtime-clock.js";
import type { ProcessTreeCpu } from "./tree-cpu.js";

/**
 * How many times a call's limit its wall-clock backstop is. A worker that sleeps or blocks uses no
 * CPU, so only wall time can stop it: one that idles outright is stopped sooner (IDLE_WINDOW); the
 * backstop is for one that idles between short bursts (hostile, or stuck). An honest call on a
 * loaded machine takes longer in wall time for the same CPU time; this leaves it room to be slowed
 * five times over before the backstop could reach it.
 */
export const WALL_BACKSTOP = 5;

/**
 * A call is idle, and stopped as a hung one, once its tree has used less than IDLE_SHARE of its
 * limit in CPU over the last IDLE_WINDOW times its limit in wall time: a worker blocked or asleep
 * for that long is stopped there rather than at the backstop, while a call slowed by a loaded
 * machine still gets its share of a CPU and runs on. Sleeping less than that is not charged (a
 * limit counts CPU time).
 */
const IDLE_WINDOW = 2;
const IDLE_SHARE = 0.01;
/** Looks per idle window (so a call is found idle within a quarter window of becoming so). */
const IDLE_TICKS = 4;

/** The shortest wait between two looks at a call's CPU time: bounds how far past its limit it can run, and the cost of looking. */
const MIN_CHECK_MS = 50;

/**
 * A call at least this long ends with a full pass over the tree even when it cannot have used up its
 * limit, so that the next call's mark knows the processes it started (a pass costs a few ms: this
 * keeps it a small share of any call that pays for one).
 */
const REFRESH_MS = 500;

/**
 * One call's time limit, in CPU seconds of the worker's whole process tree (tree-cpu.ts): a
 * loaded machine stretches a call's wall time but not its CPU time, so whether a call is within
 * its limit, and so a replay's log, does not depend on what else the machine is doing. The tree's
 * CPU time is looked at when the call could first have used up its limit (all CPUs busy from the
 * start) and then as it nears it; `stop` is called once it is over, once the call has idled for
 * IDLE_WINDOW times its limit, or once it has taken WALL_BACKSTOP times its limit in wall time. At the answer, `within` looks once more, so the
 * verdict never depends on when a look happened to run. Where /proc does not show the process
 * (not Linux), the limit is wall time, as it was.
 */
export class CallLimit {
  private readonly started = wallTime();
  private readonly cores = Math.max(1, cpus().length);
  private timer: NodeJS.Timeout | undefined;
  private readonly backstop: NodeJS.Timeout;
  private idle: NodeJS.Timeout | undefined;

  /** `tree`: the worker's (null where /proc does not show it, or it could not be started: its error ends the call). */
  constructor(private readonly tree: ProcessTreeCpu | null, private readonly seconds: number, stop: () => void) {
    tree?.mark();
    this.backstop = setTimeout(stop, (tree === null ? seconds : seconds * WALL_BACKSTOP) * 1000);
    if (tree !== null) {
      this.lookIn(seconds / this.cores, stop);
      this.watchIdle([0], stop);
    }
  }

  /** Whether the call, answered now, stayed within its limit. */
  within(): boolean {
    if (this.tree === null) return true; // the backstop is the limit, and it has not fired
    const elapsed = wallTime() - this.started;
    // Not even every CPU busy all along could have used the limit up: no need to look, unless the
    // tree's processes are to be known afresh (the first call, which starts the interpreter, or a long one).
    if ((elapsed / 1000) * this.cores <= this.seconds && this.tree.passed && elapsed < REFRESH_MS) return true;
    return this.used() <= this.seconds;
  }

  /** Ends the looks and the backstop (the call has ended). */
  clear(): void {
    clearTimeout(this.timer);
    clearTimeout(this.backstop);
    clearTimeout(this.idle);
  }

  /** A tree that is gone is ended by its exit, not by its limit. */
  private used(): number {
    return this.tree!.sinceMark() ?? 0;
  }

  /** Looks again in `seconds` of wall time: the soonest the rest of the limit could be used up. */
  private lookIn(seconds: number, stop: () => void): void {
    this.timer = setTimeout(() => {
      const left = this.seconds - this.used();
      if (left < 0) {
        this.clear();
        stop();
      } else this.lookIn(left / this.cores, stop);
    }, Math.max(MIN_CHECK_MS, seconds * 1000));
  }

  /** Samples the tree's CPU time every quarter idle window; stops the call once a whole window used next to none. */
  private watchIdle(samples: number[], stop: () => void): void {
    const tick = Math.max(MIN_CHECK_MS, (this.seconds * IDLE_WINDOW * 1000) / IDLE_TICKS);
    this.idle = setTimeout(() => {
      const window = [...samples, this.used()].slice(-(IDLE_TICKS + 1));
      if (window.length > IDLE_TICKS && window[IDLE_TICKS] - window[0] < IDLE_SHARE * this.seconds) {
        this.clear();
        stop();
      } else this.watchIdle(window, stop);
    }, tick);
  }
}
