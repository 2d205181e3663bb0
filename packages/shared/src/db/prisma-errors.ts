// Prisma's errors, told apart by code (instanceof does not work across the apps' generated clients).
const codeOf = (error: unknown): unknown => (typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined);

/**
 * A unique constraint refused the write: through Prisma's client (P2002), or in a statement sent without it
 * (decision 0048), on the driver adapter (its DriverAdapterError) or as a raw query of a Prisma transaction (P2010).
 */
export function isUniqueViolation(error: unknown): boolean {
  return codeOf(error) === 'P2002' || adapterErrorOf(error)?.cause?.kind === 'UniqueConstraintViolation';
}

/**
 * The database is too busy to take the work now: no transaction could start within its wait (P2028) or
 * no pooled connection came free in time (P2024). Worth retrying shortly; not a bug.
 */
export function isDatabaseBusy(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'P2028' || code === 'P2024';
}

/**
 * The transaction lost a race with another: a write conflict or a deadlock (PostgreSQL 40001 or 40P01), which
 * Prisma's client reports as P2034, and the driver adapter, under a statement sent without the client (decision
 * 0048), as a TransactionWriteConflict (PGlite's names a deadlock by its code alone). Retrying it afresh is right;
 * it is never a bug of its caller.
 */
export function isWriteConflict(error: unknown): boolean {
  if (codeOf(error) === 'P2034') return true;
  const cause = adapterErrorOf(error)?.cause;
  return cause?.kind === 'TransactionWriteConflict' || (cause?.kind === 'postgres' && cause.code === '40P01');
}

/** What the driver adapter names an error PostgreSQL (or PGlite) answered a statement with: nothing of it committed. */
const REFUSALS = new Set([
  'UniqueConstraintViolation',
  'NullConstraintViolation',
  'ForeignKeyConstraintViolation',
  'RestrictViolation',
  'LengthMismatch',
  'ValueOutOfRange',
  'InvalidInputValue',
  'InconsistentColumnData',
  'TransactionWriteConflict',
  'postgres',
]);

/**
 * The database refused the statement (a constraint, a value it cannot take, a conflict): it rolled back, so it may
 * be sent again, whole or in parts. Not a lost connection or a timeout, after which it may have committed.
 */
export function isStatementRefused(error: unknown): boolean {
  const kind = adapterErrorOf(error)?.cause?.kind;
  return typeof kind === 'string' && REFUSALS.has(kind);
}

/** The driver adapter's error under `error`: itself, or a Prisma transaction's raw query's (P2010). */
function adapterErrorOf(error: unknown): { cause?: { kind?: unknown; code?: unknown } } | undefined {
  return (codeOf(error) === 'P2010' ? (error as { meta?: { driverAdapterError?: unknown } }).meta?.driverAdapterError : error) as
    { cause?: { kind?: unknown; code?: unknown } } | undefined;
}
