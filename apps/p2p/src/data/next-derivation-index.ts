import type { PrismaClient } from '../generated/prisma/client.js';

type Sql = Pick<PrismaClient, '$queryRawUnsafe'>;

// One statement: the row is locked by the upsert, so concurrent requests each get their own index.
const NEXT_INDEX = `INSERT INTO derivation_counters (organization_id, xpub, next_index, updated_at)
  VALUES ($1::uuid, $2, 1, now())
  ON CONFLICT (organization_id, xpub) DO UPDATE SET next_index = derivation_counters.next_index + 1, updated_at = now()
  RETURNING next_index - 1 AS index`;

/** The next unused child index of the organisation's xpub, from 0. */
export async function nextDerivationIndex(sql: Sql, organizationId: string, xpub: string): Promise<number> {
  const rows = await sql.$queryRawUnsafe<{ index: number }[]>(NEXT_INDEX, organizationId, xpub);
  return Number(rows[0]!.index);
}
