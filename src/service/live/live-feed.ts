import { eventsAfter, onAppend, type LoggedEvent } from "../../store/event-log.js";
import { refuse } from "../../domain/errors.js";
import type { ServiceContext } from "../kernel/context.js";
import { AgentTallies, type AgentTally } from "./agent-tally.js";

/** What a stream is told. A participant's never carries another agent's data. */
export type LiveMessage =
  | { kind: "hello"; clock_rate: number; uploads: string[] }
  /**
   * Something changed: `uploads` are the agent's own uploads it touched; `mine` is set when the
   * agent's own state moved (its uploads, runs, models, stakes, jobs, machines), `shared` when
   * what every agent sees may have (a board: a run ended; a round or a stake window moved; the
   * scoring changed). Neither: the clock moved, or another agent's own business did, so only the
   * status is worth reading again.
   */
  | { kind: "changed"; clock_rate: number; uploads: string[]; mine?: true; shared?: true }
  | { kind: "events"; clock_rate: number; events: LoggedEvent[]; tallies: AgentTally[] }
  | { kind: "refusal"; method: string; path: string; status: number; code: string; message: string; agent: string | null };

/** Who listens: an agent (by name) or the organiser (`agent: null`), and where its messages go. */
export interface LiveListener {
  agent: string | null;
  key: string;
  send(message: LiveMessage): void;
  /** Closes the listener's stream (the feed is closing). */
  end(): void;
}

export interface LiveFeedOptions {
  /** Simulated seconds per wall-clock second right now (0 for a manual or paused clock): pages count down with it. */
  clockRate: () => number;
  /** Open streams per key. */
  maxStreamsPerKey?: number;
  /** Wall-clock ms over which appends are gathered into one push (GATHER_MS unless given). */
  gatherMs?: number;
}

/** Events after which what every agent sees may read differently: the boards, the rounds, the stake windows, the scoring. */
const SHARED_MOVES = /^(run\.(finalised|failed|removed|cancelled)|round\.|stakes?\.(locked|settled)|final\.|scoring\.|submission\.)/;

/**
 * Wall-clock ms over which a busy event's appends are gathered into one push: a page redraws at
 * most once a second (each agent's page reads again at most once a second anyway, common.js
 * REFRESH_GAP_MS), so twenty agents submitting cost the browser one redraw a second, not a redraw
 * each time the log grows; the pushes' timer is the feed's own, not the service's clock.
 */
export const GATHER_MS = 1000;

/** The events one push carries to the organiser at most (the console keeps fewer rows still). */
export const FEED_BATCH = 200;
const READ_CHUNK = 5000;

/**
 * The web app's live channel: told when the store's event log grows (or the organiser moves the
 * clock), it reads the new events after a short gathering delay and pushes to each listener what
 * concerns it: the organiser gets the events and the per-agent tallies; an agent only that
 * something changed and which of its own uploads did, so its page re-reads `/api/v1`. It only
 * reads the log, so the event log and its digest are as without it.
 */
export class LiveFeed {
  private readonly listeners = new Set<LiveListener>();
  private readonly tallies = new AgentTallies();
  /** The newest events read, for a console that connects later. */
  private readonly recent: LoggedEvent[] = [];
  private cursor = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly stopListening: () => void;
  private readonly maxPerKey: number;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly options: LiveFeedOptions,
  ) {
    this.maxPerKey = options.maxStreamsPerKey ?? 4;
    this.stopListening = onAppend(ctx.db, () => this.changed());
  }

  /** Adds a listener (refused past the per-key cap) and greets it; returns how to remove it. */
  subscribe(listener: LiveListener): () => void {
    const open = [...this.listeners].filter((l) => l.key === listener.key).length;
    if (open >= this.maxPerKey) throw refuse("live_streams_exhausted", { limit: this.maxPerKey });
    // Those already listening hear of what is unread before the newcomer's greeting includes it.
    this.push();
    this.listeners.add(listener);
    const rate = this.options.clockRate();
    if (listener.agent === null) listener.send({ kind: "events", clock_rate: rate, events: [...this.recent], tallies: this.tallies.all() });
    else listener.send({ kind: "hello", clock_rate: rate, uploads: this.tallies.uploadsOf(listener.agent) });
    return () => this.listeners.delete(listener);
  }

  /** Something changed (the log grew, the clock was moved): push once the gathering delay is over. */
  changed(): void {
    if (this.timer !== undefined || this.listeners.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.push();
    }, this.options.gatherMs ?? GATHER_MS);
    this.timer.unref();
  }

  /** A refused API call: to the organiser, and to the streams opened with the caller's key. */
  refused(key: string | undefined, refusal: Omit<Extract<LiveMessage, { kind: "refusal" }>, "kind" | "agent">): void {
    const own = [...this.listeners].find((l) => l.key === key && l.agent !== null);
    for (const l of this.listeners) {
      if (l.agent === null || l.key === key) l.send({ kind: "refusal", ...refusal, agent: own?.agent ?? null });
    }
  }

  /** Stops listening to the store and ends every stream (an open response would hold a server's close). */
  close(): void {
    clearTimeout(this.timer);
    this.stopListening();
    for (const l of [...this.listeners]) l.end();
    this.listeners.clear();
  }

  private push(): void {
    const { events, touched, concerned, shared } = this.readNew();
    if (this.listeners.size === 0) return;
    const rate = this.options.clockRate();
    const tallies = this.tallies.all();
    for (const l of this.listeners) {
      if (l.agent === null) l.send({ kind: "events", clock_rate: rate, events, tallies });
      else {
        const hints = { ...(concerned.has(l.agent) ? { mine: true as const } : {}), ...(shared ? { shared: true as const } : {}) };
        l.send({ kind: "changed", clock_rate: rate, uploads: [...(touched.get(l.agent) ?? [])], ...hints });
      }
    }
  }

  /**
   * Folds every event after the cursor; returns the newest of them, per agent the uploads they
   * touched, the agents they concerned, and whether any moved what every agent sees.
   */
  private readNew(): { events: LoggedEvent[]; touched: Map<string, Set<string>>; concerned: Set<string>; shared: boolean } {
    const events: LoggedEvent[] = [];
    const touched = new Map<string, Set<string>>();
    const concerned = new Set<string>();
    let shared = false;
    for (;;) {
      const chunk = eventsAfter(this.ctx.db, this.cursor, READ_CHUNK);
      for (const e of chunk) {
        const agent = this.tallies.fold(e);
        const id = (e.payload as { upload_id?: unknown } | null)?.upload_id;
        if (agent !== null) concerned.add(agent);
        if (agent !== null && typeof id === "string") touched.set(agent, (touched.get(agent) ?? new Set()).add(id));
        shared ||= SHARED_MOVES.test(e.type);
        events.push(e);
        this.recent.push(e);
        if (events.length > FEED_BATCH) events.shift();
        if (this.recent.length > FEED_BATCH) this.recent.shift();
      }
      if (chunk.length > 0) this.cursor = chunk[chunk.length - 1].seq;
      if (chunk.length < READ_CHUNK) break;
    }
    return { events, touched, concerned, shared };
  }
}
