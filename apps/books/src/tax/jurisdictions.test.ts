import { parseTaxRate } from '@ctk/shared';
import { describe, expect, it } from 'vitest';
import { JURISDICTIONS, TABLE_STARTS } from './jurisdictions.js';

const codesOf = (country: string) => JURISDICTIONS.filter((j) => j.country === country).map((j) => j.code);
const EU = [
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
];
const latest = (code: string) => JURISDICTIONS.find((j) => j.code === code)?.rates.at(-1)?.rate;

describe('the tax jurisdiction table', () => {
  it('covers the 50 US states and DC, the 27 EU members, the UK, 13 Canadian provinces and territories, Australia and New Zealand', () => {
    expect(codesOf('US')).toHaveLength(51);
    expect(codesOf('US')).toContain('US-DC');
    expect(EU.flatMap(codesOf).sort()).toEqual([...EU].sort());
    expect(codesOf('GB')).toEqual(['GB']);
    expect(codesOf('CA')).toHaveLength(13);
    expect(codesOf('AU')).toEqual(['AU']);
    expect(codesOf('NZ')).toEqual(['NZ']);
    expect(JURISDICTIONS).toHaveLength(51 + 27 + 1 + 13 + 1 + 1);
  });

  it('has unique ISO 3166 codes, sorted, each in its country', () => {
    const codes = JURISDICTIONS.map((j) => j.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).toEqual([...codes].sort());
    for (const j of JURISDICTIONS) expect(j.code).toMatch(new RegExp(`^${j.country}(-[A-Z]{2})?$`));
  });

  it("gives every rate as a decimal string from 0 to 1, with dates in order starting by the table's start", () => {
    for (const j of JURISDICTIONS) {
      expect(j.rates.length, j.code).toBeGreaterThan(0);
      expect((j.rates[0]?.effectiveFrom ?? '9999') <= TABLE_STARTS, j.code).toBe(true);
      for (const [i, entry] of j.rates.entries()) {
        expect(entry.rate, j.code).toMatch(/^0(\.\d*[1-9])?$/);
        expect(parseTaxRate(entry.rate).numerator < parseTaxRate(entry.rate).denominator).toBe(true);
        expect(entry.effectiveFrom, j.code).toMatch(/^\d{4}-\d\d-\d\d$/);
        if (i > 0) expect(entry.effectiveFrom > (j.rates[i - 1]?.effectiveFrom ?? ''), j.code).toBe(true);
      }
    }
  });

  it('has no state sales tax in Alaska, Delaware, Montana, New Hampshire and Oregon, and one everywhere else in the US', () => {
    const zero = JURISDICTIONS.filter((j) => j.country === 'US' && latest(j.code) === '0').map((j) => j.code);
    expect(zero).toEqual(['US-AK', 'US-DE', 'US-MT', 'US-NH', 'US-OR']);
  });

  it('names the kind of tax: sales tax in the US, VAT in the EU and UK, GST or HST elsewhere', () => {
    const kinds = Object.fromEntries(
      ['US-CA', 'DE', 'GB', 'CA-BC', 'CA-ON', 'AU', 'NZ'].map((code) => [code, JURISDICTIONS.find((j) => j.code === code)?.kind]),
    );
    expect(kinds).toEqual({ 'US-CA': 'sales_tax', DE: 'vat', GB: 'vat', 'CA-BC': 'gst', 'CA-ON': 'hst', AU: 'gst', NZ: 'gst' });
  });

  it('says where a provincial sales tax is left out', () => {
    for (const code of ['CA-BC', 'CA-MB', 'CA-SK'])
      expect(JURISDICTIONS.find((j) => j.code === code)?.name).toContain('provincial sales tax not included');
    expect(JURISDICTIONS.find((j) => j.code === 'CA-QC')?.name).toContain('QST not included');
  });

  it('records the recent changes with the rate before them', () => {
    const history = (code: string) => JURISDICTIONS.find((j) => j.code === code)?.rates.map((r) => [r.effectiveFrom, r.rate]);
    expect(history('FI')).toEqual([
      [TABLE_STARTS, '0.24'],
      ['2024-09-01', '0.255'],
    ]);
    expect(history('SK')).toEqual([
      [TABLE_STARTS, '0.2'],
      ['2025-01-01', '0.23'],
    ]);
    expect(history('EE')).toEqual([
      [TABLE_STARTS, '0.22'],
      ['2025-07-01', '0.24'],
    ]);
    expect(history('RO')).toEqual([
      [TABLE_STARTS, '0.19'],
      ['2025-08-01', '0.21'],
    ]);
    expect(history('CA-NS')).toEqual([
      [TABLE_STARTS, '0.15'],
      ['2025-04-01', '0.14'],
    ]);
    expect(['GB', 'DE', 'FR', 'CA-ON', 'AU', 'NZ'].map(latest)).toEqual(['0.2', '0.19', '0.2', '0.13', '0.1', '0.15']);
  });
});
