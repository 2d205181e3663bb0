import { TAX_SETTINGS_CHANGED_SUBJECT, type Announcements, type Logger, type Sql } from '@ctk/shared';
import type { PrismaClient } from '../generated/prisma/client.js';

/** What an organisation chose: its jurisdiction, and whether its prices include tax (null: the jurisdiction's default). */
export type TaxChoice = { jurisdiction: string | null; pricesIncludeTax: boolean | null };

export type TaxSettingsRepository = ReturnType<typeof createTaxSettingsRepository>;

const NONE: TaxChoice = { jurisdiction: null, pricesIncludeTax: null };
const CHOICE = { organizationId: true, jurisdiction: true, pricesIncludeTax: true } as const;

/**
 * The tax settings, whose every change is announced (decision 0053): pos keeps each organisation's settings
 * until books says they changed.
 */
export function createTaxSettingsRepository(prisma: PrismaClient, sql: Sql, announced: { announcements: Announcements; logger: Logger }) {
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

    /**
     * Stores the fields given (undefined: left as it is), announces the change and answers the choice as
     * stored. An announcement that fails is logged: the change stands, and pos keeps what it had for at most
     * POS_TAX_KEEP_SECONDS.
     */
    async save(organizationId: string, fields: Partial<TaxChoice>): Promise<TaxChoice> {
      const saved = await prisma.organizationTax.upsert({
        where: { organizationId },
        create: { organizationId, ...fields },
        update: fields,
        select: CHOICE,
      });
      await announced.announcements
        .announce(TAX_SETTINGS_CHANGED_SUBJECT, Buffer.from(organizationId, 'utf8'))
        .catch((error: unknown) => announced.logger.warn({ err: error, organizationId }, 'tax settings changed, but not announced'));
      return saved;
    },
  };
}
