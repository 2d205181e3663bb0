import { describe, expect, it } from 'vitest';
import { parsePrice } from '../src/analyze/price.js';

describe('prices as people write them', () => {
  it.each([
    ['4.50', 'USD', 450n, 'USD'],
    ['$4.50', 'USD', 450n, 'USD'],
    ['4,50 €', 'USD', 450n, 'EUR'],
    ['€4,50', 'USD', 450n, 'EUR'],
    ['£3', 'USD', 300n, 'GBP'],
    ['USD 4.50', 'EUR', 450n, 'USD'],
    ['4.50 USD', 'EUR', 450n, 'USD'],
    ['1.234,50 €', 'USD', 123450n, 'EUR'],
    ['1,234.50', 'USD', 123450n, 'USD'],
    ['4.5', 'USD', 450n, 'USD'],
    ['4', 'USD', 400n, 'USD'],
    ['1,234', 'USD', 123400n, 'USD'],
    ["1'234.50", 'CHF', 123450n, 'CHF'],
    ['¥450', 'USD', 450n, 'JPY'],
    ['1,200 JPY', 'USD', 1200n, 'JPY'],
    ['450.00 JPY', 'USD', 450n, 'JPY'],
    ['1.250 KWD', 'USD', 1250n, 'KWD'],
    ['$4.50', 'CAD', 450n, 'CAD'],
    ['+0.50', 'USD', 50n, 'USD'],
    ['0.105', 'USD', undefined, undefined],
  ])('"%s" (assuming %s) is %s minor units of %s', (text, assumed, minor, currency) => {
    const read = parsePrice(text, assumed);
    if (minor === undefined) return expect(read).toHaveProperty('problem');
    expect(read).toMatchObject({ price: { priceCents: minor, currency } });
  });

  it('says in plain words what it guessed', () => {
    expect(parsePrice('4.50', 'USD')).toEqual({ price: { priceCents: 450n, currency: 'USD', notes: ['currency assumed USD'] } });
    expect(parsePrice('4,50 €', 'USD')).toEqual({
      price: { priceCents: 450n, currency: 'EUR', notes: ['"€" read as EUR', 'price read as 4.50 from "4,50 €" (a decimal comma)'] },
    });
    expect(parsePrice('1,234', 'USD')).toMatchObject({
      price: { notes: ['currency assumed USD', 'price read as 1234.00 from "1,234" ("," read as a thousands separator)'] },
    });
  });

  it('refuses what is not one exact price', () => {
    for (const text of ['4.5051', '¥4.50', '1.2.3,4', '12,34,5', '4.50 XYZ', '$4.50 USD', 'four', '9'.repeat(20), '']) {
      expect(parsePrice(text, 'USD'), text).toHaveProperty('problem');
    }
  });
});
