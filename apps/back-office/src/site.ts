import { ApiError } from './api.js';
import { Refusal } from './form.js';

/** The shop's generated web site as commerce keeps it (`GET|PUT /api/v1/orgs/:handle/site`, decision 0035). */
export const SECTIONS = ['hero', 'about', 'menu', 'hours', 'location', 'contact'] as const;
export type Section = (typeof SECTIONS)[number];
export const SECTION_NAMES: Record<Section, string> = {
  hero: 'Banner with the title and tagline',
  about: 'About us',
  menu: 'Menu with Buy buttons',
  hours: 'Opening hours',
  location: 'Map link',
  contact: 'Contact (paymail)',
};

export type Colors = { background: string; text: string; accent: string; accent_text: string };
export const COLOR_FIELDS: { key: keyof Colors; label: string; hint: string }[] = [
  { key: 'background', label: 'Background', hint: 'Behind everything.' },
  { key: 'text', label: 'Text', hint: 'Paragraphs, on the background.' },
  { key: 'accent', label: 'Accent', hint: 'Headings, links and the Buy buttons.' },
  { key: 'accent_text', label: 'Text on accent', hint: 'The Buy buttons’ words and the title band.' },
];

export type S3Target = { endpoint: string; bucket: string; region: string; prefix: string; access_key_id: string };
export type Target = { kind: 'folder' } | ({ kind: 's3'; secret_access_key_last4: string } & S3Target);
export type Publication = {
  manifest_digest: string;
  files_uploaded: number;
  files_unchanged: number;
  files_deleted: number;
  published_at: string;
  site_url: string;
  target: 'folder' | 's3';
};
export type Site = {
  version: number;
  sections: Section[];
  colors: Colors;
  title: string;
  tagline: string;
  about: string;
  target: Target;
  updated_at: string | null;
  last_publication: Publication | null;
};

/** The editor's site: every section with whether it shows, in order; the S3 fields kept while the folder is chosen. */
export type Draft = {
  sections: { id: Section; shown: boolean }[];
  colors: Colors;
  title: string;
  tagline: string;
  about: string;
  kind: 'folder' | 's3';
  s3: S3Target;
  /** Typed now; empty keeps the secret saved (never read back). */
  secret: string;
  /** The last 4 characters of the saved secret, or empty when none is saved. */
  secretLast4: string;
};

const NO_S3: S3Target = { endpoint: '', bucket: '', region: '', prefix: '', access_key_id: '' };

export function draftOf(site: Site): Draft {
  const hidden = SECTIONS.filter((id) => !site.sections.includes(id));
  const { kind } = site.target;
  return {
    sections: [...site.sections.map((id) => ({ id, shown: true })), ...hidden.map((id) => ({ id, shown: false }))],
    colors: { ...site.colors },
    title: site.title,
    tagline: site.tagline,
    about: site.about,
    kind,
    s3:
      site.target.kind === 's3'
        ? {
            endpoint: site.target.endpoint,
            bucket: site.target.bucket,
            region: site.target.region,
            prefix: site.target.prefix,
            access_key_id: site.target.access_key_id,
          }
        : NO_S3,
    secret: '',
    secretLast4: site.target.kind === 's3' ? site.target.secret_access_key_last4 : '',
  };
}

/** The settings to send (`PUT`), whole: the secret only when one was typed. */
export function settingsOf(draft: Draft) {
  const trimmed = Object.fromEntries(Object.entries(draft.s3).map(([k, v]) => [k, v.trim()])) as S3Target;
  return {
    sections: draft.sections.filter((s) => s.shown).map((s) => s.id),
    colors: draft.colors,
    title: draft.title.trim(),
    tagline: draft.tagline.trim(),
    about: draft.about,
    target:
      draft.kind === 'folder'
        ? { kind: 'folder' }
        : { kind: 's3', ...trimmed, ...(draft.secret ? { secret_access_key: draft.secret } : {}) },
  };
}

const FIELD_WORDS: [RegExp, string][] = [
  [/\bcolors\.accent_text\b/g, 'Text on accent'],
  [/\bcolors\.background\b/g, 'the background'],
  [/\bcolors\.accent\b/g, 'Accent'],
  [/\bcolors\.text\b/g, 'Text'],
];

/** The API's words for a field, as the owner reads them: colours by their labels. */
export function plainWords(message: string): string {
  let text = message.replace(/^(title|tagline|about|target\.\w+|sections(\[\d+\])?):\s*/, '');
  for (const [field, words] of FIELD_WORDS) text = text.replace(field, words);
  text = text.replace(' is unreadable: ', ' is hard to read: ').replace(' is needed', ' is needed.');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What commerce refused, field by field (`colors.text`, `target.bucket`, ...); null when it is not such a refusal. */
export function fieldProblems(error: unknown): Record<string, string> | null {
  if (!(error instanceof ApiError) || error.code !== 'validation_failed') return null;
  const field = error.details?.field as string | undefined;
  const issues =
    (error.details?.issues as { field: string; message: string }[] | undefined) ?? (field ? [{ field, message: error.message }] : []);
  const found: Record<string, string> = {};
  for (const issue of issues) found[issue.field.replace(/^site\./, '')] ??= plainWords(issue.message);
  return Object.keys(found).length > 0 ? found : null;
}

/** A 403 on changing or publishing the site, said for the person at the page; any other failure as it is. */
export function asAdminOnly(error: unknown, doing: string): unknown {
  if (error instanceof ApiError && error.status === 403)
    return new Refusal(`Only the shop's owner or an admin can ${doing}. Ask one of them to do it.`);
  return error;
}

export const siteUrl = (handle: string) => `/api/v1/orgs/${encodeURIComponent(handle)}/site`;
