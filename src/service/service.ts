import { operations, type OperationName, type Operations } from "../contract/index.js";
import { refuse } from "../domain/errors.js";
import { authenticate, readerScopes, requireScope, type Principal } from "./kernel/auth.js";
import type { Lane } from "../store/uploads.js";
import type { UploadPath } from "./event/uploads.js";
import { EVENT_UPLOAD_DEFAULTS } from "./kernel/settings/upload-limits.js";
import { uploadCheckPool } from "./event/upload-check-pool.js";
import { IntakeSlots } from "./event/intake-slots.js";
import { advanceRounds, type DueStep } from "./cadence/cadence-steps.js";
import { advanceClockTo, advanceTarget, type AdvanceRequest, type ClockControl } from "./cadence/clock-control.js";
import { ClockWalk, type Appointments } from "./cadence/clock-walk.js";
import type { ServiceContext } from "./kernel/context.js";
import { requireOrganiser } from "./kernel/organiser.js";
import { RateLimiter } from "./kernel/rate-limit.js";
import { lookAhead } from "./cadence/look-ahead.js";
import { runsAhead, stopRunsAhead } from "./kernel/runs-ahead.js";
import { AuthFailures } from "./kernel/auth-failures.js";
import { fileLimits } from "./kernel/file-limits.js";
import { isOffPath, type Call, type Handler } from "./handlers/call.js";
import { handlers, type Handlers } from "./handlers/index.js";

type Args<H> = H extends (call: Call, ...args: infer A) => unknown ? A : never;
type Answer<H> = H extends (...args: never[]) => infer R ? Awaited<R> : never;

/** The operations as methods: a keyed one takes the caller's key first (a public one takes none), then its arguments. */
export type ServiceOperations = {
  [N in keyof Handlers]: Operations[N]["scope"] extends "none"
    ? (...args: Args<Handlers[N]>) => Promise<Answer<Handlers[N]>>
    : (key: string | undefined, ...args: Args<Handlers[N]>) => Promise<Answer<Handlers[N]>>;
};

/** The rate limit a call of a keyed operation counts against. */
function rateOf(name: OperationName, args: readonly unknown[]): string {
  const rate = (operations[name] as { rate?: string | ((args: readonly unknown[]) => string) }).rate;
  if (rate === undefined) throw new Error(`the contract names no rate limit for the keyed operation ${name}`);
  return typeof rate === "function" ? rate(args) : rate;
}

export interface ServiceOptions {
  /** The organiser's hold on the clock (`basecamp serve`); without it clock control is refused. */
  clockControl?: ClockControl;
  /** Work kept as the clock passes its instants (`serve --with-agents`), made once for this service. */
  appointments?: (service: Service) => Appointments;
}

// The operations' methods are made in the constructor, one per contract entry.
export interface Service extends ServiceOperations {}

/**
 * The service's operations, one method each, for every face to call with the caller's API key.
 * Each call first brings the rounds up to the clock, so every face sees the same state at the same
 * simulated time. Calls run one at a time: a settlement awaiting its scores never interleaves
 * with another call. Every keyed call counts against the deployment's rate limit for its
 * operation (the spec's "per key and endpoint": one operation is one endpoint).
 */
export class Service {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly limiter: RateLimiter;
  private readonly authFailures: AuthFailures;
  private readonly intake: Record<Lane, IntakeSlots>;
  private readonly walk: ClockWalk | undefined;

