
/** How many participant runs (predicts, sandboxed fits) run ahead of their steps at once: the machine's other work keeps its share. */
export const RUNS_AHEAD_AT_ONCE = 2;

/** Work started ahead of the step that applies it: its result is a pure function of inputs fixed when it starts. */
export interface AheadWork<T> {
  /** Names the work and every input it reads: a step whose inputs differ asks for another key. */
  key: string;
  /** The simulated instant of the step that applies it. */
  t: number;
  run: () => Promise<T>;
}

interface Entry {
  key: string;
  t: number;
  result: Promise<unknown>;
  /** Starts a run still waiting for a place; a no-op once started. */
  start: () => void;
  started: boolean;
  settled: boolean;
}

/**
 * Participant runs started as soon as their inputs are fixed, off the service's serial path, so
 * that the step applying each (at its scheduled simulated instant, on the serial path) finds it
 * done or under way rather than starting it there. A step never depends on this: asking for a key nothing started runs the work there and then, so
 * what a step writes, and the log, are the same whether its run went ahead or not.
 */
export class RunsAhead {
  private readonly entries = new Map<string, Entry>();
  /**
   * Runs dropped from the plan after they started (a cancelled job's fit runs on to its wall
   * bound): kept until they finish, so stop() waits for them and they keep their place meanwhile.
   */
  private readonly dropped = new Map<string, Entry>();
  private running = 0;

  /**
   * Starts (or queues) each work not already under way; drops every entry whose key is not among
   * them (its step will not come). A dropped run still under way is taken back if its key returns.
   */
  plan(works: AheadWork<unknown>[]): void {
    const wanted = new Set(works.map((w) => w.key));
    for (const [key, entry] of this.entries) {
      if (wanted.has(key)) continue;
      this.entries.delete(key);
      if (entry.started && !entry.settled) this.dropped.set(key, entry);
    }
    for (const w of works) {
      if (this.entries.has(w.key)) continue;
      this.entries.set(w.key, this.dropped.get(w.key) ?? this.entry(w));
      this.dropped.delete(w.key);
    }
    this.pump();
  }

  /** The work's result: the run under way or done for its key (taken, so it is not kept), else a run started now. */
  take<T>(key: string, run: () => Promise<T>): Promise<T> {
    const entry = this.entries.get(key);
    if (!entry) return run();
    this.entries.delete(key);
    entry.start();
    return entry.result as Promise<T>;
  }

  /**
   * Resolves once every run whose step is due by `t` has finished (those not started yet are
   * started first); null when none is unfinished, so a caller with nothing to wait for need not yield.
   */
  due(t: number): Promise<void> | null {
    const waiting = [...this.entries.values()].filter((e) => e.t <= t && !e.settled);
    if (waiting.length === 0) return null;
    for (const e of waiting) e.start();
    return Promise.allSettled(waiting.map((e) => e.result)).then(() => undefined);
  }

  /** Drops every planned run and resolves once those under way have finished (a clean shutdown: nothing outlives the store). */
  stop(): Promise<void> {
    const underWay = [...this.entries.values(), ...this.dropped.values()].filter((e) => e.started && !e.settled);
    this.entries.clear();
    return Promise.allSettled(underWay.map((e) => e.result)).then(() => undefined);
  }

  private entry(w: AheadWork<unknown>): Entry {
    let begin!: () => void;
    const gate = new Promise<void>((resolve) => (begin = resolve));
    const entry: Entry = {
      key: w.key,
      t: w.t,
      started: false,
      settled: false,
      start: () => {
        if (entry.started) return;
        entry.started = true;
        this.running += 1;
        begin();
      },
      result: gate.then(() => w.run()),
    };
    entry.result.then(
      () => this.finished(entry),
      () => this.finished(entry),
    );
    return entry;
  }

  private finished(entry: Entry): void {
    entry.settled = true;
    if (this.dropped.get(entry.key) === entry) this.dropped.delete(entry.key);
    this.running -= 1;
    this.pump();
  }

  /** Starts the earliest-due waiting runs while places are free. */
  private pump(): void {
    const waiting = [...this.entries.values()].filter((e) => !e.settled).sort((a, b) => a.t - b.t);
    for (const e of waiting) {
      if (this.running >= RUNS_AHEAD_AT_ONCE) return;
      e.start();
    }
  }
}

/** Where a service keeps its runs going ahead (ServiceState.runsAhead): typed here, so this file needs no context. */
interface Holder {
  state: { runsAhead: RunsAhead | undefined };
}

/** The runs going ahead for this service's store (one set per context). */
export function runsAhead(ctx: Holder): RunsAhead {
  return (ctx.state.runsAhead ??= new RunsAhead());
}

/**
 * Stops the context's runs (RunsAhead.stop) and forgets them: a later call plans afresh with a new
 * set rather than finding a plan that stop() emptied.
 */
export function stopRunsAhead(ctx: Holder): Promise<void> {
  const r = ctx.state.runsAhead;
  ctx.state.runsAhead = undefined;
  return r ? r.stop() : Promise.resolve();
}

/** For a step: the result of `work`, gone ahead or run now. */
export function aheadOrNow<T>(ctx: Holder, key: string, run: () => Promise<T>): Promise<T> {
  const r = ctx.state.runsAhead;
  return r ? r.take(key, run) : run();
}
