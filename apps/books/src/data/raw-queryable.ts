/** What a raw query needs of the Prisma client (or of a transaction). */
export type RawQueryable = { $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T> };
