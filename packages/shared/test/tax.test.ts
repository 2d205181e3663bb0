import { describe, expect, it } from 'vitest';
import { AppError, lineTax, orderTax, parseTaxRate, roundHalfUp } from '../src/index.js';

const exclusive = (quantity: number | bigint, unitPriceMinor: bigint, rate: string) => lineTax({ quantity, unitPriceMinor }, rate, false);
const inclusive = (quantity: number | bigint, unitPriceMinor: bigint, rate: string) => lineTax({ quantity, unitPriceMinor }, rate, true);

describe('per-line sales tax', () => {
  describe('with prices excluding tax', () => {
    it('adds quantity x unit price x rate, rounded to the minor unit', () => {
      expect(exclusive(2, 1000n, '0.0725')).toEqual({ netMinor: 2000n, taxMinor: 145n, totalMinor: 2145n });
      expect(exclusive(3, 333n, '0.075')).toEqual({ netMinor: 999n, taxMinor: 75n, totalMinor: 1074n });
    });

    it('rounds a tax of exactly half a minor unit up, never to even', () => {
      expect(exclusive(1, 10n, '0.05').taxMinor).toBe(1n);
      expect(exclusive(1, 30n, '0.05').taxMinor).toBe(2n);
      expect(exclusive(1, 50n, '0.05').taxMinor).toBe(3n);
      expect(exclusive(1, 9n, '0.05').taxMinor).toBe(0n);
    });

    it('is exact where floating point is not: 200 x 0.0725 is 14.5, so 15 (a float gives 14.4999...)', () => {
      expect(200 * 0.0725).toBeLessThan(14.5);
      expect(exclusive(1, 200n, '0.0725').taxMinor).toBe(15n);
    });

    it('charges nothing at a zero rate', () => {
      expect(exclusive(4, 1250n, '0')).toEqual({ netMinor: 5000n, taxMinor: 0n, totalMinor: 5000n });
    });
  });

  describe('with prices including tax', () => {
    it('takes the tax out of the gross: gross x rate / (1 + rate)', () => {
      expect(inclusive(1, 1200n, '0.2')).toEqual({ netMinor: 1000n, taxMinor: 200n, totalMinor: 1200n });
      expect(inclusive(1, 119n, '0.19')).toEqual({ netMinor: 100n, taxMinor: 19n, totalMinor: 119n });
      expect(inclusive(2, 575n, '0.15')).toEqual({ netMinor: 1000n, taxMinor: 150n, totalMinor: 1150n });
    });

    it('rounds half up there too: 999 at 20% holds 166.5 of tax, so 167', () => {
      expect(inclusive(1, 999n, '0.2')).toEqual({ netMinor: 832n, taxMinor: 167n, totalMinor: 999n });
    });

    it('keeps the whole price as net at a zero rate', () => {
      expect(inclusive(3, 100n, '0')).toEqual({ netMinor: 300n, taxMinor: 0n, totalMinor: 300n });
    });
  });

  it('stays exact on amounts far beyond 2^53', () => {
    const unit = 123_456_789_012_345_678_901n;
    expect(exclusive(3n, unit, '0.0725')).toEqual({
      netMinor: 370_370_367_037_037_036_703n,
      taxMinor: 26_851_851_610_185_185_161n,
      totalMinor: 397_222_218_647_222_221_864n,
    });
    expect(inclusive(3n, unit, '0.2').taxMinor).toBe(61_728_394_506_172_839_451n);
  });

  it('gives a discount line (a negative price) the same tax as the charge it cancels, negated', () => {
    expect(exclusive(1, -10n, '0.05')).toEqual({ netMinor: -10n, taxMinor: -1n, totalMinor: -11n });
    expect(inclusive(1, -999n, '0.2')).toEqual({ netMinor: -832n, taxMinor: -167n, totalMinor: -999n });
  });

  it.each(['7.25%', '0.0725 ', '-0.1', '1.5', '2', '', 'abc', '.5', '0,2', '1e-2', '0.1234567890123'])(
    'refuses the rate %j as validation_failed',
    (rate) => {
      const error: unknown = (() => {
        try {
          exclusive(1, 100n, rate);
        } catch (e) {
          return e;
        }
      })();
      expect(AppError.is(error)).toBe(true);
      expect(error).toMatchObject({ code: 'validation_failed', details: { field: 'tax_rate' } });
      expect((error as Error).message).toContain('such as "0.0725"');
    },
  );

  it.each([0, -1, 1.5, 0n, -2n, Number.MAX_SAFE_INTEGER + 1])('refuses the quantity %s as validation_failed', (quantity) => {
    expect(() => exclusive(quantity, 100n, '0.1')).toThrow(
      expect.objectContaining({ code: 'validation_failed', details: { field: 'quantity' } }),
    );
  });

  it('parses a rate into an exact fraction, 1 and 0 included', () => {
    expect(parseTaxRate('0.0725')).toEqual({ numerator: 725n, denominator: 10_000n });
    expect(parseTaxRate('0')).toEqual({ numerator: 0n, denominator: 1n });
    expect(parseTaxRate('1.00')).toEqual({ numerator: 100n, denominator: 100n });
  });

  it('rounds half away from zero', () => {
    expect([roundHalfUp(5n, 2n), roundHalfUp(-5n, 2n), roundHalfUp(7n, 3n), roundHalfUp(8n, 3n), roundHalfUp(0n, 7n)]).toEqual([
      3n,
      -3n,
      2n,
      3n,
      0n,
    ]);
  });
});

describe('order totals', () => {
  it('sum the lines, each rounded on its own (two half cents make two cents, not one)', () => {
    const order = orderTax(
      [
        { quantity: 1, unitPriceMinor: 10n },
        { quantity: 1, unitPriceMinor: 10n },
      ],
      '0.05',
      false,
    );
    expect(order.lines).toEqual([
      { netMinor: 10n, taxMinor: 1n, totalMinor: 11n },
      { netMinor: 10n, taxMinor: 1n, totalMinor: 11n },
    ]);
    expect(order.totals).toEqual({ netMinor: 20n, taxMinor: 2n, totalMinor: 22n });
  });

  it('are zero for an order without lines', () => {
    expect(orderTax([], '0.2', true).totals).toEqual({ netMinor: 0n, taxMinor: 0n, totalMinor: 0n });
  });

  it('keep net + tax = total for prices including tax', () => {
    const { totals } = orderTax(
      [
        { quantity: 3, unitPriceMinor: 499n },
        { quantity: 1, unitPriceMinor: 1999n },
      ],
      '0.2',
      true,
    );
    expect(totals).toEqual({ netMinor: 1247n + 1666n, taxMinor: 250n + 333n, totalMinor: 3496n });
  });
});
