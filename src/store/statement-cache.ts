import type Database from "better-sqlite3";

/** Distinct SQL texts kept per connection; past it the cache starts afresh (bounds SQL built per call). */
const LIMIT = 500;

/**
 * Makes `db.prepare` answer the statement it prepared before for the same SQL text, so a hot
 * operation compiles its SQL once per connection rather than on every call. A statement's state
 * lives in its run, so sharing one is safe as long as no caller switches its modes (`pluck`,
 * `raw`, `expand`, `safeIntegers`) or iterates it while calling it again.
 */
export function cacheStatements(db: Database.Database): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  db.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (statement === undefined) {
      if (cache.size >= LIMIT) cache.clear();
      statement = prepare(source);
      cache.set(source, statement);
    }
    return statement;
  }) as Database.Database["prepare"];
}
