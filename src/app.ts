import type { Clock } from "./domain/clock.js";
import type { Isolation } from "./participant/isolation.js";
import { resumeInstant } from "./service/cadence/clock-control.js";
import { serviceContext, type ServiceContext } from "./service/kernel/context.js";
import type { World } from "./service/kernel/deployment.js";
import { initialiseStore } from "./service/kernel/setup.js";
import { Service, type ServiceOptions } from "./service/service.js";
import { openDb, openSmallDb, type Db } from "./store/db.js";
import { eventCount, logDigest } from "./store/event-log.js";
import { inStepTransaction, stepsDone } from "./store/meta.js";
import { openScratchDb } from "./store/scratch-store.js";

/** Where a store stands as it is opened, before anything is written to it. */
export interface StoreStart {
  /** The season's first instant. */
  seasonStart: number;
  /** Where a served clock resumes: the season's start, or the last logged instant of a resumed store. */
  resumeAt: number;
  /** How many steps of a replay the store has committed (0 for a fresh store). */
  stepsDone: number;
  /** How many events the store has logged (0 for a fresh store). */
  events: number;
}

export interface BasecampOptions<C extends Clock> {
  /** The store's file (resumed when it holds this deployment); absent: in memory, or with `scratch` a temporary file removed on close. */
  db?: string;
  scratch?: boolean;
  /** In memory, a store known to stay small (a backtest's walk): see openSmallDb. */
  small?: boolean;
  /** The service's clock, made once the store is open (a served clock resumes where the store stands). */
  clock: (store: StoreStart) => C;
  /** Refuses a store before the deployment is put into it (a replay's, or `--with-agents`', need of a fresh store): throw to refuse. */
  check?: (store: StoreStart) => void;
  /** How participants' model files run; unset: sandboxed when this machine can, else trusted. */
  isolation?: Isolation;
  /** The organiser's hold on the clock and the appointments kept as it passes (`serve`). */
  service?: (clock: C) => ServiceOptions;
}

/** One Basecamp: the service over its store and clock, and what a face reads of the store through it. */
export interface Basecamp<C extends Clock = Clock> {
  service: Service;
  clock: C;
  /** What the service's own functions take: a replay reads its standings and boards with it. */
  ctx: ServiceContext;
  /** The event log's digest (the determinism check). */
  digest(): string;
  /** How many events the log holds. */
  events(): number;
  /** How many steps of a replay the store has committed. */
  stepsDone(): number;
  /**
   * A replay's step `index`: everything `fn` changes, and the record that the step is done, commit
   * together or not at all (the service's own transactions nest inside). Only a single-caller face
   * (the replay engine) may use it: it holds the store's one transaction across awaits.
   */
  inStep(index: number, fn: () => Promise<void>): Promise<void>;
  /** Closes the store (after `service.idle()` when calls may be under way). */
  close(): void;
}

/**
 * The one composition root: opens (or resumes) the store, makes the clock, puts the deployment into
 * the store (or checks that a resumed store was made from it) and makes the service. `run`,
 * `backtest` (the replay engine), `serve` and `mcp` (the served face) all start here.
 */
export function openBasecamp<C extends Clock>(world: World, opts: BasecampOptions<C>): Basecamp<C> {
  const db: Db = opts.db ? openDb(opts.db) : opts.scratch ? openScratchDb() : opts.small ? openSmallDb() : openDb();
  try {
    const seasonStart = world.schedule.phases[0].start;
    const start: StoreStart = { seasonStart, resumeAt: resumeInstant(db, seasonStart), stepsDone: stepsDone(db), events: eventCount(db) };
    opts.check?.(start);
    const clock = opts.clock(start);
    const ctx = serviceContext({ db, clock, world, modelIsolation: opts.isolation });
    initialiseStore(ctx, clock.now());
    return {
      service: new Service(ctx, opts.service?.(clock)),
      clock,
      ctx,
      digest: () => logDigest(db),
      events: () => eventCount(db),
      stepsDone: () => stepsDone(db),
      inStep: (index, fn) => inStepTransaction(db, index, fn),
      close: () => db.close(),
    };
  } catch (e) {
    db.close();
    throw e;
  }
}
