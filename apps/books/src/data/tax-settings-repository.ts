import type { Sql } from '@ctk/shared';
import type { PrismaClient } from '../generated/prisma/client.js';

/** What an organisation chose: its jurisdiction, and whether its prices include tax (null: the jurisdiction's default). */
export type TaxChoice = { jurisdiction: string | null; pricesIncludeTax: boolean | null };

export type TaxSettingsRepository = ReturnType<typeof createTaxSettingsRepository>;

const NONE: TaxChoice = { jurisdiction: null, pricesIncludeTax: null };
const CHOICE = { organizationId: true, jurisdiction: true, pricesIncludeTax: true } as const;

export function createTaxSettingsRepository(prisma: PrismaClient, sql: Sql) {
  return {
    /**
     * The choices of several organisations, one per id in order (nothing chosen for one without a row). pos
     * asks on every order and checkout it prices: without Prisma's client (decision 0048).
     */
    async findMany(organizationIds: readonly string[]): Promise<TaxChoice[]> {
      const rows = await sql.rows<{ organizationId: string } & TaxChoice>(
        'SELECT organization_id, jurisdiction, prices_include_tax FROM organization_tax_settings WHERE organization_id = ANY($1::uuid[])',
        [organizationIds],
      );
      const byId = new Map(rows.map(({ organizationId, ...choice }) => [organizationId, choice]));
      return organizationIds.map((id) => byId.get(id) ?? NONE);
    },

    async find(organizationId: string): Promise<TaxChoice> {
      return (await prisma.organizationTax.findUnique({ where: { organizationId }, select: CHOICE })) ?? NONE;
    },

    /** Stores the fields given (undefined: left as it is) and answers the choice as stored. */
    save(organizationId: string, fields: Partial<TaxChoice>): Promise<TaxChoice> {
      return prisma.organizationTax.upsert({
        where: { organizationId },
        create: { organizationId, ...fields },
        update: fields,
        select: CHOICE,
      });
    },
  };
}
