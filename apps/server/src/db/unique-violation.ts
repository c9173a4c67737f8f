/** PostgreSQL's code for an insert or update that breaks a unique index. */
const UNIQUE_VIOLATION = '23505';

/**
 * Whether a query failed on a unique index. Drizzle wraps the
 * driver's error, so its cause is looked at too.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) {
    if ((e as { code?: unknown }).code === UNIQUE_VIOLATION) return true;
  }
  return false;
}
