import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { AppError, orgOf } from '@ctk/shared';
import type { SitePublication } from '../data/site-repository.js';
import { openSecret } from '../providers/sealed-secret.js';
import { folderPublisher } from '../site/folder-publisher.js';
import { generateSite } from '../site/generate-site.js';
import { publishFiles, type Publisher } from '../site/publisher.js';
import type { SiteContext } from '../site/site-context.js';
import { settingsOf } from '../site/site-row.js';
import type { SiteSettings } from '../site/site-settings.js';
import { siteSourceOf, type GatewayFacts } from '../site/site-source-of.js';
import { siteSecretOwner } from './replace-site.js';

/** How long one publish holds the site against another (longer than any publish the gateway waits for). */
const PUBLISH_HOLD_MS = 10 * 60_000;

/**
 * An admin publishes the site (docs/decisions/0035-site-builder.md): generated from its settings, the
 * gateway's facts, pos's catalog and federation's hours, then written to its target: only what differs
 * from the manifest the target serves, the switch last. One publish of a site at a time (409 conflict).
 * A failure switches nothing: the target keeps serving the version it had.
 */
export async function publishSite(context: SiteContext, orgRef: OrgRef | undefined, facts: GatewayFacts): Promise<SitePublication> {
  const org = orgOf(orgRef);
  const now = context.now();
  if (!(await context.sites.claimPublish(org.id, now, new Date(now.getTime() + PUBLISH_HOLD_MS))))
    throw new AppError('conflict', 'The site is being published now: wait for that publish to end, then publish again.');
  try {
    const settings = settingsOf(await context.sites.get(org.id));
    const source = await siteSourceOf(context, org, settings, facts);
    if (!source.buy && settings.sections.includes('menu') && source.catalog.items.length > 0)
      throw new AppError(
        'failed_precondition',
        `The site's menu sells with Buy buttons, which need the organisation's commerce key: make it (POST /api/v1/orgs/${org.handle}/commerce-key), then publish.`,
      );
    const publisher = await publisherOf(context, org.id, org.handle, settings);
    const published = await publishFiles(publisher, generateSite(source));
    const publication = await context.sites.recordPublication({
      organizationId: org.id,
      target: publisher.kind,
      manifestDigest: published.manifest.digest,
      filesUploaded: published.uploaded,
      filesUnchanged: published.unchanged,
      filesDeleted: published.deleted,
      siteUrl: publisher.siteUrl,
      publishedAt: context.now(),
    });
    context.logger.info(
      { org: org.handle, target: publisher.kind, digest: published.manifest.digest, uploaded: published.uploaded },
      'site published',
    );
    return publication;
  } finally {
    await context.sites.releasePublish(org.id);
  }
}

async function publisherOf(context: SiteContext, organizationId: string, handle: string, settings: SiteSettings): Promise<Publisher> {
  const { target } = settings;
  if (target.kind === 'folder')
    return folderPublisher(context.sitesDir, handle, { keep: context.keepVersions, baseUrl: context.sitesBaseUrl });
  const row = await context.sites.get(organizationId);
  const secret = row?.s3SecretSealed
    ? openSecret(await context.secretsKey(), siteSecretOwner(organizationId), row.s3SecretSealed)
    : undefined;
  if (!secret)
    throw new AppError(
      'failed_precondition',
      "The S3 target's secret cannot be opened (the secrets key changed): set the target again with its secret_access_key.",
    );
  // S3's client is loaded by the first site published to a bucket, not at commerce's start (a tenth of a second).
  const { s3Publisher } = await import('../site/s3-publisher.js');
  return s3Publisher(target, secret, { allowPrivate: context.allowPrivateStores });
}
