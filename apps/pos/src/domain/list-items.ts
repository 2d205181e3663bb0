import { cursorPosition, type Org, pageLimit, takePage, validate } from '@ctk/shared';
import { z } from 'zod';
import type { Item, ItemRepository } from '../data/item-repository.js';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

const pageSchema = z.object({
  limit: pageLimit(DEFAULT_LIMIT, MAX_LIMIT),
  cursor: z.string(),
});

export type ItemPage = { items: Item[]; nextCursor: string };

/** The organisation's items, newest first, a page at a time; nextCursor is empty on the last page. */
export async function listItems(items: ItemRepository, org: Org, input: z.input<typeof pageSchema>): Promise<ItemPage> {
  const { limit, cursor } = validate(pageSchema, input);
  const rows = await items.list(org.id, limit + 1, cursorPosition(cursor));
  const { page, nextCursor } = takePage(rows, limit, (item) => ({ at: item.createdAt, id: item.id }));
  return { items: page, nextCursor };
}