  constructor(
    readonly ctx: ServiceContext,
    private readonly options: ServiceOptions = {},
  ) {
    for (const name of Object.keys(handlers) as (keyof Handlers)[]) {
      const method =
        operations[name].scope === "none"
          ? (...args: unknown[]) => this.perform(name, undefined, args)
          : (key: string | undefined, ...args: unknown[]) => this.perform(name, key, args);
      Object.assign(this, { [name]: method });
    }
    this.limiter = new RateLimiter(ctx.world.deployment.rate_limit);
    this.authFailures = new AuthFailures(ctx.world.deployment.rate_limit);
    const event = ctx.world.deployment.event;
    const lane = () => new IntakeSlots(event?.intake_concurrency ?? 1, event?.intake_per_agent ?? 1);
    this.intake = { round: lane(), practice: lane() };
    this.walk =
      options.appointments &&
      new ClockWalk(ctx, options.appointments(this), (fn) => this.run(fn), (t) => runsAhead(ctx).due(t) ?? Promise.resolve());
  }

  /**
   * A place in a multipart lane's bounded intake for the agent `key` stands for, taken after the
   * key is authenticated (a missing, unknown or blocked key is refused and holds nothing) and
   * before the face reads an upload's body; 503 with `Retry-After: 5` when the lane, or the agent's
   * share of it, is full. Call the returned function once done. `from` is the caller's network
   * address, as for `perform`.
   */
  intakeSlot(key: string | undefined, lane: Lane, from?: string): () => void {
    return this.intake[lane].take(this.authenticate(key, from).agent_id);
  }

  /**
   * How an upload reaches the store: its short steps on the serial path, its files read by the
   * deployment's pool of worker threads meanwhile (authenticated and counted first, so no unknown
   * key makes the service read a file). A machine command takes the same serial steps (its run is
   * the work done meanwhile).
   */
  private readonly uploadPath: UploadPath = {
    serial: (fn) => this.run(fn),
    checkFiles: (files, rules) => {
      // A tournament's model files are checked by a pool of the event's default size.
      const pool = this.ctx.world.deployment.event ?? EVENT_UPLOAD_DEFAULTS;
      return uploadCheckPool(pool.upload_check_workers, pool.upload_check_memory_mb).check(files, rules);
    },
  };

