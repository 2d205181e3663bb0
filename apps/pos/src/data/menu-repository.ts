import { randomUUID } from 'node:crypto';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { WITH_MODIFIERS, type Item } from './item-repository.js';

/**
 * The menu as it is read: its version (0 before the first replacement), its sections with their items in
 * order, and the tip choices the counter offers in basis points, ascending.
 */
export type Menu = { version: bigint; updatedAt: Date | null; sections: MenuSection[]; tipBasisPoints: number[] };
export type MenuSection = { name: string; items: Item[] };
export type NewMenuSection = { name: string; itemIds: string[] };
export type Replacement = { replaced: true; menu: Menu } | { replaced: false; currentVersion: bigint };
export type MenuRepository = ReturnType<typeof createMenuRepository>;

/** The tip choices of a menu never saved, and of one saved without any: 10%, 15%, 20% (the column's default too). */
export const DEFAULT_TIP_BASIS_POINTS: readonly number[] = [1000, 1500, 2000];

const SECTIONS_WITH_ITEMS = {
  sections: {
    orderBy: { position: 'asc' },
    include: { entries: { orderBy: { position: 'asc' }, include: { item: { include: WITH_MODIFIERS } } } },
  },
} as const;

/** Ends the replacement's transaction when the version moved on, so that nothing of it is written. */
class StaleVersion extends Error {
  constructor(readonly currentVersion: bigint) {
    super(`the menu is at version ${currentVersion}`);
  }
}

export function createMenuRepository(prisma: PrismaClient) {
  return {
    read(organizationId: string): Promise<Menu> {
      return readMenu(prisma, organizationId);
    },

    /**
     * Replaces every section and the tip choices if the menu is still at `expectedVersion`, and adds one to the version. The
     * menu's row is created if need be and locked first, so of concurrent replacements from one version
     * exactly one wins: the others wait for it, then find the version moved on.
     */
    async replaceIfAt(
      organizationId: string,
      expectedVersion: bigint,
      sections: readonly NewMenuSection[],
      tipBasisPoints: readonly number[],
    ): Promise<Replacement> {
      try {
        const menu = await prisma.$transaction(
          async (tx) => {
            await tx.$executeRaw`INSERT INTO menus (organization_id, version) VALUES (${organizationId}::uuid, 0) ON CONFLICT DO NOTHING`;
            const [locked] = await tx.$queryRaw<Array<{ version: bigint }>>`
              SELECT version FROM menus WHERE organization_id = ${organizationId}::uuid FOR UPDATE`;
            const current = BigInt(locked?.version ?? 0n);
            if (current !== expectedVersion) throw new StaleVersion(current);
            await tx.menuSection.deleteMany({ where: { organizationId } });
            const rows = sections.map((section, position) => ({ id: randomUUID(), organizationId, position, name: section.name }));
            await tx.menuSection.createMany({ data: rows });
            await tx.menuEntry.createMany({
              data: sections.flatMap((section, s) =>
                section.itemIds.map((itemId, position) => ({ sectionId: rows[s]!.id, position, itemId })),
              ),
            });
            await tx.menu.update({
              where: { organizationId },
              data: { version: current + 1n, updatedAt: new Date(), tipBasisPoints: [...tipBasisPoints] },
            });
            return readMenu(tx, organizationId);
          },
          // Waiting for another replacement's lock is part of the transaction's time.
          { maxWait: 10_000, timeout: 20_000 },
        );
        return { replaced: true, menu };
      } catch (error) {
        if (error instanceof StaleVersion) return { replaced: false, currentVersion: error.currentVersion };
        throw error;
      }
    },
  };
}

async function readMenu(db: PrismaClient | Prisma.TransactionClient, organizationId: string): Promise<Menu> {
  const menu = await db.menu.findUnique({ where: { organizationId }, include: SECTIONS_WITH_ITEMS });
  if (!menu) return { version: 0n, updatedAt: null, sections: [], tipBasisPoints: [...DEFAULT_TIP_BASIS_POINTS] };
  return {
    version: menu.version,
    updatedAt: menu.updatedAt,
    sections: menu.sections.map((section) => ({ name: section.name, items: section.entries.map((entry) => entry.item) })),
    tipBasisPoints: menu.tipBasisPoints,
  };
}
