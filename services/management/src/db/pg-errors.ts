/**
 * The one place Postgres errors are decoded. TypeORM wraps the driver's error in a
 * `QueryFailedError` whose `driverError` carries the SQLSTATE (`code`) and, for a constraint
 * violation, the constraint's name; a store turns the ones it expects into typed errors.
 * SQLSTATE values: https://www.postgresql.org/docs/current/errcodes-appendix.html.
 */

export const PG_UNIQUE_VIOLATION = '23505';
export const PG_FOREIGN_KEY_VIOLATION = '23503';
export const PG_UNDEFINED_TABLE = '42P01';
/** Class 22, data exception (a NUL character, a value out of range): the values can never be stored. */
export const PG_DATA_EXCEPTION_CLASS = '22';

/**
 * The server cannot take the query now (shutdown, crash recovery, too many connections) or the
 * connection broke (class 08): a later try may succeed.
 */
export const PG_UNAVAILABLE_CODES: ReadonlySet<string> = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '08000', // connection_exception
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08003', // connection_does_not_exist
  '08004', // sqlserver_rejected_establishment_of_sqlconnection
  '08006', // connection_failure
]);

/** What a failed query says about itself: its SQLSTATE and, for a constraint violation, the constraint. */
export interface PgFailure {
  code: string;
  constraint: string | undefined;
}

/** The SQLSTATE of a failed query (TypeORM's `driverError`), or null for any other error. */
export function pgFailureOf(error: unknown): PgFailure | null {
  if (error === null || typeof error !== 'object') return null;
  const driverError = (error as { driverError?: unknown }).driverError;
  if (driverError === null || typeof driverError !== 'object') return null;
  const { code, constraint } = driverError as { code?: unknown; constraint?: unknown };
  if (typeof code !== 'string') return null;
  return { code, constraint: typeof constraint === 'string' ? constraint : undefined };
}

/** A unique constraint refused the write; when `constraint` is given, that one. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  return isViolation(error, PG_UNIQUE_VIOLATION, constraint);
}

/** A foreign key refused the write; when `constraint` is given, that one. */
export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  return isViolation(error, PG_FOREIGN_KEY_VIOLATION, constraint);
}

/** The values can never be stored (class 22), so retrying them cannot help. */
export function isDataException(error: unknown): boolean {
  return pgFailureOf(error)?.code.startsWith(PG_DATA_EXCEPTION_CLASS) === true;
}

/** The table does not exist: the schema has not been migrated. */
export function isUndefinedTable(error: unknown): boolean {
  return pgFailureOf(error)?.code === PG_UNDEFINED_TABLE;
}

function isViolation(error: unknown, code: string, constraint: string | undefined): boolean {
  const failure = pgFailureOf(error);
  if (failure === null || failure.code !== code) return false;
  return constraint === undefined || failure.constraint === constraint;
}