  /** Runs `fn` after every earlier call has finished. */
  private serial<T>(fn: () => T | Promise<T>): Promise<T> {
    const next = this.queue.then(fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Runs `fn` on the serial path after the rounds are brought up to the clock (it is given the
   * round transitions that applied). The participant runs (predicts, sandboxed fits) of the steps
   * due by now are awaited first, off the serial path, so the steps only write their results; the
   * runs `fn` has made ready start right after it (src/service/kernel/runs-ahead.ts, src/service/cadence/look-ahead.ts).
   */
  private run<T>(fn: (steps: DueStep[]) => T | Promise<T>): Promise<T> {
    const onPath = () =>
      this.serial(async () => {
        const steps = await advanceRounds(this.ctx);
        try {
          return await fn(steps);
        } finally {
          lookAhead(this.ctx);
        }
      });
    return this.afterRunsDue(this.ctx.clock.now(), onPath);
  }

  /** `then` once the runs of the steps due by `t` have finished; at once (keeping the calls' order) when none is under way. */
  private afterRunsDue<T>(t: number, then: () => Promise<T>): Promise<T> {
    const waiting = runsAhead(this.ctx).due(t);
    return waiting ? waiting.then(then) : then();
  }

  /**
   * Who `key` stands for. A network caller (`from`, its address, given by a face that has one) whose
   * unknown keys passed the ceiling is refused (429) before its key is looked up, unless the key is
   * one already at work from that address; each unknown key counts one against it.
   */
  private authenticate(key: string | undefined | null, from: string | undefined): Principal {
    if (from === undefined) return authenticate(this.ctx, key);
    const now = this.ctx.clock.now();
    this.authFailures.check(from, key, now);
    return this.authFailures.counting(from, key, now, () => authenticate(this.ctx, key));
  }

  /**
   * Runs the operation `name` for `key` with the operation's arguments, as the contract says: a keyed
   * operation authenticates the key and counts the call against its rate limit (a read refuses an
   * LLM-scoped key), an organiser's checks the organiser key, then its handler runs on the serial
   * path (an off-path handler after it, taking its own serial steps). Every face calls this; one
   * that serves a network gives the caller's address as `from` (the service counts failed
   * authentications per address, src/service/kernel/auth-failures.ts); an in-process caller has none.
   */
  perform(name: OperationName, key: string | undefined, args: readonly unknown[], from?: string): Promise<unknown> {
    if (name === "advanceClock") return this.advanceClock(key, args[0] as AdvanceRequest);
    const op = operations[name];
    const handler: Handler = handlers[name];
    const call = (principal?: Principal): Call => ({
      ctx: this.ctx,
      principal: principal as Principal,
      key,
      authenticate: (k) => this.authenticate(k, from),
      uploadPath: this.uploadPath,
      clockControl: () => this.clockControl(),
    });
    if (op.scope === "none" || op.scope === "optional") return this.run(() => handler(call(), ...args));
    if (op.scope === "organiser") {
      return this.run(() => {
        requireOrganiser(this.ctx, key);
        return handler(call(), ...args);
      });
    }
    const rate = rateOf(name, args);
    const admit = () => {
      const p = this.authenticate(key, from);
      this.limiter.hit(key as string, rate, this.ctx.clock.now());
      if (op.scope === "reader") requireScope(p, readerScopes, rate);
      return p;
    };
    if (!isOffPath(handler)) return this.run(() => handler(call(admit()), ...args));
    // The handler's answer is wrapped, so that the admitting step does not wait for it.
    return this.run(() => ({ answer: this.startOffPath(handler, call(admit()), args) })).then(({ answer }) => answer);
  }

  /**
   * Starts an off-path handler inside the step that admitted its caller. A serial step it asks for
   * before it first awaits (an upload's checks that need no file) runs there and then, as the next
   * step on the path would, without queueing behind every call made meanwhile; its later steps queue.
   */
  private startOffPath(handler: Handler, call: Call, args: readonly unknown[]): Promise<unknown> {
    let admitting = true;
    const serial: UploadPath["serial"] = (fn) => (admitting ? new Promise((resolve) => resolve(fn())) : this.uploadPath.serial(fn));
    try {
      return Promise.resolve(handler({ ...call, uploadPath: { ...this.uploadPath, serial } }, ...args));
    } finally {
      admitting = false;
    }
  }

  private clockControl(): ClockControl {
    if (!this.options.clockControl) throw refuse("clock_control_unavailable");
    return this.options.clockControl;
  }

  /**
   * Resolves once every call made so far, the clock's walk under way and the participants' runs
   * under way have finished, with no further run planned (a clean shutdown waits on it).
   */
  async idle(): Promise<void> {
    await this.walk?.idle();
    await this.serial(() => undefined);
    await stopRunsAhead(this.ctx);
  }

  /** Applies every round transition due by now; returns what it did. */
  sync(): Promise<DueStep[]> {
    return this.run((steps) => steps);
  }

  /** Brings the service up to the clock, keeping every appointment the clock has passed. */
  catchUp(): Promise<void> {
    return this.walk ? this.walk.catchUp() : this.sync().then(() => undefined);
  }

  /**
   * The upload limits, for a face that must read a caller's files itself: the key is authenticated
   * first (401 before any file is touched) and the call is not counted against a rate limit.
   */
  fileLimits = (key: string | undefined) =>
    this.run(() => {
      authenticate(this.ctx, key);
      return fileLimits(this.ctx);
    });

  /** Organiser: moves the clock forward and applies the round transitions due on the way (keeping the appointments due, in time order). */
  advanceClock = (key: string | undefined, request: AdvanceRequest) =>
    this.walk
      ? this.walk.advance(() => this.clockControl(), request, () => requireOrganiser(this.ctx, key))
      : this.run(() => {
          requireOrganiser(this.ctx, key);
          return { control: this.clockControl(), until: advanceTarget(this.ctx, request) };
        }).then(({ control, until }) => this.afterRunsDue(until, () => this.run(() => advanceClockTo(this.ctx, control, until))));
}
