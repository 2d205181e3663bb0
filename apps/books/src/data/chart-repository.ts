import type { Prisma } from '../generated/prisma/client.js';
import type { AccountSpec } from '../domain/chart-of-accounts.js';

/**
 * The organisation's account ids by code, creating the chart's accounts it lacks first. Runs inside the
 * posting transaction; ON CONFLICT DO NOTHING (skipDuplicates) lets two first entries of a new
 * organisation create the chart at once: the second waits for the first's rows, then skips them.
 */
export async function accountIdsByCode(
  tx: Prisma.TransactionClient,
  organizationId: string,
  chart: readonly AccountSpec[],
): Promise<Map<string, string>> {
  let accounts = await tx.account.findMany({ where: { organizationId }, select: { id: true, code: true } });
  if (chart.some((spec) => !accounts.some((account) => account.code === spec.code))) {
    await tx.account.createMany({
      data: chart.map(({ code, name, type }) => ({ organizationId, code, name, type })),
      skipDuplicates: true,
    });
    accounts = await tx.account.findMany({ where: { organizationId }, select: { id: true, code: true } });
  }
  return new Map(accounts.map((account) => [account.code, account.id]));
}
