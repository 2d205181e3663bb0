/** The sections a site may show, in the order a new site shows them (docs/decisions/0035-site-builder.md). */
export const SECTIONS = ['hero', 'about', 'menu', 'hours', 'location', 'contact'] as const;
export type Section = (typeof SECTIONS)[number];

export type SiteColors = { background: string; text: string; accent: string; accentText: string };

/** What the site shows and how it looks: the part of the settings generation reads. */
export type SiteLook = {
  sections: Section[];
  colors: SiteColors;
  /** Empty: the shop's name. */
  title: string;
  tagline: string;
  about: string;
};

export type S3Target = {
  kind: 's3';
  endpoint: string;
  bucket: string;
  region: string;
  /** Empty, or a folder ending in "/". */
  prefix: string;
  accessKeyId: string;
};
export type PublishTarget = { kind: 'folder' } | S3Target;

/** The settings as stored: the look, the target, and the sealed S3 secret's last 4 characters. */
export type SiteSettings = SiteLook & {
  version: number;
  target: PublishTarget;
  secretLast4: string | null;
  updatedAt: Date | null;
};

/** A new site: every section, dark brown on cream with a rust accent (each pair reads: decision 0035). */
export const DEFAULT_LOOK: SiteLook = {
  sections: [...SECTIONS],
  colors: { background: '#fffaf3', text: '#2b2118', accent: '#8a3b12', accentText: '#ffffff' },
  title: '',
  tagline: '',
  about: '',
};

export const DEFAULT_SETTINGS: SiteSettings = {
  ...DEFAULT_LOOK,
  version: 0,
  target: { kind: 'folder' },
  secretLast4: null,
  updatedAt: null,
};
