import { readFile } from 'node:fs/promises';
import { AppError } from '@ctk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ItemDraft } from '@ctk/proto/ctk/pos/v1/pos';
import { exifOrientation } from '../src/analyze/exif-orientation.js';
import { startTestPos } from './support.js';

const fixture = (name: string) => readFile(new URL(`./fixtures/${name}`, import.meta.url));
const summary = (drafts: ItemDraft[]) => drafts.map((d) => [d.name, d.priceCents, d.currency, d.category]);

async function refusal(call: Promise<unknown>): Promise<AppError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  if (!AppError.is(error)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('pos item drafts', () => {
  let pos: Awaited<ReturnType<typeof startTestPos>>;
  beforeAll(async () => {
    pos = await startTestPos();
  });
  afterAll(() => pos.close());

  it('reads a pasted list: prices as written, headings as categories, every guess noted', async () => {
    const text = [
      'COFFEE',
      'Flat white 4.50',
      'Cortado\t$3.75',
      '',
      'Pastries:',
      'Croissant ..... $3.25',
      'Pain au chocolat - 4,50 €',
      '• Oat milk +0.50',
      'Open every day',
      'Latte 4.50 5.25',
      'Box of 6 12.00',
      'Banana bread',
    ].join('\r\n');
    const answer = await pos.client.analyzeItems({ text });
    expect(answer.source).toBe('text');
    expect(summary(answer.drafts)).toEqual([
      ['Flat white', 450n, 'USD', 'Coffee'],
      ['Cortado', 375n, 'USD', 'Coffee'],
      ['Croissant', 325n, 'USD', 'Pastries'],
      ['Pain au chocolat', 450n, 'EUR', 'Pastries'],
      ['Oat milk', 50n, 'USD', 'Pastries'],
      ['Box of 6', 1200n, 'USD', 'Pastries'],
    ]);
    expect(answer.drafts[0]?.notes).toEqual(['currency assumed USD', 'category "Coffee" from the heading "COFFEE" above']);
    expect(answer.drafts[1]?.notes).toEqual(['category "Coffee" from the heading "COFFEE" above']);
    expect(answer.drafts[3]?.notes).toContain('price read as 4.50 from "4,50 €" (a decimal comma)');
    expect(answer.drafts[4]?.notes).toContain('"+0.50" looks like an add-on to another item');
    expect(answer.skipped).toEqual([
      'line 9: no price at the end of "Open every day"',
      'line 10: two prices on one line ("Latte 4.50 5.25"): one line per size, or add the sizes as modifiers',
      'line 12: no price at the end of "Banana bread"',
    ]);
  });

  it('prices in the currency asked for, with its own minor unit', async () => {
    const answer = await pos.client.analyzeItems({ text: 'Matcha latte 650\nDorayaki ¥1,200\nMochi 1.5', currency: 'JPY' });
    expect(summary(answer.drafts)).toEqual([
      ['Matcha latte', 650n, 'JPY', ''],
      ['Dorayaki', 1200n, 'JPY', ''],
    ]);
    expect(answer.skipped).toEqual(['line 3: "1.5": JPY has no minor unit, "1.5" has 1']);
  });

  it('reads a spreadsheet CSV with a header, quoted fields and semicolons', async () => {
    const csv = [
      'Product;Description;Price (EUR);Section',
      '"Flat white";"Double ristretto; steamed milk";"4,50";Coffee',
      'Espresso;;2;Coffee',
      '"Tarte ""maison""";Apple;;Pastries',
      ';;3,00;',
      'Scone;;three;Pastries',
    ].join('\n');
    const answer = await pos.client.analyzeItems({ csv });
    expect(answer.source).toBe('csv');
    expect(answer.drafts.map((d) => [d.name, d.description, d.priceCents, d.currency, d.category])).toEqual([
      ['Flat white', 'Double ristretto; steamed milk', 450n, 'EUR', 'Coffee'],
      ['Espresso', '', 200n, 'EUR', 'Coffee'],
      ['Tarte "maison"', 'Apple', 0n, 'EUR', 'Pastries'],
    ]);
    expect(answer.drafts[0]?.notes).toEqual(['price read as 4.50 from "4,50" (a decimal comma)']);
    expect(answer.drafts[2]?.notes).toEqual(['price missing']);
    expect(answer.skipped).toEqual(['row 5: no name', 'row 6: "three" is not a price']);
  });

  it('reads a supplier CSV with tabs, a cost column and a currency column, and one without a header', async () => {
    const supplier = await pos.client.analyzeItems({ csv: 'item\tcost\tcurrency\nOat milk 1L\t2.10\tGBP\nCups 12oz\t1,234.00\tUSD\n' });
    expect(summary(supplier.drafts)).toEqual([
      ['Oat milk 1L', 210n, 'GBP', ''],
      ['Cups 12oz', 123400n, 'USD', ''],
    ]);
    expect(supplier.drafts[0]?.notes).toEqual(['price from the "cost" column: check it is what you charge, not what you pay']);
    const bare = await pos.client.analyzeItems({ csv: 'Flat white,4.50\nLatte,$5\n' });
    expect(summary(bare.drafts)).toEqual([
      ['Flat white', 450n, 'USD', ''],
      ['Latte', 500n, 'USD', ''],
    ]);
    expect(bare.drafts[0]?.notes).toEqual(['no header row: name from column 1, price from column 2', 'currency assumed USD']);
  });

  it.each(['menu.png', 'menu.jpg'])('reads the printed menu in %s by OCR', async (name) => {
    const answer = await pos.client.analyzeItems({ image: await fixture(name) }, { timeoutMs: 60_000 });
    expect(answer.source).toBe('image');
    expect(summary(answer.drafts)).toEqual([
      ['Espresso', 300n, 'USD', 'Coffee'],
      ['Flat white', 450n, 'USD', 'Coffee'],
      ['Cappuccino', 475n, 'USD', 'Coffee'],
      ['Croissant', 325n, 'USD', 'Pastries'],
      ['Banana bread', 395n, 'USD', 'Pastries'],
    ]);
    expect(answer.skipped).toEqual(['line 1: no price at the end of "Blue Bottle Cafe"']);
  });

  it('turns a photo taken sideways by its EXIF orientation, written big-endian (iPhone) or little-endian (many Androids)', async () => {
    const bigEndian = await fixture('menu-sideways.jpg');
    expect(exifOrientation(bigEndian)).toEqual({ orientation: 6, bigEndian: true });
    // The same photo with its orientation written little-endian instead.
    const withoutExif = Buffer.concat([bigEndian.subarray(0, 2), bigEndian.subarray(4 + bigEndian.readUInt16BE(4))]);
    const tiff = Buffer.from([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0]);
    const segment = Buffer.concat([Buffer.from([0xff, 0xe1, 0, 2 + 6 + tiff.length]), Buffer.from('Exif\0\0', 'latin1'), tiff]);
    const littleEndian = Buffer.concat([withoutExif.subarray(0, 2), segment, withoutExif.subarray(2)]);
    expect(exifOrientation(littleEndian)).toEqual({ orientation: 6, bigEndian: false });
    for (const image of [bigEndian, littleEndian]) {
      const answer = await pos.client.analyzeItems({ image }, { timeoutMs: 60_000 });
      expect(summary(answer.drafts).map(([name, price]) => [name, price])).toEqual([
        ['Espresso', 300n],
        ['Flat white', 450n],
        ['Cappuccino', 475n],
        ['Croissant', 325n],
        ['Banana bread', 395n],
      ]);
    }
    // Without any orientation the sideways menu is noise to OCR: the turn is what reads it.
    const sideways = await pos.client.analyzeItems({ image: withoutExif }, { timeoutMs: 60_000 });
    expect(sideways.drafts.filter((draft) => draft.name === 'Flat white')).toEqual([]);
  });

  it('reads photos one at a time and refuses a burst beyond the queue at once', async () => {
    const image = await fixture('menu.png');
    const calls = Array.from({ length: 6 }, () =>
      pos.client.analyzeItems({ image }, { timeoutMs: 60_000 }).then(
        (answer) => answer.drafts.length,
        (error: unknown) => (AppError.is(error) ? error.code : String(error)),
      ),
    );
    const outcomes = await Promise.all(calls);
    // One read at once and three waiting (POS_OCR_MAX_WAITING): the other two are refused.
    expect(outcomes.filter((o) => o === 5)).toHaveLength(4);
    expect(outcomes.filter((o) => o === 'unavailable')).toHaveLength(2);
  });

  it('refuses images by their bytes: other types 415, too large 413, broken 422', async () => {
    const png = await fixture('menu.png');
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00', 'latin1');
    expect(await refusal(pos.client.analyzeItems({ image: gif }))).toMatchObject({
      code: 'unsupported_media_type',
      message: expect.stringContaining('not GIF'),
    });
    expect((await refusal(pos.client.analyzeItems({ image: Buffer.from('Flat white 4.50') }))).code).toBe('unsupported_media_type');
    const huge = Buffer.from(png);
    huge.writeUInt32BE(30_000, 16); // the header claims 30,000 pixels wide
    expect(await refusal(pos.client.analyzeItems({ image: huge }))).toMatchObject({
      code: 'payload_too_large',
      details: { field: 'image' },
    });
    const long = Buffer.concat([png, Buffer.alloc(4_000_001 - png.length)]);
    expect((await refusal(pos.client.analyzeItems({ image: long }))).code).toBe('payload_too_large');
    const garbled = Buffer.concat([png.subarray(0, 33), Buffer.alloc(2000, 7)]);
    expect(await refusal(pos.client.analyzeItems({ image: garbled }, { timeoutMs: 60_000 }))).toMatchObject({
      code: 'validation_failed',
      message: expect.stringContaining('image could not be read'),
    });
    const noFrame = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
    expect((await refusal(pos.client.analyzeItems({ image: noFrame }))).code).toBe('validation_failed');
    // The reader still works after a refused image.
    expect((await pos.client.analyzeItems({ image: png }, { timeoutMs: 60_000 })).drafts).toHaveLength(5);
  });

  it('refuses no input, two inputs, NUL, blank text, a bad currency, and inputs past their bounds', async () => {
    const cases: [Parameters<typeof pos.client.analyzeItems>[0], string, string][] = [
      [{}, 'validation_failed', 'all are empty'],
      [{ text: 'Latte 5', csv: 'name,price' }, 'validation_failed', 'not text and csv'],
      [{ text: 'Latte\u0000 5' }, 'validation_failed', 'NUL'],
      [{ text: ' \n\t ' }, 'validation_failed', 'nothing but spaces'],
      [{ text: 'Latte 5', currency: 'usd' }, 'validation_failed', 'currency'],
      [{ text: 'Latte 5', currency: 'XXY' }, 'validation_failed', 'currency'],
      [{ text: 'x'.repeat(100_001) }, 'payload_too_large', 'at most 100000'],
      [{ csv: 'a,1\n'.repeat(2_001) }, 'payload_too_large', 'at most 2000'],
    ];
    for (const [request, code, words] of cases) {
      expect(await refusal(pos.client.analyzeItems(request)), JSON.stringify(request).slice(0, 60)).toMatchObject({
        code,
        message: expect.stringContaining(words),
      });
    }
  });

  it('bounds what one answer holds: 500 drafts and 50 skipped lines, the rest counted', async () => {
    const drafts = await pos.client.analyzeItems({ text: Array.from({ length: 600 }, (_, i) => `Item ${i} 1.00`).join('\n') });
    expect(drafts.drafts).toHaveLength(500);
    expect(drafts.skipped).toEqual(['lines 501-600: not read: at most 500 drafts at once']);
    const skipped = await pos.client.analyzeItems({ text: Array.from({ length: 80 }, (_, i) => `Note ${'x'.repeat(i % 3)}`).join('\n') });
    expect(skipped.skipped).toHaveLength(50);
    expect(skipped.skipped.at(-1)).toBe('and 31 more lines skipped');
    const csv = await pos.client.analyzeItems({ csv: 'name,price\n' + `"${'n'.repeat(201)}",1\n` + 'Control\u0007char,2\n' });
    expect(csv.skipped).toEqual(['row 2: the name is longer than 200 characters']);
    expect(summary(csv.drafts)).toEqual([['Control char', 200n, 'USD', '']]);
  });
});
