import { createHash } from "node:crypto";
import { canonicalJson } from "./canonical-json.js";
import type { Db } from "./db.js";

/** One line of the append-only event log. `t` is simulated epoch ms. */
export interface LoggedEvent {
  seq: number;
  t: number;
  type: string;
  payload: unknown;
}

/** Who is told that a store's log grew (the web app's live streams); they only read the log later. */
const appendListeners = new WeakMap<Db, Set<() => void>>();

/**
 * Calls `listener` after each append to `db`'s log, until the returned function is called. The
 * listener runs inside the writer's transaction, so it must only schedule a later read (a rolled
 * back append is then simply not there to read).
 */
export function onAppend(db: Db, listener: () => void): () => void {
  const set = appendListeners.get(db) ?? new Set();
  appendListeners.set(db, set);
  set.add(listener);
  return () => set.delete(listener);
}

export function appendEvent(db: Db, t: number, type: string, payload: unknown): void {
  db.prepare("INSERT INTO events (t, type, payload) VALUES (?, ?, ?)").run(t, type, canonicalJson(payload));
  for (const listener of appendListeners.get(db) ?? []) listener();
}

/** Up to `limit` events after `seq`, in order, their payloads parsed. */
export function eventsAfter(db: Db, seq: number, limit: number): LoggedEvent[] {
  const rows = db.prepare("SELECT seq, t, type, payload FROM events WHERE seq > ? ORDER BY seq LIMIT ?").all(seq, limit) as {
    seq: number;
    t: number;
    type: string;
    payload: string;
  }[];
  return rows.map((r) => ({ seq: r.seq, t: r.t, type: r.type, payload: JSON.parse(r.payload) as unknown }));
}

/** The log as canonical JSON lines `{"payload":…,"seq":…,"t":…,"type":…}`, one per event. */
export function* eventLines(db: Db): Generator<string> {
  const rows = db.prepare("SELECT seq, t, type, payload FROM events ORDER BY seq").iterate() as Iterable<{
    seq: number;
    t: number;
    type: string;
    payload: string;
  }>;
  for (const r of rows) {
    yield `{"payload":${r.payload},"seq":${r.seq},"t":${r.t},"type":${JSON.stringify(r.type)}}`;
  }
}

/** sha256 over the log's canonical JSON lines: equal logs, byte for byte, give equal digests. */
export function logDigest(db: Db): string {
  const h = createHash("sha256");
  for (const line of eventLines(db)) h.update(line + "\n");
  return h.digest("hex");
}

export function eventCount(db: Db): number {
  return (db.prepare("SELECT COUNT(*) AS n FROM events").get() as { n: number }).n;
}

/** The instant of the latest logged event; null for an empty log. */
export function lastEventInstant(db: Db): number | null {
  const { t } = db.prepare("SELECT MAX(t) AS t FROM events").get() as { t: number | null };
  return t;
}
