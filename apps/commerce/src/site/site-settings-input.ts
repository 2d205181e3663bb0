import type { SiteSettingsInput } from '@ctk/proto/ctk/commerce/v1/commerce';
import { freeText, invalidInput, lineOfText, validate, type InputIssue } from '@ctk/shared';
import { z } from 'zod';
import { contrastRatio, MIN_CONTRAST } from './contrast.js';
import { SECTIONS, type PublishTarget, type SiteColors, type SiteLook } from './site-settings.js';

const color = (field: string) =>
  z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, `${field} must be a colour "#rrggbb"`)
    .transform((hex) => hex.toLowerCase());

/** https, or http to this machine only (a store on localhost, as in tests): a site's secret never crosses a network in clear. */
const endpoint = z
  .string()
  .max(300, 'endpoint must be at most 300 characters')
  .refine((text) => {
    try {
      const url = new URL(text);
      const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
      return (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) && !url.username && !url.search && !url.hash;
    } catch {
      return false;
    }
  }, 'endpoint must be an https URL (http only for localhost), without credentials, query or fragment')
  .transform((text) => text.replace(/\/+$/, ''));

const printable = (field: string) =>
  z.string().regex(/^[\x21-\x7e]{1,128}$/, `${field} must be 1 to 128 printable characters without spaces`);

const s3 = z.strictObject({
  kind: z.literal('s3'),
  endpoint,
  bucket: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'bucket must be an S3 bucket name: 3 to 63 lower-case letters, digits, dots and hyphens'),
  region: z
    .string()
    .regex(/^([a-z0-9-]{1,32})?$/, 'region must be lower-case letters, digits and hyphens, such as "eu-west-1"')
    .transform((region) => region || 'us-east-1'),
  prefix: z
    .string()
    .max(200, 'prefix must be at most 200 characters')
    .regex(/^([A-Za-z0-9_-][A-Za-z0-9._-]*\/?)*$/, 'prefix must be folder names of letters, digits, ".", "_" and "-" separated by "/"')
    .refine((prefix) => !prefix.split('/').some((part) => /^\.+$/.test(part)), 'prefix must not hold "." or ".." folders')
    .transform((prefix) => (prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix)),
  access_key_id: printable('access_key_id'),
  secret_access_key: printable('secret_access_key').optional(),
});

const input = z.strictObject({
  sections: z
    .array(z.enum(SECTIONS, `each section must be one of ${SECTIONS.join(', ')}`))
    .max(SECTIONS.length)
    .refine((sections) => new Set(sections).size === sections.length, 'a section may be shown only once'),
  colors: z.strictObject({
    background: color('colors.background'),
    text: color('colors.text'),
    accent: color('colors.accent'),
    accent_text: color('colors.accent_text'),
  }),
  title: lineOfText('title', 80),
  tagline: lineOfText('tagline', 160),
  about: freeText('about', 2000).refine((text) => !/[\t\r]/.test(text), 'about must not contain tabs or carriage returns'),
  target: z.discriminatedUnion('kind', [z.strictObject({ kind: z.literal('folder') }), s3], 'target.kind must be folder or s3'),
});

export type SiteSettingsChange = { look: SiteLook; target: PublishTarget; secretAccessKey: string | undefined };

/**
 * The settings an admin sent, checked: the field of each problem named as the API spells it, and each pair
 * of colours a reader sees checked for contrast (an unreadable pair names the field to change).
 */
export function siteSettingsChange(request: SiteSettingsInput | undefined): SiteSettingsChange {
  const kind = request?.target?.kind;
  const target =
    kind?.$case === 's3'
      ? {
          kind: 's3',
          endpoint: kind.value.endpoint,
          bucket: kind.value.bucket,
          region: kind.value.region,
          prefix: kind.value.prefix,
          access_key_id: kind.value.accessKeyId,
          ...(kind.value.secretAccessKey ? { secret_access_key: kind.value.secretAccessKey } : {}),
        }
      : { kind: kind?.$case ?? '' };
  const parsed = validate(
    input,
    {
      sections: request?.sections ?? [],
      colors: {
        background: request?.colors?.background ?? '',
        text: request?.colors?.text ?? '',
        accent: request?.colors?.accent ?? '',
        accent_text: request?.colors?.accentText ?? '',
      },
      title: request?.title ?? '',
      tagline: request?.tagline ?? '',
      about: request?.about ?? '',
      target,
    },
    'site',
  );
  const colors: SiteColors = {
    background: parsed.colors.background,
    text: parsed.colors.text,
    accent: parsed.colors.accent,
    accentText: parsed.colors.accent_text,
  };
  const unreadable = unreadablePairs(colors);
  if (unreadable.length > 0) throw invalidInput(unreadable, 'site');
  const look: SiteLook = { sections: parsed.sections, colors, title: parsed.title, tagline: parsed.tagline, about: parsed.about };
  if (parsed.target.kind === 'folder') return { look, target: { kind: 'folder' }, secretAccessKey: undefined };
  const { endpoint: url, bucket, region, prefix, access_key_id: accessKeyId, secret_access_key: secretAccessKey } = parsed.target;
  return { look, target: { kind: 's3', endpoint: url, bucket, region, prefix, accessKeyId }, secretAccessKey };
}

/** Each pair of colours read together below 4.5:1, naming the field that would be changed to fix it. */
export function unreadablePairs(colors: SiteColors): InputIssue[] {
  const pairs: [string, string, string, string][] = [
    ['colors.text', colors.text, 'colors.background', colors.background],
    ['colors.accent', colors.accent, 'colors.background', colors.background],
    ['colors.accent_text', colors.accentText, 'colors.accent', colors.accent],
  ];
  return pairs.flatMap(([field, foreground, against, background]) => {
    const ratio = contrastRatio(foreground, background);
    if (ratio >= MIN_CONTRAST) return [];
    return [
      {
        field,
        message: `${field} ${foreground} on ${against} ${background} is unreadable: contrast ${ratio.toFixed(2)}:1, at least ${MIN_CONTRAST}:1 is needed`,
      },
    ];
  });
}
