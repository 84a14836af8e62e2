/**
 * Telling "the database is down" apart from bugs, so pages answer 503 with a clear,
 * translated page (and recover by themselves) instead of 'Unexpected Application Error!'.
 */

// Node socket errors while reaching PostgreSQL.
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EPIPE",
  "EAI_AGAIN",
]);
// SQLSTATE: 57P01-03 admin/crash shutdown, cannot connect now; 53300 too many connections.
const PG_CODES = new Set(["57P01", "57P02", "57P03", "53300"]);
// node-postgres' own connection failures carry no code.
const PG_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /not currently accepting connections/,
  /Client has encountered a connection error/,
];
// SQLite: locked for longer than the busy timeout, or the file cannot be opened.
const SQLITE_CODES = new Set(["SQLITE_BUSY", "SQLITE_CANTOPEN"]);

/** True when the error (or an error it wraps) means the database cannot be reached right now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (
    let e = error, depth = 0;
    e && typeof e === "object" && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    if (e instanceof AggregateError && e.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") {
      if (NETWORK_CODES.has(code) || PG_CODES.has(code) || SQLITE_CODES.has(code)) return true;
      // SQLSTATE class 08: connection exceptions.
      if (/^08[0-9A-Z]{3}$/.test(code)) return true;
    }
    const message = (e as { message?: unknown }).message;
    if (typeof message === "string" && PG_MESSAGES.some((re) => re.test(message))) return true;
  }
  return false;
}

const unavailable = new WeakSet<object>();

/** Remember that this request (keyed by its load context) failed on the database. */
export function markDatabaseUnavailable(loadContext: object) {
  unavailable.add(loadContext);
}

export function failedOnDatabase(loadContext: object): boolean {
  return unavailable.has(loadContext);
}
