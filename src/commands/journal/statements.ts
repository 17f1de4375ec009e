import type Database from 'better-sqlite3';

/**
 * Prepared statements kept for the life of one connection. better-sqlite3 compiles the SQL again
 * on every `db.prepare`, and the journal's hot paths (the outbox after every delivery, the rate
 * budget on every request) ran the same dozen statements thousands of times in a burst; compiling
 * each once per table instance takes that cost away. A statement belongs to its connection, so
 * the cache lives beside the `Db` it was made from (one per table object). Do not call `.pluck()`
 * or `.raw()` on a cached statement unless every caller of that SQL wants it: the mode sticks.
 */
export type Prepare = (sql: string) => Database.Statement;

export function statementCache(db: Database.Database): Prepare {
  const cache = new Map<string, Database.Statement>();
  return (sql) => {
    let statement = cache.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };
}
