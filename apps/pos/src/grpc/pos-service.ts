import { orgOf } from '@ctk/shared';
import type { PosServiceImplementation } from '@ctk/proto/ctk/pos/v1/pos';
import type { ItemRepository } from '../data/item-repository.js';
import { createItem } from '../domain/create-item.js';
import { getSetup } from '../domain/get-setup.js';
import { listItems } from '../domain/list-items.js';
import { toItemMessage } from './item-message.js';

export function posService({ items }: { items: ItemRepository }): PosServiceImplementation {
  return {
    async getSetup(request) {
      return { capabilities: await getSetup(items, orgOf(request.org)) };
    },
    async createItem(request) {
      return { item: toItemMessage(await createItem(items, orgOf(request.org), request)) };
    },
    async listItems(request) {
      const page = await listItems(items, orgOf(request.org), request);
      return { items: page.items.map(toItemMessage), nextCursor: page.nextCursor };
    },
  };
}
