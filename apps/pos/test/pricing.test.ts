import { describe, expect, it } from 'vitest';
import { priceOrder, shareByLargestRemainder, type LineToPrice } from '../src/orders/price-order.js';

const line = (unitPriceMinor: bigint, quantity = 1n, taxRate = '0.0725', fields: Partial<LineToPrice> = {}): LineToPrice => ({
  itemId: null,
  name: 'Line',
  quantity,
  unitPriceMinor,
  modifiers: [],
  taxTreatment: 'standard',
  taxRate,
  ...fields,
});
const none = { basisPoints: 0, minor: 0n };

describe('pricing an order (decision 0015), exact integers', () => {
  it('prices excluding tax: 10% discount shared by amount, 7.25% tax per discounted line, 15% tip before tax, untaxed', () => {
    // 2 x 625 = 1250 and 425: subtotal 1675; 10% = 167.5 -> 168 (half up).
    const priced = priceOrder([line(625n, 2n), line(425n)], { basisPoints: 1000, minor: 0n }, { basisPoints: 1500, minor: 0n }, false);
    expect(priced.subtotalMinor).toBe(1675n);
    expect(priced.discountMinor).toBe(168n);
    // Shares: 168 x 1250 / 1675 = 125.37 -> 125, 168 x 425 / 1675 = 42.63 -> 42, one unit left to the larger remainder (42.63).
    expect(priced.lines.map((l) => l.discountMinor)).toEqual([125n, 43n]);
    // Tax on 1125 at 7.25% = 81.5625 -> 82; on 382 = 27.695 -> 28.
    expect(priced.lines.map((l) => l.taxMinor)).toEqual([82n, 28n]);
    expect(priced.lines.map((l) => l.totalMinor)).toEqual([1207n, 410n]);
    expect(priced.taxMinor).toBe(110n);
    // Tip: 15% of the amount after discount and before tax, 1507 = 226.05 -> 226 (not of the taxed 1617).
    expect(priced.tipMinor).toBe(226n);
    expect(priced.totalMinor).toBe(1617n + 226n);
  });

  it('prices including tax: the tax is the part of the discounted amount that is tax; the total is what the shelf says less the discount', () => {
    // 20% VAT included: 1200 is 1000 net + 200 tax; a 200 discount on 1200 and 600 shares 133.33 / 66.67.
    const priced = priceOrder([line(1200n, 1n, '0.2'), line(600n, 1n, '0.2')], { basisPoints: 0, minor: 200n }, none, true);
    expect(priced.lines.map((l) => l.discountMinor)).toEqual([133n, 67n]);
    // 1067 x 0.2 / 1.2 = 177.83 -> 178; 533 x 0.2 / 1.2 = 88.83 -> 89.
    expect(priced.lines.map((l) => l.taxMinor)).toEqual([178n, 89n]);
    expect(priced.lines.map((l) => l.totalMinor)).toEqual([1067n, 533n]);
    expect(priced.totalMinor).toBe(1600n);
  });

  it('prices including tax: a percentage tip is taken on the goods net of their tax, rounded half up', () => {
    // 20% VAT included: 1200 is 1000 net + 200 tax, 630 is 525 + 105: the tip is 15% of 1525 = 228.75 -> 229.
    const priced = priceOrder([line(1200n, 1n, '0.2'), line(630n, 1n, '0.2')], none, { basisPoints: 1500, minor: 0n }, true);
    expect(priced.taxMinor).toBe(305n);
    expect(priced.tipMinor).toBe(229n);
    expect(priced.totalMinor).toBe(1830n + 229n);
  });

  it('rounds a percentage tip half up: 12.5% of 1004 = 125.5 -> 126, of 1003 = 125.375 -> 125', () => {
    const tip = (amount: bigint) => priceOrder([line(amount, 1n, '0')], none, { basisPoints: 1250, minor: 0n }, false).tipMinor;
    expect(tip(1004n)).toBe(126n);
    expect(tip(1003n)).toBe(125n);
  });

  it('taxes each line at its own rate (standard, reduced, exempt) and adds a fixed tip untaxed', () => {
    const priced = priceOrder(
      [line(1000n, 1n, '0.19'), line(1000n, 1n, '0.07', { taxTreatment: 'reduced' }), line(1000n, 1n, '0', { taxTreatment: 'exempt' })],
      none,
      { basisPoints: 0, minor: 150n },
      false,
    );
    expect(priced.lines.map((l) => l.taxMinor)).toEqual([190n, 70n, 0n]);
    expect(priced.taxMinor).toBe(260n);
    expect(priced.tipMinor).toBe(150n);
    expect(priced.totalMinor).toBe(3260n + 150n);
  });

  it('shares a discount so the shares add up exactly, the leftover units to the largest remainders', () => {
    expect(shareByLargestRemainder(100n, [1n, 1n, 1n])).toEqual([34n, 33n, 33n]);
    expect(shareByLargestRemainder(7n, [5n, 3n, 2n])).toEqual([4n, 2n, 1n]);
    expect(shareByLargestRemainder(0n, [5n, 3n])).toEqual([0n, 0n]);
    const shares = shareByLargestRemainder(999_999n, [123_456n, 654_321n, 1n, 77n]);
    expect(shares.reduce((a, b) => a + b, 0n)).toBe(999_999n);
  });

  it('refuses a discount larger than the subtotal, naming the field', () => {
    expect(() => priceOrder([line(500n)], { basisPoints: 0, minor: 501n }, none, false)).toThrow(
      expect.objectContaining({ code: 'validation_failed', details: { field: 'discount_minor' } }),
    );
  });
});
