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

export function appendEvent(db: Db, t: number, type: string, payload: unknown): void {
  db.prepare("INSERT INTO events (t, type, payload) VALUES (?, ?, ?)").run(t, type, canonicalJson(payload));
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
