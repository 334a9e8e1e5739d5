import { StoreUnavailableError } from 'vouch';

// SQLSTATE classes meaning "the server cannot answer now", as opposed to a bug in a query:
// connection exceptions, transaction rollbacks (serialisation, deadlock), insufficient resources,
// objects not in the state needed (a database refusing connections, a lock not available),
// operator intervention (shutdown, a statement cancelled by its timeout), system errors, and a
// database or role that disappeared or whose credentials changed.
const UNAVAILABLE_CLASSES = new Set(['08', '40', '53', '55', '57', '58', '3D', '28']);
// What Node's sockets report when the server cannot be reached.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * Translates what the `pg` driver throws into the store contract: `StoreUnavailableError` (503)
 * for an unreachable, slow or refusing server, a broken connection, or a pool that has no
 * connection to give within its timeout; any other error unchanged (a bug, so a 500). The message
 * names the condition, never the connection string.
 */
export function toStoreError(error: unknown): Error {
  if (!(error instanceof Error)) return new Error(String(error));
  if (error instanceof StoreUnavailableError) return error;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
    // The server's own words (`role "x" does not exist`) never quote a password.
    return UNAVAILABLE_CLASSES.has(code.slice(0, 2))
      ? unavailable(`${error.message}, ${code}`, error)
      : error;
  }
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return unavailable(code, error);
  // The driver's own failures (a connection that ended or timed out, a pool that is closed) are
  // plain Errors without a code; a TypeError or the like is a bug.
  if (code === undefined && error.constructor === Error) return unavailable(error.message, error);
  return error;
}

function unavailable(reason: string, cause: Error): StoreUnavailableError {
  return new StoreUnavailableError(`database unavailable (${reason})`, { cause });
}
