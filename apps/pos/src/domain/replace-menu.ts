import { AppError, type InputIssue, invalidInput, lineOfText, type Org, validate } from '@ctk/shared';
import { z } from 'zod';
import type { ItemRepository } from '../data/item-repository.js';
import { DEFAULT_TIP_BASIS_POINTS, type Menu, type MenuRepository } from '../data/menu-repository.js';

export const MAX_SECTIONS = 50;
export const MAX_SECTION_ITEMS = 200;
export const MAX_MENU_ENTRIES = 1000;
export const MAX_TIP_CHOICES = 6;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const sectionSchema = z.object({
  name: lineOfText('name', 60).pipe(z.string().min(1, 'name is required')),
  itemIds: z
    .array(
      z
        .string()
        .regex(UUID, 'not an item id: items are named by their UUID')
        .transform((id) => id.toLowerCase()),
    )
    .max(MAX_SECTION_ITEMS, `a section has at most ${MAX_SECTION_ITEMS} items`),
});

const replacementSchema = z
  .object({
    expectedVersion: z.bigint().min(0n, 'expected_version must not be negative'),
    sections: z.array(sectionSchema).max(MAX_SECTIONS, `a menu has at most ${MAX_SECTIONS} sections`),
    // proto3 cannot tell an absent list from an empty one: none means the default choices.
    tipBasisPoints: z
      .array(
        z
          .number()
          .int('a tip choice is a whole number of basis points (1000 = 10%)')
          .min(1, 'a tip choice is at least 1 basis point (0.01%): "None" is always offered')
          .max(10_000, 'a tip choice is at most 10000 basis points (100%)'),
      )
      .max(MAX_TIP_CHOICES, `a menu offers at most ${MAX_TIP_CHOICES} tip choices (a custom tip is always offered too)`)
      .default([]),
  })
  .superRefine(({ sections, tipBasisPoints }, context) => {
    const tips = new Set<number>();
    tipBasisPoints.forEach((basisPoints, i) => {
      if (tips.has(basisPoints))
        context.addIssue({ code: 'custom', path: ['tipBasisPoints', i], message: `${basisPoints} is already a tip choice` });
      tips.add(basisPoints);
    });
    const entries = sections.reduce((sum, section) => sum + section.itemIds.length, 0);
    if (entries > MAX_MENU_ENTRIES)
      context.addIssue({
        code: 'custom',
        path: ['sections'],
        message: `a menu has at most ${MAX_MENU_ENTRIES} items across its sections, not ${entries}`,
      });
    const names = new Set<string>();
    sections.forEach((section, s) => {
      const name = section.name.toLowerCase();
      if (names.has(name))
        context.addIssue({ code: 'custom', path: ['sections', s, 'name'], message: `"${section.name}" is already a section` });
      names.add(name);
      const ids = new Set<string>();
      section.itemIds.forEach((id, i) => {
        if (ids.has(id))
          context.addIssue({ code: 'custom', path: ['sections', s, 'itemIds', i], message: 'this item is already in this section' });
        ids.add(id);
      });
    });
  });

export type MenuReplacementInput = z.input<typeof replacementSchema>;

/**
 * Replaces the organisation's menu as a whole, if the editor read the current version: a stale one is
 * 412 precondition_failed and nothing changes. Every item must be one of the organisation's. The tip
 * choices are kept ascending; none given means the default ones.
 */
export async function replaceMenu(menus: MenuRepository, items: ItemRepository, org: Org, input: MenuReplacementInput): Promise<Menu> {
  const { expectedVersion, sections, tipBasisPoints } = validate(replacementSchema, input);
  const owned = await items.ownedIds(org.id, [...new Set(sections.flatMap((section) => section.itemIds))]);
  const unknown: InputIssue[] = sections.flatMap((section, s) =>
    section.itemIds.flatMap((id, i) =>
      owned.has(id) ? [] : [{ field: `sections.${s}.item_ids.${i}`, message: `no item of this organisation has the id ${id}` }],
    ),
  );
  if (unknown.length > 0) throw invalidInput(unknown);
  const tips = tipBasisPoints.length > 0 ? [...tipBasisPoints].sort((a, b) => a - b) : DEFAULT_TIP_BASIS_POINTS;
  const replacement = await menus.replaceIfAt(org.id, expectedVersion, sections, tips);
  if (!replacement.replaced) {
    const current = replacement.currentVersion;
    throw new AppError(
      'precondition_failed',
      `The menu is at version ${current} (ETag "${current}"), not ${expectedVersion}: read it again and make your change to version ${current}.`,
      { current_version: Number(current) },
    );
  }
  return replacement.menu;
}
