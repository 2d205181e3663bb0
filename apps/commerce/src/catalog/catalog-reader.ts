import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import type { Item } from '@ctk/proto/ctk/pos/v1/pos';
import type { PosClient } from '../pos-client.js';
import { catalogFromItems, catalogFromMenu, type Catalog } from './catalog.js';
import { expiringCache } from './expiring-cache.js';

/** The menu's own bound: no catalog lists more items for sale. */
export const MAX_CATALOG_ITEMS = 1_000;
const PAGE = 100;
/** Pages of items read at most while no menu is saved (unavailable items are read too, and skipped). */
const MAX_PAGES = 20;

export type CatalogReader = { read(org: OrgRef): Promise<Catalog> };

/**
 * The organisation's catalog as pos has it (decision 0018): the saved menu, else its items by category.
 * Kept `cacheMs` per organisation, so a shop's traffic costs pos a few reads a second.
 */
export function createCatalogReader(pos: PosClient, cacheMs: number): CatalogReader {
  const cache = expiringCache<Catalog>(cacheMs);
  return {
    read: (org) => cache.get(org.id, () => readFromPos(pos, org)),
  };
}

async function readFromPos(pos: PosClient, org: OrgRef): Promise<Catalog> {
  const { menu } = await pos.getMenu({ org });
  if (menu && menu.version > 0n) return catalogFromMenu(menu);
  const items: Item[] = [];
  let cursor = '';
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await pos.listItems({ org, limit: PAGE, cursor });
    items.push(...answer.items);
    cursor = answer.nextCursor;
    if (!cursor || items.filter((item) => item.available).length >= MAX_CATALOG_ITEMS) break;
  }
  // The newest items for sale when there are more than a catalog lists.
  return catalogFromItems(items.filter((item) => item.available).slice(0, MAX_CATALOG_ITEMS));
}
