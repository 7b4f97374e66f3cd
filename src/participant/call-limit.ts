import { availableParallelism } from "node:os";
import { wallTime } from "../domain/realtime-clock.js";
import type { ProcessTreeCpu } from "./tree-cpu.js";

/**
 * How many times a call's limit its wall-clock backstop is. A worker that sleeps or blocks uses no
 * CPU, so only wall time can stop it: one that idles outright is stopped at its limit (the idle
 * rule); the backstop is for one that idles between short bursts (hostile, or stuck). An honest call
 * on a loaded machine takes longer in wall time for the same CPU time; this leaves it room to be
 * slowed five times over before the backstop could reach it.
 */
export const WALL_BACKSTOP = 5;

/**
 * A call is idle, and stopped as a hung one, once its tree has used less than IDLE_SHARE of its
 * limit in CPU over the last `limit` seconds of wall time: a worker blocked or asleep for as long as
 * its limit is stopped there, as a timeout would stop it, while a call slowed by a loaded machine
 * still gets its share of a CPU and runs on. Sleeping for less than the limit is not charged (a limit
 * counts CPU time).
 */
const IDLE_SHARE = 0.01;
/** Looks per idle window at most apart (so a call is found idle within a quarter of its limit of the window's end). */
const IDLE_LOOKS = 4;
/** A timer may fire this much early by the wall clock (libuv's timers count whole ms from the loop's cached time). */
const TIMER_SLACK_MS = 5;

/** The CPUs a call's tree could use at once, read once (os.cpus() builds every CPU's record on each call). */
const CORES = Math.max(1, availableParallelism());

/** The shortest wait between two looks at a call's CPU time: bounds how far past its limit it can run, and the cost of looking. */
const MIN_CHECK_MS = 50;

/**
 * A call at least this long ends with a full pass over the tree even when it cannot have used up its
 * limit, so that the next call's mark knows the processes it started (a pass costs a few ms: this
 * keeps it a small share of any call that pays for one).
 */
const REFRESH_MS = 500;

/** The tree's CPU seconds at one look. */
interface Look {
  at: number;
  used: number;
}

/**
 * One call's time limit, in CPU seconds of the worker's whole process tree (tree-cpu.ts): a
 * loaded machine stretches a call's wall time but not its CPU time, so whether a call is within
 * its limit, and so a replay's log, does not depend on what else the machine is doing. One timer
 * looks at the tree's CPU time, each look serving both rules: first when the call could have used
 * up its limit (all CPUs busy from the start) or a quarter of the limit has passed, whichever is
 * sooner, then again as it nears either. `stop` is called once the limit is used up, once the call
 * has idled for its limit in wall time, or once it has taken WALL_BACKSTOP times its limit. At the
 * answer, `within` looks once more, so the verdict never depends on when a look happened to run.
 * Where /proc does not show the process (not Linux), the limit is wall time, as it was.
 */
export class CallLimit {
  private readonly started = wallTime();
  private timer: NodeJS.Timeout | undefined;
  private readonly backstop: NodeJS.Timeout;
  /** Looks since the start, oldest first, trimmed to the newest that is a window old and those after it. */
  private readonly looks: Look[] = [{ at: this.started, used: 0 }];

  /** `tree`: the worker's (null where /proc does not show it, or it could not be started: its error ends the call). */
  constructor(private readonly tree: ProcessTreeCpu | null, private readonly seconds: number, private readonly stop: () => void) {
    tree?.mark();
    this.backstop = setTimeout(stop, (tree === null ? seconds : seconds * WALL_BACKSTOP) * 1000);
    if (tree !== null) this.lookIn(0);
  }

  /** Whether the call, answered now, stayed within its limit. */
  within(): boolean {
    if (this.tree === null) return true; // the backstop is the limit, and it has not fired
    const elapsed = wallTime() - this.started;
    // Not even every CPU busy all along could have used the limit up: no need to look, unless the
    // tree's processes are to be known afresh (the first call, which starts the interpreter, or a long one).
    if ((elapsed / 1000) * CORES <= this.seconds && this.tree.passed && elapsed < REFRESH_MS) return true;
    return this.used() <= this.seconds;
  }

  /** Ends the looks and the backstop (the call has ended). */
  clear(): void {
    clearTimeout(this.timer);
    clearTimeout(this.backstop);
  }

  /** A tree that is gone is ended by its exit, not by its limit. */
  private used(): number {
    return this.tree!.sinceMark() ?? 0;
  }

  /**
   * Looks again at the sooner of: when the rest of the limit could be used up (every CPU busy), and
   * when the idle window could next be complete (a look at most a quarter window later).
   */
  private lookIn(used: number): void {
    const window = this.seconds * 1000;
    const oldest = this.looks[0].at;
    const untilWindow = Math.max(0, oldest + window - wallTime());
    const idleWait = Math.min(window / IDLE_LOOKS, untilWindow || window / IDLE_LOOKS);
    const spendWait = ((this.seconds - used) / CORES) * 1000;
    this.timer = setTimeout(() => this.look(), Math.max(MIN_CHECK_MS, Math.min(idleWait, spendWait)));
  }

  private look(): void {
    const used = this.used();
    if (used > this.seconds || this.idled({ at: wallTime(), used })) {
      this.clear();
      this.stop();
    } else this.lookIn(used);
  }

  /** Records a look; whether the tree used next to no CPU over the last window of the limit's length. */
  private idled(now: Look): boolean {
    const window = this.seconds * 1000 - TIMER_SLACK_MS;
    this.looks.push(now);
    while (this.looks.length > 2 && now.at - this.looks[1].at >= window) this.looks.shift();
    const from = this.looks[0];
    return now.at - from.at >= window && now.used - from.used < IDLE_SHARE * this.seconds;
  }
}
