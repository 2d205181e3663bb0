import type { Org } from '@ctk/shared';
import type { Menu, MenuRepository } from '../data/menu-repository.js';

/** The organisation's menu: version 0 and no sections until its first replacement. */
export function getMenu(menus: MenuRepository, org: Org): Promise<Menu> {
  return menus.read(org.id);
}
