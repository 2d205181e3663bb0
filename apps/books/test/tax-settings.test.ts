import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newOrg, startTestBooks } from './support.js';

describe('books keeps each organisation’s tax settings', () => {
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
  const settingsOf = async (id: string, at = '') => (await books.client.getTaxSettings({ organizationIds: [id], at })).settings[0];

  it("follows the jurisdiction's default until prices_include_tax is chosen, keeps a choice, and clearing it goes back to the default", async () => {
    const org = newOrg();
    const id = org.id;
    expect(await settingsOf(id)).toEqual({ organizationId: id, jurisdiction: '', pricesIncludeTax: false, rate: undefined });
    expect((await books.client.setTaxSettings({ org, jurisdiction: 'US-WA' })).settings).toMatchObject({
      jurisdiction: 'US-WA',
      pricesIncludeTax: false,
    });
    expect((await books.client.setTaxSettings({ org, jurisdiction: 'GB' })).settings).toMatchObject({
      jurisdiction: 'GB',
      pricesIncludeTax: true,
    });
    expect((await books.client.setTaxSettings({ org, pricesIncludeTax: false })).settings).toMatchObject({
      jurisdiction: 'GB',
      pricesIncludeTax: false,
    });
    expect((await books.client.setTaxSettings({ org, jurisdiction: 'IE' })).settings).toMatchObject({
      jurisdiction: 'IE',
      pricesIncludeTax: false,
    });
    expect((await books.client.setTaxSettings({ org, clearPricesIncludeTax: true })).settings).toMatchObject({
      jurisdiction: 'IE',
      pricesIncludeTax: true,
    });
    expect(await settingsOf(id, '2026-11-20')).toMatchObject({
      jurisdiction: 'IE',
      pricesIncludeTax: true,
      rate: { code: 'IE', rate: '0.23', effectiveFrom: '2024-01-01' },
    });
  });

  it('answers several organisations in the order asked, one without settings answering none chosen', async () => {
    const [a, b] = [newOrg(), newOrg()];
    await books.client.setTaxSettings({ org: a, jurisdiction: 'US-CA' });
    const stranger = randomUUID();
    const { settings } = await books.client.getTaxSettings({ organizationIds: [stranger, a.id, b.id] });
    expect(settings.map((s) => [s.organizationId, s.jurisdiction, s.rate?.rate])).toEqual([
      [stranger, '', undefined],
      [a.id, 'US-CA', '0.0725'],
      [b.id, '', undefined],
    ]);
  });

  it('refuses a code of no jurisdiction as validation_failed on jurisdiction, saying where the list is, and stores nothing of the call', async () => {
    const org = newOrg();
    await books.client.setTaxSettings({ org, jurisdiction: 'FR' });
    const refused = await rejection(books.client.setTaxSettings({ org, jurisdiction: 'US', pricesIncludeTax: false }));
    expect(refused).toMatchObject({
      code: 'validation_failed',
      message:
        'Invalid input: jurisdiction: "US" is taxed by state or province: use a code such as "US-AK"; GET /api/v1/tax/jurisdictions?country=US lists them.',
      details: { field: 'jurisdiction', issues: [{ field: 'jurisdiction' }] },
    });
    expect(await settingsOf(org.id)).toMatchObject({ jurisdiction: 'FR', pricesIncludeTax: true });
  });

  it('checks without storing when asked to validate only', async () => {
    const org = newOrg();
    expect((await books.client.setTaxSettings({ org, jurisdiction: 'DE', validateOnly: true })).settings).toMatchObject({
      jurisdiction: 'DE',
    });
    expect(await settingsOf(org.id)).toMatchObject({ jurisdiction: '' });
    expect(await rejection(books.client.setTaxSettings({ org, jurisdiction: 'ZZ', validateOnly: true }))).toMatchObject({
      code: 'validation_failed',
    });
  });

  it('reports sales tax set up once a jurisdiction is chosen', async () => {
    const org = newOrg();
    const salesTax = async () => (await books.client.getSetup({ org })).capabilities.find((c) => c.capabilityId === 'sales_tax');
    expect(await salesTax()).toMatchObject({ setUp: false });
    await books.client.setTaxSettings({ org, jurisdiction: 'NZ' });
    expect(await salesTax()).toMatchObject({ setUp: true, nextStep: '' });
  });
});
