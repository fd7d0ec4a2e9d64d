/**
 * What a database failure means for whoever meets it, from its SQLSTATE (PostgreSQL and PGlite both set
 * `code`) or the driver's socket error: the one place that decides which failures a retry can cure.
 */

/**
 * - `invalid_data` (class 22): a value the database refuses (NUL in text, too long, out of range); the
 *   same write fails the same way on every retry.
 * - `constraint` (class 23): a NOT NULL, foreign key, unique or check rule refuses the write; as final.
 * - `unavailable`: the database cannot be reached or is shutting down or out of resources (classes 08,
 *   53, 57P, socket errors); a later retry may succeed.
 * - `conflict`: a serialization failure or deadlock (class 40); retrying the transaction is the cure.
 * - `other`: anything else, including failures that are not the database's.
 */
export type DatabaseErrorKind = 'invalid_data' | 'constraint' | 'unavailable' | 'conflict' | 'other';

const socketCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

/** The SQLSTATE of a database error, if `error` is one. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** Classifies a thrown value; see {@link DatabaseErrorKind}. */
export function databaseErrorKind(error: unknown): DatabaseErrorKind {
  const state = sqlState(error);
  if (state) {
    const cls = state.slice(0, 2);
    if (cls === '22') return 'invalid_data';
    if (cls === '23') return 'constraint';
    if (cls === '40') return 'conflict';
    if (cls === '08' || cls === '53' || state.startsWith('57P')) return 'unavailable';
    return 'other';
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && socketCodes.has(code)) return 'unavailable';
  return 'other';
}

/** True for a unique constraint's refusal (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505';
}
