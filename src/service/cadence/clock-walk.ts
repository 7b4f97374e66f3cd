import { advanceClockTo, advanceTarget, type AdvanceRequest, type AdvanceResult, type ClockControl } from "./clock-control.js";
import type { ServiceContext } from "../kernel/context.js";

/**
 * Work that waits for the served clock to reach given instants, in time order: the scenario's
 * agents and organiser actions under `serve --with-agents`. A stop may have no work (it only
 * makes the clock halt there, as the replay does at every round transition).
 */
export interface Appointments {
  /** The instant of the next stop not yet kept, or null when none is left. */
  next(): number | null;
  /** Does the next stop's work; the clock stands at (or, running in real time, past) its instant. */
  keepNext(): Promise<void>;
}

/** Runs `fn` in the service's queue of calls, after the rounds are brought up to the clock. */
export type Queue = <T>(fn: () => T | Promise<T>) => Promise<T>;

/**
 * Moves a served clock through its appointments. The clock halts at each stop, the rounds are
 * brought up to it, then the stop's work runs outside the service's queue: it calls the service
 * like any client, so requests from outside interleave between its calls rather than wait for the
 * whole advance. One walk at a time: an advance and the realtime timer's catch-up never overlap.
 */
export class ClockWalk {
  private walking: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly appointments: Appointments,
    private readonly queue: Queue,
    /** Resolves once the participant runs of the steps due by an instant have finished (off the queue: src/service/kernel/runs-ahead.ts, src/service/cadence/look-ahead.ts). */
    private readonly runsDue: (t: number) => Promise<void>,
  ) {}

  /** The organiser's advance: every stop due by the requested instant is kept on the way. */
  advance(control: () => ClockControl, request: AdvanceRequest, authorise: () => void): Promise<AdvanceResult> {
    return this.alone(async () => {
      const until = await this.queue(() => {
        authorise();
        control();
        return advanceTarget(this.ctx, request);
      });
      const moves: AdvanceResult[] = [];
      for (let t = this.appointments.next(); t !== null && t <= until; t = this.appointments.next()) {
        await this.runsDue(t);
        moves.push(await this.queue(() => advanceClockTo(this.ctx, control(), t)));
        await this.appointments.keepNext();
      }
      await this.runsDue(until);
      const last = await this.queue(() => advanceClockTo(this.ctx, control(), until));
      return { ...last, transitions: [...moves, last].flatMap((m) => m.transitions) };
    });
  }

  /** Brings the rounds up to the clock and keeps every stop it has passed (the realtime timer; a fresh server at its start). */
  catchUp(): Promise<void> {
    return this.alone(async () => {
      await this.queue(() => undefined);
      for (let t = this.appointments.next(); t !== null && t <= this.ctx.clock.now(); t = this.appointments.next()) {
        await this.appointments.keepNext();
        await this.queue(() => undefined);
      }
    });
  }

  /** Resolves once the walk under way, if any, has finished. */
  idle(): Promise<void> {
    return this.alone(() => undefined);
  }


  private alone<T>(fn: () => Promise<T> | T): Promise<T> {
    const next = this.walking.then(fn);
    this.walking = next.catch(() => undefined);
    return next;
  }
}
