import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { orgOf } from '@ctk/shared';
import { previewIndex } from '../site/generate-site.js';
import type { SiteContext } from '../site/site-context.js';
import { settingsOf } from '../site/site-row.js';
import { siteSourceOf, type GatewayFacts } from '../site/site-source-of.js';

/** index.html as a publish would make it now, its stylesheet inline (the back office's preview). */
export async function previewSite(context: SiteContext, orgRef: OrgRef | undefined, facts: GatewayFacts): Promise<string> {
  const org = orgOf(orgRef);
  const settings = settingsOf(await context.sites.get(org.id));
  return previewIndex(await siteSourceOf(context, org, settings, facts));
}
