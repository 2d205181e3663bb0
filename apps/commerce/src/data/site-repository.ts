import { AppError, isUniqueViolation } from '@ctk/shared';
import type { Prisma, PrismaClient, SitePublication, SiteSettings as SiteRow } from '../generated/prisma/client.js';
import { DEFAULT_LOOK } from '../site/site-settings.js';

export type { SitePublication, SiteRow };
export type SiteRepository = ReturnType<typeof createSiteRepository>;

/** The columns a replacement writes (the version and times are the repository's). */
export type SiteRowData = Omit<Prisma.SiteSettingsUncheckedCreateInput, 'organizationId' | 'version' | 'publishingUntil' | 'updatedAt'>;

const DEFAULT_ROW: SiteRowData = {
  sections: DEFAULT_LOOK.sections,
  colorBackground: DEFAULT_LOOK.colors.background,
  colorText: DEFAULT_LOOK.colors.text,
  colorAccent: DEFAULT_LOOK.colors.accent,
  colorAccentText: DEFAULT_LOOK.colors.accentText,
};

/** Version refused: the ETag to read again. */
const stale = (current: number) =>
  new AppError(
    'precondition_failed',
    `The site's settings changed since they were read: they are at version ${current} (ETag "${current}"). Read them (GET), make your change to them, and send If-Match: "${current}".`,
    { current_version: current, header: 'If-Match' },
  );

/** Organisations' site settings (one row each, versioned) and their publications (docs/decisions/0035-site-builder.md). */
export function createSiteRepository(prisma: PrismaClient) {
  return {
    get(organizationId: string): Promise<SiteRow | null> {
      return prisma.siteSettings.findUnique({ where: { organizationId } });
    },

    /**
     * Replaces the settings if they are at `expectedVersion` (0: never saved), under the row's lock; `build`
     * makes the new columns from the row as it is (to keep a sealed secret). Two first saves at once: one wins,
     * the other is stale.
     */
    async replace(
      organizationId: string,
      expectedVersion: number,
      now: Date,
      build: (current: SiteRow | null) => SiteRowData,
    ): Promise<SiteRow> {
      try {
        return await prisma.$transaction(async (tx) => {
          await tx.$executeRaw`SELECT 1 FROM site_settings WHERE organization_id = ${organizationId}::uuid FOR UPDATE`;
          const current = await tx.siteSettings.findUnique({ where: { organizationId } });
          const version = current?.version ?? 0;
          if (version !== expectedVersion) throw stale(version);
          const data = { ...build(current), version: version + 1, updatedAt: now };
          if (!current) return tx.siteSettings.create({ data: { organizationId, ...data } });
          return tx.siteSettings.update({ where: { organizationId }, data });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw stale(1);
        throw error;
      }
    },

    /**
     * Holds the site for one publish until `until`: false when another publish holds it now. A site never
     * saved gets its row (the defaults, version 0) here.
     */
    async claimPublish(organizationId: string, now: Date, until: Date): Promise<boolean> {
      try {
        await prisma.siteSettings.create({ data: { organizationId, ...DEFAULT_ROW, version: 0, publishingUntil: until, updatedAt: now } });
        return true;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      const claimed = await prisma.siteSettings.updateMany({
        where: { organizationId, OR: [{ publishingUntil: null }, { publishingUntil: { lt: now } }] },
        data: { publishingUntil: until },
      });
      return claimed.count === 1;
    },

    async releasePublish(organizationId: string): Promise<void> {
      await prisma.siteSettings.updateMany({ where: { organizationId }, data: { publishingUntil: null } });
    },

    recordPublication(publication: Omit<Prisma.SitePublicationUncheckedCreateInput, 'id'>): Promise<SitePublication> {
      return prisma.sitePublication.create({ data: publication });
    },

    lastPublication(organizationId: string): Promise<SitePublication | null> {
      return prisma.sitePublication.findFirst({ where: { organizationId }, orderBy: { publishedAt: 'desc' } });
    },
  };
}
