/** Prisma's code for a unique constraint violation, whichever driver adapter raised it. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';
}
