/**
 * The little of a PostgreSQL client the store uses, so that its types do not depend on `pg`'s: a
 * `pg.Pool` fits as it is. `connectPool` loads `pg` (an optional peer dependency) only when called.
 */

/** What a query answers. */
export interface SqlResult<Row> {
  /** The rows returned. */
  readonly rows: Row[];
  /** How many rows the statement returned or changed. */
  readonly rowCount: number | null;
}

/** A connection taken from a pool, for a transaction; `release` gives it back. */
export interface SqlClient {
  /** Runs one statement with its parameters ($1, $2, …). */
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<SqlResult<Row>>;
  /** Gives the connection back; with an error, closes it instead. */
  release(error?: Error | boolean): void;
}

/** A pool of connections (`pg.Pool`). */
export interface SqlPool {
  /** Runs one statement on any connection. */
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<SqlResult<Row>>;
  /** Takes a connection for a transaction. */
  connect(): Promise<SqlClient>;
  /** Closes every connection. */
  end(): Promise<void>;
}

/** Options of the pool `connectPool` makes. */
export interface PoolOptions {
  /** The most connections at once. Default 10. */
  readonly max?: number;
  /** Give up connecting after this long, in milliseconds. Default 5,000. */
  readonly connectionTimeoutMillis?: number;
}

/**
 * A `pg.Pool` on a connection string, with errors of idle connections (the server restarting, say)
 * passed to `onError` instead of ending the process.
 */
export async function connectPool(
  url: string,
  options: PoolOptions = {},
  onError: (error: Error) => void = () => {},
): Promise<SqlPool> {
  const pg = await import('pg');
  const Pool = pg.default.Pool;
  const pool = new Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 5000,
  });
  pool.on('error', onError);
  return pool;
}

/** Runs `work` in a transaction on one connection: committed when it resolves, rolled back when it throws. */
export async function inTransaction<T>(pool: SqlPool, work: (client: SqlClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    // A connection in an unknown state is closed rather than given back.
    client.release(error instanceof Error ? error : true);
    throw error;
  }
}
