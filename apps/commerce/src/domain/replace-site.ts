import type { SiteSettingsInput } from '@ctk/proto/ctk/commerce/v1/commerce';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { invalidInput, orgOf } from '@ctk/shared';
import type { SiteRow, SiteRowData } from '../data/site-repository.js';
import { sealSecret, secretOwner } from '../providers/sealed-secret.js';
import type { SiteContext } from '../site/site-context.js';
import { settingsOf } from '../site/site-row.js';
import { siteSettingsChange, type SiteSettingsChange } from '../site/site-settings-input.js';
import type { SiteState } from './get-site.js';

/** The sealed secret's owner: an organisation's S3 target (associated data, so a sealed secret moved to another row does not open). */
export const siteSecretOwner = (organizationId: string) => secretOwner(organizationId, 'site-s3');

/**
 * An admin replaces the site's settings as a whole, from the version they read (`expected_version`, the
 * If-Match; a stale one is 412 and nothing changes). An S3 target's secret is sealed (AES-256-GCM under
 * commerce's secrets key) and never answered; left out, the one saved for the same endpoint, bucket and
 * access key id is kept.
 */
export async function replaceSite(
  context: Pick<SiteContext, 'sites' | 'secretsKey' | 'now'>,
  orgRef: OrgRef | undefined,
  request: { expectedVersion: bigint; site?: SiteSettingsInput | undefined },
): Promise<SiteState> {
  const org = orgOf(orgRef);
  const change = siteSettingsChange(request.site);
  const key = await context.secretsKey();
  const sealed = change.secretAccessKey ? sealSecret(key, siteSecretOwner(org.id), change.secretAccessKey) : undefined;
  const row = await context.sites.replace(org.id, Number(request.expectedVersion), context.now(), (current) =>
    rowData(change, current, sealed),
  );
  return { settings: settingsOf(row), lastPublication: await context.sites.lastPublication(org.id) };
}

function rowData(change: SiteSettingsChange, current: SiteRow | null, sealed: Uint8Array<ArrayBuffer> | undefined): SiteRowData {
  const { look, target } = change;
  const base = {
    sections: look.sections,
    colorBackground: look.colors.background,
    colorText: look.colors.text,
    colorAccent: look.colors.accent,
    colorAccentText: look.colors.accentText,
    title: look.title,
    tagline: look.tagline,
    about: look.about,
  };
  if (target.kind === 'folder')
    return {
      ...base,
      targetKind: 'folder',
      s3Endpoint: null,
      s3Bucket: null,
      s3Region: null,
      s3Prefix: null,
      s3AccessKeyId: null,
      s3SecretSealed: null,
      s3SecretLast4: null,
    };
  const sameStore =
    current?.targetKind === 's3' &&
    current.s3Endpoint === target.endpoint &&
    current.s3Bucket === target.bucket &&
    current.s3AccessKeyId === target.accessKeyId;
  const secret = sealed
    ? { s3SecretSealed: sealed, s3SecretLast4: change.secretAccessKey!.slice(-4) }
    : sameStore && current.s3SecretSealed
      ? { s3SecretSealed: current.s3SecretSealed as Uint8Array<ArrayBuffer>, s3SecretLast4: current.s3SecretLast4 }
      : undefined;
  if (!secret)
    throw invalidInput(
      [{ field: 'target.secret_access_key', message: 'secret_access_key is required for a new S3 endpoint, bucket or access key id' }],
      'site',
    );
  return {
    ...base,
    targetKind: 's3',
    s3Endpoint: target.endpoint,
    s3Bucket: target.bucket,
    s3Region: target.region,
    s3Prefix: target.prefix,
    s3AccessKeyId: target.accessKeyId,
    ...secret,
  };
}
