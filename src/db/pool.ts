import pg from "pg";

/** Anything that runs a query: the pool, or a client inside a transaction. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

/**
 * Runs a hot-path statement as a named prepared statement (parsed and planned once per connection): planning
 * these took several times the PostgreSQL CPU of running them (issue 8, bench/results/latest.md).
 */
export function queryPrepared<R extends pg.QueryResultRow>(
  db: Queryable,
  name: string,
  text: string,
  values: unknown[],
): Promise<pg.QueryResult<R>> {
  // Every Queryable is a pg Pool, PoolClient or Database, whose query() hands a config object to pg as it is.
  return (db as unknown as Pick<pg.Pool, "query">).query<R>({ name, text, values });
}

// bigint columns (balances, sequence numbers) come back as JS numbers: they stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** A pg pool with the one transaction helper every service uses. */
export class Database {
  readonly pool: pg.Pool;

  constructor(connectionString: string, max = 20) {
    // JIT off: Wakha's statements are short OLTP ones, and PostgreSQL compiles any whose estimated cost passes
    // jit_above_cost. A subplan the executor never runs still counts in that estimate (the creation snapshot's
    // per-number count with the daily limit off, once ANALYZE saw many calls to one number): 7-11 ms of compilation
    // per creation batch, 2.3 ms of PostgreSQL CPU per POST /v1/calls instead of 0.24 in the bench.
    this.pool = new pg.Pool({ connectionString, max, application_name: "wakha", options: "-c jit=off" });
    // An idle client's error (server restart) must not crash the process; the next checkout reconnects.
    this.pool.on("error", () => {});
  }

  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    return this.pool.query<R>(text, values);
  }

  /** Runs fn in one transaction; any throw rolls everything back. */
  async tx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      const result = await fn(client);
      await client.query("COMMIT");
      return result;
    } catch (err) {
      await client.query("ROLLBACK").catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
