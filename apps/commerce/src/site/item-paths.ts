/** An item's name as a file name: lower-case ASCII letters and digits joined by hyphens, at most 60 characters. */
export function slugOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
}

/**
 * Each item's page, `items/<slug>.html`, in catalog order: its name's slug, or its id when the name has none
 * or an item before it took the slug. The same catalog always gives the same paths.
 */
export function itemPaths(items: readonly { id: string; name: string }[]): Map<string, string> {
  const taken = new Set<string>();
  const paths = new Map<string, string>();
  for (const item of items) {
    const slug = slugOf(item.name);
    const name = slug && !taken.has(slug) ? slug : item.id;
    taken.add(name);
    paths.set(item.id, `items/${name}.html`);
  }
  return paths;
}
