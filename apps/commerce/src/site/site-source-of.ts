import type { SiteInputs } from '@ctk/proto/ctk/commerce/v1/commerce';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import type { ShopProfile } from '@ctk/proto/ctk/federation/v1/federation';
import { AppError } from '@ctk/shared';
import { localDate } from './opening-hours.js';
import type { SiteContext } from './site-context.js';
import type { SiteLook } from './site-settings.js';
import type { SiteSource } from './site-source.js';

/** What the gateway gives a site request (its hook `shop_profile` and `site_inputs`, and its public URL). */
export type GatewayFacts = { profile?: ShopProfile | undefined; inputs?: SiteInputs | undefined; publicUrl: string };

/**
 * A site's source now: the settings' look, the gateway's facts, pos's catalog (as the Commerce API sells
 * it) and federation's hours, read side by side (docs/decisions/0035-site-builder.md).
 */
export async function siteSourceOf(
  context: Pick<SiteContext, 'catalogs' | 'hours' | 'now'>,
  org: OrgRef,
  look: SiteLook,
  facts: GatewayFacts,
): Promise<SiteSource> {
  const { profile, inputs, publicUrl } = facts;
  if (!profile || !inputs || !publicUrl)
    throw new AppError('internal', 'a site request came without the shop profile and inputs the gateway gives');
  const [catalog, hours] = await Promise.all([
    context.catalogs.read(org),
    look.sections.includes('hours') ? context.hours(org, profile) : Promise.resolve(undefined),
  ]);
  const buy = inputs.commercePublicKey
    ? { script: { src: inputs.checkoutScriptUrl, integrity: inputs.checkoutScriptIntegrity }, commerceKey: inputs.commercePublicKey }
    : undefined;
  return {
    handle: org.handle,
    look,
    profile,
    catalog,
    hours,
    today: localDate(context.now(), hours?.timeZone || profile.timeZone),
    publicUrl: publicUrl.replace(/\/+$/, ''),
    buy,
  };
}
