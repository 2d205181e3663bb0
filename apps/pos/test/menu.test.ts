import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MenuSection, ReplaceMenuRequest } from '@ctk/proto/ctk/pos/v1/pos';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { newItem, newOrg, startTestPos } from './support.js';

describe('pos menu', () => {
  let pos: Awaited<ReturnType<typeof startTestPos>>;
  beforeAll(async () => {
    pos = await startTestPos();
  });
  afterAll(() => pos.close());

  const itemOf = async (org: OrgRef, name: string) => {
    const { item } = await pos.client.createItem(newItem(org, { name }));
    return item!;
  };
  const section = (name: string, itemIds: string[]): MenuSection => ({ name, itemIds, items: [] });
  const replace = (org: OrgRef, expectedVersion: bigint, sections: MenuSection[], tipBasisPoints: number[] = []) =>
    pos.client.replaceMenu({ org, expectedVersion, sections, tipBasisPoints } satisfies Partial<ReplaceMenuRequest>);
  /** 10%, 15%, 20%: the tip choices of a menu never saved, or saved without any. */
  const DEFAULT_TIPS = [1000, 1500, 2000];
  const UNSAVED = { version: 0n, sections: [], updatedAt: undefined, tipBasisPoints: DEFAULT_TIPS };
  type Refusal = { code: string; message: string; details: Record<string, unknown> };
  const refusal = (org: OrgRef, expectedVersion: bigint, sections: MenuSection[], tipBasisPoints: number[] = []): Promise<Refusal> =>
    replace(org, expectedVersion, sections, tipBasisPoints).then(
      () => {
        throw new Error('the replacement was taken');
      },
      (error: unknown) => error as Refusal,
    );
  let stocked: ReturnType<typeof stock> | undefined;
  const stock = async () => {
    const org = newOrg();
    return { org, items: await Promise.all(Array.from({ length: 150 }, (_, n) => itemOf(org, `Item ${n}`))) };
  };
  const menuOf = async (org: OrgRef) => (await pos.client.getMenu({ org })).menu!;

  it('answers version 0, no sections and the default tip choices before the first replacement', async () => {
    expect(await menuOf(newOrg())).toEqual(UNSAVED);
  });

  it('replaces the menu as a whole, answers sections with their items in order, and goes up one version each time', async () => {
    const org = newOrg();
    const [latte, espresso, croissant] = [await itemOf(org, 'Latte'), await itemOf(org, 'Espresso'), await itemOf(org, 'Croissant')];
    const first = (await replace(org, 0n, [section('Coffee', [espresso.id, latte.id]), section('Bakery', [croissant.id])])).menu!;
    expect(first.version).toBe(1n);
    expect(new Date(first.updatedAt!).toISOString()).toBe(first.updatedAt);
    expect(first.sections.map((s) => ({ name: s.name, itemIds: s.itemIds, names: s.items.map((i) => i.name) }))).toEqual([
      { name: 'Coffee', itemIds: [espresso.id, latte.id], names: ['Espresso', 'Latte'] },
      { name: 'Bakery', itemIds: [croissant.id], names: ['Croissant'] },
    ]);
    expect(first.sections[1]?.items[0]).toEqual(croissant);
    expect(await menuOf(org)).toEqual(first);

    // The whole menu is replaced: the Bakery section is gone, Coffee reordered, and an item may be in two sections.
    const second = (await replace(org, 1n, [section('Popular', [latte.id]), section('Coffee', [latte.id, espresso.id])])).menu!;
    expect(second.version).toBe(2n);
    expect(second.sections.map((s) => [s.name, s.itemIds])).toEqual([
      ['Popular', [latte.id]],
      ['Coffee', [latte.id, espresso.id]],
    ]);
    expect(await menuOf(org)).toEqual(second);

    const emptied = (await replace(org, 2n, [])).menu!;
    expect(emptied).toMatchObject({ version: 3n, sections: [], tipBasisPoints: DEFAULT_TIPS });
  });

  it("keeps the merchant's tip choices with the menu, ascending, until a replacement without any brings back the default", async () => {
    const org = newOrg();
    const latte = await itemOf(org, 'Latte');
    const saved = (await replace(org, 0n, [section('Coffee', [latte.id])], [2000, 1250, 500])).menu!;
    expect(saved.tipBasisPoints).toEqual([500, 1250, 2000]);
    expect(await menuOf(org)).toEqual(saved);
    // The extremes: one basis point and 100%, six of them.
    const six = [10_000, 1, 1800, 2200, 2500, 3000];
    expect((await replace(org, 1n, [section('Coffee', [latte.id])], six)).menu?.tipBasisPoints).toEqual([
      1, 1800, 2200, 2500, 3000, 10_000,
    ]);
    // The menu is replaced as a whole: a replacement that names no tip choices has the default ones.
    const plain = (await replace(org, 2n, [section('Coffee', [latte.id])])).menu!;
    expect(plain).toMatchObject({ version: 3n, tipBasisPoints: DEFAULT_TIPS });
    expect(await menuOf(org)).toEqual(plain);
  });

  it.each([
    ['seven tip choices', [500, 1000, 1500, 2000, 2500, 3000, 3500], 'tip_basis_points', 'at most 6 tip choices'],
    ['a tip choice of 0', [1000, 0], 'tip_basis_points.1', 'at least 1 basis point'],
    ['a negative tip choice', [-1500], 'tip_basis_points.0', 'at least 1 basis point'],
    ['a tip choice over 100%', [1000, 10_001], 'tip_basis_points.1', 'at most 10000 basis points'],
    ['a tip choice twice', [1500, 1000, 1500], 'tip_basis_points.2', '1500 is already a tip choice'],
  ])('refuses %s as validation_failed naming it, and changes nothing', async (_, tips, field, message) => {
    const org = newOrg();
    const latte = await itemOf(org, 'Latte');
    const saved = (await replace(org, 0n, [section('Coffee', [latte.id])], [1800])).menu!;
    const error = await refusal(org, 1n, [section('Tea', [])], tips);
    expect(error).toMatchObject({ code: 'validation_failed', details: { field } });
    expect(error.message).toContain(message);
    expect(await menuOf(org)).toEqual(saved);
  });

  it('refuses a stale version as precondition_failed naming the current one, and changes nothing', async () => {
    const org = newOrg();
    const latte = await itemOf(org, 'Latte');
    await replace(org, 0n, [section('Coffee', [latte.id])]);
    const before = await menuOf(org);
    for (const stale of [0n, 2n, 99n]) {
      const error = await refusal(org, stale, [section('Tea', [])]);
      expect(error).toMatchObject({ code: 'precondition_failed', details: { current_version: 1 } });
      expect(error.message).toContain('The menu is at version 1 (ETag "1")');
    }
    expect(await menuOf(org)).toEqual(before);
  });

  it('refuses any version but 0 for a menu never saved, and leaves it unsaved', async () => {
    const org = newOrg();
    expect(await refusal(org, 1n, [])).toMatchObject({ code: 'precondition_failed', details: { current_version: 0 } });
    expect(await menuOf(org)).toEqual(UNSAVED);
  });

  it.each([2, 20])(
    'lets exactly one of %i concurrent replacements from the same version win; the others change nothing',
    async (concurrent) => {
      const org = newOrg();
      const items = await Promise.all(Array.from({ length: concurrent }, (_, n) => itemOf(org, `Item ${n}`)));
      const race = async () => {
        const version = (await menuOf(org)).version;
        const outcomes = await Promise.allSettled(items.map((item, n) => replace(org, version, [section(`Editor ${n}`, [item.id])])));
        const won = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.menu!] : []));
        const lost = outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as { code: string }).code] : []));
        expect(won).toHaveLength(1);
        expect(lost).toEqual(Array(concurrent - 1).fill('precondition_failed'));
        expect(won[0]?.version).toBe(version + 1n);
        expect(won[0]?.sections).toHaveLength(1);
        expect(await menuOf(org)).toEqual(won[0]);
      };
      await race(); // from version 0: the menu's row does not exist yet
      await race(); // from version 1: the row exists
    },
  );

  it("refuses another organisation's item, an id that is no item and a malformed id, naming each place, and changes nothing", async () => {
    const org = newOrg();
    const other = newOrg();
    const mine = await itemOf(org, 'Mine');
    const theirs = await itemOf(other, 'Theirs');
    const error = await refusal(org, 0n, [
      section('Coffee', [mine.id]),
      section('Bakery', [mine.id, theirs.id, '00000000-0000-4000-8000-000000000000', 'latte']),
    ]);
    expect(error).toMatchObject({ code: 'validation_failed', details: { field: 'sections.1.item_ids.3' } });
    const malformed = (error.details.issues as Array<{ field: string }>).map((i) => i.field);
    expect(malformed).toEqual(['sections.1.item_ids.3']);
    // With the id well-formed, each foreign or unknown one is named.
    const foreign = await refusal(org, 0n, [section('Bakery', [mine.id, theirs.id, '00000000-0000-4000-8000-000000000000'])]);
    expect(foreign).toMatchObject({ code: 'validation_failed', details: { field: 'sections.0.item_ids.1' } });
    expect((foreign.details.issues as Array<{ field: string }>).map((i) => i.field)).toEqual([
      'sections.0.item_ids.1',
      'sections.0.item_ids.2',
    ]);
    expect(foreign.message).not.toContain('Theirs');
    expect(await menuOf(org)).toEqual(UNSAVED);
  });

  it('takes an item id in upper case as the same item', async () => {
    const org = newOrg();
    const latte = await itemOf(org, 'Latte');
    const { menu } = await replace(org, 0n, [section('Coffee', [latte.id.toUpperCase()])]);
    expect(menu?.sections[0]?.itemIds).toEqual([latte.id]);
  });

  it('takes 50 sections and 1000 items, and a section of 200 items', async () => {
    const org = newOrg();
    const items = await Promise.all(Array.from({ length: 200 }, (_, n) => itemOf(org, `Item ${n}`)));
    const ids = items.map((i) => i.id);
    const sections = Array.from({ length: 50 }, (_, n) => section(`${n}`.padEnd(60, 's'), ids.slice((n % 10) * 20, (n % 10) * 20 + 20)));
    const { menu } = await replace(org, 0n, sections);
    expect(menu?.sections.flatMap((s) => s.itemIds)).toHaveLength(1000);
    const single = await replace(org, 1n, [section('All', ids)]);
    expect(single.menu?.sections[0]?.items.map((i) => i.name)).toEqual(items.map((i) => i.name));
  });

  it.each([
    ['51 sections', () => Array.from({ length: 51 }, (_, n) => section(`S${n}`, [])), 'sections', 'at most 50 sections'],
    [
      'a section of 201 items',
      (ids: string[]) => [section('Big', [...ids, ...ids].slice(0, 201))],
      'sections.0.item_ids',
      'at most 200 items',
    ],
    [
      'more than 1000 items across sections',
      (ids: string[]) => Array.from({ length: 11 }, (_, n) => section(`S${n}`, ids.slice(0, 100))),
      'sections',
      'at most 1000 items across its sections, not 1100',
    ],
    ['a section without a name', () => [section('  ', [])], 'sections.0.name', 'name is required'],
    ['a section name over 60 characters', () => [section('s'.repeat(61), [])], 'sections.0.name', 'at most 60 characters'],
    ['a NUL in a section name', () => [section('Coffee\u0000', [])], 'sections.0.name', 'control characters'],
    ['a line feed in a section name', () => [section('Hot\ndrinks', [])], 'sections.0.name', 'control characters'],
    ['two sections of one name', () => [section('Coffee', []), section('coffee', [])], 'sections.1.name', '"coffee" is already a section'],
    [
      'an item twice in one section',
      (ids: string[]) => [section('Coffee', [ids[0]!, ids[1]!, ids[0]!])],
      'sections.0.item_ids.2',
      'already in this section',
    ],
    ['a NUL in an item id', () => [section('Coffee', ['\u0000'])], 'sections.0.item_ids.0', 'not an item id'],
    ['a megabyte item id', () => [section('Coffee', ['a'.repeat(1_000_000)])], 'sections.0.item_ids.0', 'not an item id'],
  ])('refuses %s as validation_failed naming the field, and changes nothing', async (_, sectionsOf, field, message) => {
    // One organisation for every case: each refusal leaves its menu unsaved.
    const { org, items } = await (stocked ??= stock());
    const error = await refusal(org, 0n, sectionsOf(items.map((i) => i.id)));
    expect(error).toMatchObject({ code: 'validation_failed', details: { field } });
    expect(error.message).toContain(message);
    expect(error.message.length).toBeLessThan(2000);
    expect(await menuOf(org)).toEqual(UNSAVED);
  });

  it('refuses a negative version as validation_failed', async () => {
    expect(await refusal(newOrg(), -1n, [])).toMatchObject({ code: 'validation_failed', details: { field: 'expected_version' } });
  });

  it("never shows one organisation another's menu", async () => {
    const org = newOrg();
    await replace(org, 0n, [section('Coffee', [(await itemOf(org, 'Latte')).id])]);
    expect(await menuOf(newOrg())).toEqual(UNSAVED);
  });
});
