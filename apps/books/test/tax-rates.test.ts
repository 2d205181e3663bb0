import { AppError } from '@ctk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newOrg, startTestBooks } from './support.js';

describe('tax rates over gRPC', () => {
  let books: Awaited<ReturnType<typeof startTestBooks>>;
  beforeAll(async () => {
    books = await startTestBooks();
  });
  afterAll(() => books.close());

  const rejection = (call: Promise<unknown>) =>
    call.then(
      () => undefined,
      (error: unknown) => error,
    );

  it("answers a jurisdiction's rate in force on a date, with its name, kind and when the rate took effect", async () => {
    expect(await books.client.getTaxRate({ jurisdiction: 'US-CA', at: '2026-11-20' })).toEqual({
      jurisdiction: {
        code: 'US-CA',
        name: 'California (state rate with the 1% statewide local rate; district taxes not included)',
        country: 'US',
        kind: 'sales_tax',
        rate: '0.0725',
        effectiveFrom: '2024-01-01',
        pricesIncludeTax: false,
      },
    });
  });

  it('says where shelf prices include the tax: with VAT and GST in Europe, Australia and New Zealand, not with US or Canadian taxes', async () => {
    const { jurisdictions } = await books.client.listTaxJurisdictions({});
    const inclusive = (code: string) => jurisdictions.find((j) => j.code === code)?.pricesIncludeTax;
    expect(['US-CA', 'US-OR', 'CA-ON', 'CA-AB', 'DE', 'GB', 'AU', 'NZ'].map((code) => [code, inclusive(code)])).toEqual([
      ['US-CA', false],
      ['US-OR', false],
      ['CA-ON', false],
      ['CA-AB', false],
      ['DE', true],
      ['GB', true],
      ['AU', true],
      ['NZ', true],
    ]);
    const northAmerican = (j: { country: string }) => j.country === 'US' || j.country === 'CA';
    expect(jurisdictions.filter((j) => j.pricesIncludeTax === northAmerican(j)).map((j) => j.code)).toEqual([]);
    expect((await books.client.getTaxRate({ jurisdiction: 'FR' })).jurisdiction?.pricesIncludeTax).toBe(true);
  });

  it('answers the rate before a change for a date before it, and the new rate from its first day', async () => {
    const fi = async (at: string) => (await books.client.getTaxRate({ jurisdiction: 'FI', at })).jurisdiction;
    expect(await fi('2024-08-31')).toMatchObject({ rate: '0.24', effectiveFrom: '2024-01-01', kind: 'vat' });
    expect(await fi('2024-09-01')).toMatchObject({ rate: '0.255', effectiveFrom: '2024-09-01' });
    const ns = async (at: string) => (await books.client.getTaxRate({ jurisdiction: 'CA-NS', at })).jurisdiction?.rate;
    expect([await ns('2025-03-31'), await ns('2025-04-01')]).toEqual(['0.15', '0.14']);
  });

  it("answers today's rate when no date is given", async () => {
    const { jurisdiction } = await books.client.getTaxRate({ jurisdiction: 'GB' });
    expect(jurisdiction).toMatchObject({ code: 'GB', name: 'United Kingdom', rate: '0.2', kind: 'vat' });
  });

  it.each(['XX', 'US-ZZ', 'us-ca', '', 'California'])(
    'answers not_found for the code %j, naming the code format and the list',
    async (code) => {
      const error = await rejection(books.client.getTaxRate({ jurisdiction: code }));
      expect(AppError.is(error)).toBe(true);
      expect(error).toMatchObject({ code: 'not_found', details: { field: 'jurisdiction' } });
      expect((error as Error).message).toContain('use an ISO 3166 code such as "US-CA"');
      expect((error as Error).message).toContain('GET /api/v1/tax/jurisdictions lists them');
    },
  );

  it('tells a caller who names the US or Canada as a whole to choose a state or province', async () => {
    await expect(books.client.getTaxRate({ jurisdiction: 'CA' })).rejects.toMatchObject({
      code: 'not_found',
      message: '"CA" is taxed by state or province: use a code such as "CA-AB"; GET /api/v1/tax/jurisdictions?country=CA lists them.',
    });
  });

  it.each(['2023-12-31', '20-11-2026', '2026-13-01', '2026-02-30', '0000-01-01', 'tomorrow'])(
    'refuses the date %j as validation_failed',
    async (at) => {
      await expect(books.client.getTaxRate({ jurisdiction: 'DE', at })).rejects.toMatchObject({
        code: 'validation_failed',
        details: { field: 'at' },
      });
      await expect(books.client.listTaxJurisdictions({ at })).rejects.toMatchObject({
        code: 'validation_failed',
        details: { field: 'at' },
      });
    },
  );

  it('lists every jurisdiction by code with its rate in force', async () => {
    const { jurisdictions } = await books.client.listTaxJurisdictions({ at: '2026-11-20' });
    expect(jurisdictions).toHaveLength(94);
    expect(jurisdictions.map((j) => j.code)).toEqual(jurisdictions.map((j) => j.code).sort());
    expect(jurisdictions.find((j) => j.code === 'RO')).toMatchObject({ rate: '0.21', effectiveFrom: '2025-08-01' });
  });

  it("lists one country's jurisdictions, and none for a country the table does not cover", async () => {
    const canada = (await books.client.listTaxJurisdictions({ country: 'CA', at: '2025-01-15' })).jurisdictions;
    expect(canada.map((j) => [j.code, j.kind, j.rate])).toContainEqual(['CA-NS', 'hst', '0.15']);
    expect(canada).toHaveLength(13);
    expect(canada.every((j) => j.country === 'CA')).toBe(true);
    expect((await books.client.listTaxJurisdictions({ country: 'JP' })).jurisdictions).toEqual([]);
  });

  it('refuses a country that is not two letters, and takes one in any case', async () => {
    for (const country of ['usa', 'U', 'U1']) {
      await expect(books.client.listTaxJurisdictions({ country })).rejects.toMatchObject({
        code: 'validation_failed',
        details: { field: 'country' },
      });
    }
    expect((await books.client.listTaxJurisdictions({ country: 'nz' })).jurisdictions.map((j) => j.code)).toEqual(['NZ']);
  });

  it('reports sales tax as set up for an organisation with a known jurisdiction, with choosing one as the next step otherwise', async () => {
    const salesTax = async (jurisdiction?: string) => {
      const org = newOrg();
      if (jurisdiction) await books.client.setTaxSettings({ org, jurisdiction });
      return { org, setup: (await books.client.getSetup({ org })).capabilities.find((c) => c.capabilityId === 'sales_tax') };
    };
    expect((await salesTax('DE')).setup).toEqual({ capabilityId: 'sales_tax', setUp: true, nextStep: '' });
    // An unknown code is refused, so an organisation never holds one: it has none until it chooses a known one.
    await expect(books.client.setTaxSettings({ org: newOrg(), jurisdiction: 'XX' })).rejects.toMatchObject({ code: 'validation_failed' });
    const { org, setup } = await salesTax();
    expect(setup).toEqual({
      capabilityId: 'sales_tax',
      setUp: false,
      nextStep: `Choose your tax jurisdiction (GET /api/v1/tax/jurisdictions lists them): PATCH /api/v1/organizations/${org.handle} with jurisdiction.`,
    });
  });
});
