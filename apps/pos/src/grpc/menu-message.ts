import type { Menu as MenuMessage } from '@ctk/proto/ctk/pos/v1/pos';
import type { Menu } from '../data/menu-repository.js';
import { toItemMessage } from './item-message.js';

/** The menu with each section's item ids and the items themselves, in order, and its tip choices. */
export function toMenuMessage(menu: Menu): MenuMessage {
  return {
    version: menu.version,
    updatedAt: menu.updatedAt?.toISOString(),
    sections: menu.sections.map((section) => ({
      name: section.name,
      itemIds: section.items.map((item) => item.id),
      items: section.items.map(toItemMessage),
    })),
    tipBasisPoints: menu.tipBasisPoints,
  };
}
