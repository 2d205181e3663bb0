import { createHash } from 'node:crypto';
import { indexPage } from './index-page.js';
import { itemPage } from './item-page.js';
import { itemPaths } from './item-paths.js';
import { siteCss } from './site-css.js';
import type { SiteFile, SiteFrame, SiteSource } from './site-source.js';

const HTML = 'text/html; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

/** The stylesheet's path: named by its content, so a page always finds the stylesheet it was made with. */
export const cssPathOf = (css: string) => `assets/site-${createHash('sha256').update(css).digest('hex').slice(0, 16)}.css`;

const titleOf = (source: SiteSource) => source.look.title || source.profile.name;

/**
 * The whole site, a pure function of its source (docs/decisions/0035-site-builder.md): index.html, one page
 * per item of the catalog when the menu is shown (items/<slug>.html), and the stylesheet. Sorted by path.
 */
export function generateSite(source: SiteSource): SiteFile[] {
  const css = siteCss(source.look.colors);
  const frame: SiteFrame = {
    source,
    title: titleOf(source),
    css,
    cssPath: cssPathOf(css),
    inlineCss: false,
    itemPaths: itemPaths(source.look.sections.includes('menu') ? source.catalog.items : []),
  };
  const files: SiteFile[] = [
    { path: 'index.html', body: Buffer.from(indexPage(frame)), contentType: HTML },
    { path: frame.cssPath, body: Buffer.from(css), contentType: CSS },
    ...source.catalog.items
      .filter((item) => frame.itemPaths.has(item.id))
      .map((item) => ({ path: frame.itemPaths.get(item.id)!, body: Buffer.from(itemPage(frame, item)), contentType: HTML })),
  ];
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** index.html with its stylesheet inline, for a preview shown on its own (the back office's). */
export function previewIndex(source: SiteSource): string {
  const css = siteCss(source.look.colors);
  return indexPage({
    source,
    title: titleOf(source),
    css,
    cssPath: cssPathOf(css),
    inlineCss: true,
    itemPaths: itemPaths(source.look.sections.includes('menu') ? source.catalog.items : []),
  });
}
