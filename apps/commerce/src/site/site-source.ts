import type { Catalog, CatalogItem } from '@ctk/proto/ctk/commerce/v1/commerce';
import type { Hours, ShopProfile } from '@ctk/proto/ctk/federation/v1/federation';
import type { CheckoutScript } from '@ctk/shared';
import type { SiteLook } from './site-settings.js';

/** Everything a site is generated from (docs/decisions/0035-site-builder.md): the same source, the same bytes. */
export type SiteSource = {
  handle: string;
  look: SiteLook;
  /** The gateway's: name, category, place, paymail, time zone, avatar. */
  profile: ShopProfile;
  /** pos's, as the Commerce API sells it. */
  catalog: Catalog;
  /** federation's; undefined when the shop has none. */
  hours: Hours | undefined;
  /** The shop's local date (YYYY-MM-DD): special days before it are not shown. */
  today: string;
  /** The gateway's public base URL: the open sign's badge, the Buy buttons' API. */
  publicUrl: string;
  /** The Buy buttons' script and key; undefined while the organisation has no commerce key (no Buy buttons). */
  buy: { script: CheckoutScript; commerceKey: string } | undefined;
};

export type SiteFile = { path: string; body: Buffer; contentType: string };

/** What every page of a site shares. */
export type SiteFrame = {
  source: SiteSource;
  title: string;
  cssPath: string;
  css: string;
  inlineCss: boolean;
  itemPaths: Map<string, string>;
};

export type Item = CatalogItem;
