import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { orgOf } from '@ctk/shared';
import type { SitePublication } from '../data/site-repository.js';
import type { SiteContext } from '../site/site-context.js';
import { settingsOf } from '../site/site-row.js';
import type { SiteSettings } from '../site/site-settings.js';

export type SiteState = { settings: SiteSettings; lastPublication: SitePublication | null };

/** The organisation's site settings (the defaults, version 0, until first saved) and its last publication. */
export async function getSite(context: Pick<SiteContext, 'sites'>, orgRef: OrgRef | undefined): Promise<SiteState> {
  const org = orgOf(orgRef);
  const [row, lastPublication] = await Promise.all([context.sites.get(org.id), context.sites.lastPublication(org.id)]);
  return { settings: settingsOf(row), lastPublication };
}
