import pg from 'pg';

/** Options of {@link openPool}. */
export interface PoolOptions {
  /** Connections kept at most (default 10). */
  readonly maxConnections?: number;
  /**
   * How long a connection may take to open, a statement to run, or a request to wait for a free
   * connection, in milliseconds (default 2000): past it the store answers `StoreUnavailableError`.
   */
  readonly timeoutMs?: number;
}

/** The default of {@link PoolOptions.timeoutMs}. */
export const DEFAULT_POSTGRES_TIMEOUT_MS = 2000;

// Times and ids are bigint columns; milliseconds since the epoch and row ids fit a double.
const { builtins, getTypeParser } = pg.types;
const types: pg.CustomTypesConfig = {
  getTypeParser: (oid, format): unknown =>
    oid === builtins.INT8 && format !== 'binary' ? Number : getTypeParser(oid, format),
};

/** The settings of every connection the service opens, pooled or not. */
export function connectionConfig(url: string, timeoutMs: number): pg.ClientConfig {
  return {
    connectionString: url,
    application_name: 'vouch',
    connectionTimeoutMillis: timeoutMs,
    // The server cancels a slow statement itself and the connection stays usable; the client's
    // own timer, a little later, covers a server that does not answer at all.
    statement_timeout: timeoutMs,
    query_timeout: timeoutMs + 500,
    idle_in_transaction_session_timeout: 4 * timeoutMs,
    keepAlive: true,
    types,
  };
}

/**
 * A bounded pool of connections to the PostgreSQL database a `postgres://` URL names. Nothing is
 * connected yet. An idle connection that breaks (the server restarted, a network cut) is dropped
 * and replaced on the next query; the query that meets the outage reports it.
 */
export function openPool(url: string, options: PoolOptions = {}): pg.Pool {
  const timeoutMs = options.timeoutMs ?? DEFAULT_POSTGRES_TIMEOUT_MS;
  const pool = new pg.Pool({
    ...connectionConfig(url, timeoutMs),
    max: options.maxConnections ?? 10,
    idleTimeoutMillis: 30_000,
  });
  // Without a listener an idle connection's error would end the process.
  pool.on('error', () => {});
  return pool;
}
