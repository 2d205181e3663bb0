// Prisma's errors, told apart by code (instanceof does not work across the apps' generated clients).
const codeOf = (error: unknown): unknown => (typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined);

/**
 * A unique constraint refused the write: through Prisma's client (P2002), or in a statement sent without it
 * (decision 0048), on the driver adapter (its DriverAdapterError) or as a raw query of a Prisma transaction (P2010).
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  if (code === 'P2002') return true;
  const adapterError = code === 'P2010' ? (error as { meta?: { driverAdapterError?: unknown } }).meta?.driverAdapterError : error;
  return (adapterError as { cause?: { kind?: unknown } } | undefined)?.cause?.kind === 'UniqueConstraintViolation';
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
 * The transaction lost a race with another: a write conflict or a deadlock (PostgreSQL 40001 or 40P01,
 * which Prisma's driver adapters report as P2034). Retrying it afresh is right; it is never a bug of its caller.
 */
export function isWriteConflict(error: unknown): boolean {
  return codeOf(error) === 'P2034';
}
