import type { Db } from "./db.js";

/** A published round's instruments: the ids in their published order and each id's position. */
export interface RoundUniverse {
  ids: readonly string[];
  position: ReadonlyMap<string, number>;
}

/**
 * Read once per store: a round's instruments are published all at once as it opens and never
 * change after, so the store is asked again only by a new connection (a resumed run starts cold).
 */
const published = new WeakMap<Db, Map<string, RoundUniverse>>();

function publishedOn(db: Db): Map<string, RoundUniverse> {
  let rounds = published.get(db);
  if (!rounds) published.set(db, (rounds = new Map()));
  return rounds;
}

const none: RoundUniverse = { ids: [], position: new Map() };

/** The round's instruments; none (and nothing kept) while it has not opened. */
export function roundUniverse(db: Db, exped: string): RoundUniverse {
  const rounds = publishedOn(db);
  const known = rounds.get(exped);
  if (known) return known;
  const ids = (db.prepare("SELECT instrument_id FROM instruments WHERE exped = ? ORDER BY pos").all(exped) as { instrument_id: string }[]).map(
    (r) => r.instrument_id,
  );
  if (ids.length === 0) return none;
  const universe = universeOf(ids);
  rounds.set(exped, universe);
  return universe;
}

/**
 * Publishes a round's instruments in one statement (a JSON array's index is the position): a call
 * per id costs twice as much. The universe is kept as published, so the round's first reader does
 * not read back the rows just written. Should the transaction publishing it roll back, the round
 * is still unopened and its readers ask only of opened rounds; it is published again, from the
 * same round, as it opens.
 */
export function publishUniverse(db: Db, exped: string, ids: readonly string[]): void {
  db.prepare("INSERT INTO instruments (exped, pos, instrument_id) SELECT ?, key, value FROM json_each(?)").run(exped, JSON.stringify(ids));
  if (ids.length > 0) publishedOn(db).set(exped, universeOf(ids));
}

const universeOf = (ids: readonly string[]): RoundUniverse => ({ ids, position: new Map(ids.map((id, i) => [id, i])) });
