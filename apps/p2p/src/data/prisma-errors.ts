/** Prisma's error for a unique constraint violation, checked by code (no instanceof across copies). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';
}
