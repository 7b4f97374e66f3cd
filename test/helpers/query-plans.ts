import type { Db } from "../../src/store/db.js";

/** Every SQL text the store is asked to prepare from now on. */
export function recordStatements(db: Db): Set<string> {
  const seen = new Set<string>();
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => {
    seen.add(source);
    return prepare(source);
  }) as Db["prepare"];
  return seen;
}

/** Counts how often a statement containing `fragment` is prepared from now on (the statement cache hands it out once per use). */
export function countPrepares(db: Db, fragment: string): () => number {
  const prepare = db.prepare.bind(db);
  let asked = 0;
  db.prepare = ((source: string) => {
    if (source.includes(fragment)) asked++;
    return prepare(source);
  }) as Db["prepare"];
  return () => asked;
}

/** The query plan's lines for `sql`, its parameters bound to null. */
export function plan(db: Db, sql: string): string[] {
  const params = new Array<null>((sql.match(/\?/g) ?? []).length).fill(null);
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
}
