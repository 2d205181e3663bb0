import type { Catalog, CatalogItem, CatalogSection } from '@ctk/proto/ctk/commerce/v1/commerce';
import type { Item, Menu } from '@ctk/proto/ctk/pos/v1/pos';

export type { Catalog, CatalogItem };

/** The section of items without a category, while no menu is saved. */
export const UNCATEGORISED = 'Other';

/** Only available items are for sale online. */
const forSale = (item: Item) => item.available;

/** An item's public fields: no sku, tax treatment, stock count or timestamps. */
export function catalogItemOf(item: Item): CatalogItem {
  return {
    id: item.id,
    name: item.name,
    description: item.description,
    priceMinor: item.priceCents,
    currency: item.currency,
    category: item.category || undefined,
    priceType: item.priceType || 'fixed',
    soldOut: item.inventory !== undefined && item.inventory <= 0n,
    modifiers: item.modifiers.map((modifier) => ({
      id: modifier.id,
      name: modifier.name,
      priceMinor: modifier.priceCents,
      group: modifier.group || undefined,
    })),
  };
}

/** The saved menu's available items, section by section; an item in several sections is in `items` once. */
export function catalogFromMenu(menu: Menu): Catalog {
  const items = new Map<string, CatalogItem>();
  const sections: CatalogSection[] = [];
  for (const section of menu.sections) {
    const listed = section.items.filter(forSale);
    if (listed.length === 0) continue;
    for (const item of listed) if (!items.has(item.id)) items.set(item.id, catalogItemOf(item));
    sections.push({ name: section.name, itemIds: listed.map((item) => item.id) });
  }
  return { sections, items: [...items.values()] };
}

/** Without a menu: every available item, a section per category (by name, the uncategorised last), items by name. */
export function catalogFromItems(all: readonly Item[]): Catalog {
  const byCategory = new Map<string, Item[]>();
  for (const item of all.filter(forSale)) {
    const category = item.category?.trim() || UNCATEGORISED;
    byCategory.set(category, [...(byCategory.get(category) ?? []), item]);
  }
  const names = [...byCategory.keys()].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  const sections = names.map((name) => ({
    name,
    items: [...(byCategory.get(name) ?? [])].sort((a, b) => a.name.localeCompare(b.name)),
  }));
  return {
    sections: sections.map((section) => ({ name: section.name, itemIds: section.items.map((item) => item.id) })),
    items: sections.flatMap((section) => section.items.map(catalogItemOf)),
  };
}

const order = (category: string) => (category === UNCATEGORISED ? 1 : 0);
