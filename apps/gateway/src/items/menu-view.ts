import type { Menu } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError } from '@ctk/shared';
import type { MenuAnswer } from './item-answers.js';
import { itemView } from './item-view.js';

/** The menu as pos answers it, as the API shows it: each section's item ids and the items themselves, and the tip choices. */
export function menuView(menu: Menu | undefined): MenuAnswer {
  if (!menu) throw new AppError('internal', 'pos answered without the menu');
  return {
    version: Number(menu.version),
    updated_at: menu.updatedAt || null,
    sections: menu.sections.map((section) => ({ name: section.name, item_ids: section.itemIds, items: section.items.map(itemView) })),
    tip_basis_points: menu.tipBasisPoints,
  };
}
