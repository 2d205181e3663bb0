import { describe, expect, it } from 'vitest';
import { formatPrice, minorDigits } from './feed-price.js';

describe('formatPrice', () => {
  it.each([
    [450, 'USD', '4.50'],
    [5, 'USD', '0.05'],
    [0, 'EUR', '0.00'],
    [1200, 'JPY', '1200'],
    [1234, 'KWD', '1.234'],
    [7, 'BHD', '0.007'],
    [1000, 'IQD', '1.000'],
    [12345, 'CLF', '1.2345'],
    [2_100_000_000_000_000, 'USD', '21000000000000.00'],
  ])('%i %s is "%s", exactly', (minor, currency, price) => {
    expect(formatPrice(minor, currency)).toBe(price);
  });

  it('knows the ISO 4217 minor digits, not the ICU data of the running Node', () => {
    expect(['JPY', 'KRW', 'VND', 'ISK'].map(minorDigits)).toEqual([0, 0, 0, 0]);
    expect(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'].map(minorDigits)).toEqual([3, 3, 3, 3, 3, 3, 3]);
    expect(['USD', 'EUR', 'GBP'].map(minorDigits)).toEqual([2, 2, 2]);
  });

  it('refuses a float or a negative amount', () => {
    expect(() => formatPrice(4.5, 'USD')).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    expect(() => formatPrice(-1, 'USD')).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});
