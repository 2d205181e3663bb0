import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import type { Hours, ShopProfile } from '@ctk/proto/ctk/federation/v1/federation';
import type { Logger } from '@ctk/shared';
import type { CatalogReader } from '../catalog/catalog-reader.js';
import type { SiteRepository } from '../data/site-repository.js';

/** What the site builder's use cases are given (docs/decisions/0035-site-builder.md). */
export type SiteContext = {
  sites: SiteRepository;
  catalogs: CatalogReader;
  /** The shop's opening hours, federation's (GetHours). */
  hours: (org: OrgRef, profile: ShopProfile) => Promise<Hours | undefined>;
  /** The AES-256 key an S3 target's secret is sealed with (commerce's secrets key). */
  secretsKey: () => Promise<Buffer>;
  /** Where folder sites go, and the URL a static host serves that folder at, if any. */
  sitesDir: string;
  sitesBaseUrl: string | undefined;
  keepVersions: number;
  /** Whether an S3 store may be on a private or loopback address (COMMERCE_SITE_ALLOW_PRIVATE_STORES). */
  allowPrivateStores: boolean;
  logger: Logger;
  now: () => Date;
};
