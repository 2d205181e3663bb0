import type { SiteRow } from '../data/site-repository.js';
import { DEFAULT_SETTINGS, SECTIONS, type PublishTarget, type Section, type SiteSettings } from './site-settings.js';

/** The settings a row holds; the defaults (version 0) without one. */
export function settingsOf(row: SiteRow | null): SiteSettings {
  if (!row) return DEFAULT_SETTINGS;
  const target: PublishTarget =
    row.targetKind === 's3'
      ? {
          kind: 's3',
          endpoint: row.s3Endpoint ?? '',
          bucket: row.s3Bucket ?? '',
          region: row.s3Region ?? 'us-east-1',
          prefix: row.s3Prefix ?? '',
          accessKeyId: row.s3AccessKeyId ?? '',
        }
      : { kind: 'folder' };
  return {
    version: row.version,
    sections: row.sections.filter((section): section is Section => (SECTIONS as readonly string[]).includes(section)),
    colors: { background: row.colorBackground, text: row.colorText, accent: row.colorAccent, accentText: row.colorAccentText },
    title: row.title,
    tagline: row.tagline,
    about: row.about,
    target,
    secretLast4: row.targetKind === 's3' ? row.s3SecretLast4 : null,
    updatedAt: row.version > 0 ? row.updatedAt : null,
  };
}
