import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '@ctk/shared';
import { createTestDatabase } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, onboard, startTestGateway, type Gateway } from './harness.js';
import { startLedgerStack } from './ledger-harness.js';
import { expectError, SERVICES_DOWN, tableCounts, uniqueName } from './support.js';

type Stack = Awaited<ReturnType<typeof startLedgerStack>>;

let stack: Stack;
let gateway: Gateway;
beforeAll(async () => {
  stack = await startLedgerStack();
  gateway = stack.gateway;
});
afterAll(async () => {
  await stack?.close();
});

const onboardWith = (payload: Record<string, unknown>) =>
  gateway.app.inject({ method: 'POST', url: '/api/v1/onboard', payload: { name: uniqueName('Tax Shop'), ...payload } });
const patch = (owner: { handle: string; key: string }, payload: Record<string, unknown>) =>
  gateway.app.inject({ method: 'PATCH', url: `/api/v1/organizations/${owner.handle}`, headers: bearer(owner.key), payload });
const list = (query = '') => gateway.app.inject({ method: 'GET', url: `/api/v1/tax/jurisdictions${query}` });

describe('GET /api/v1/tax/jurisdictions', () => {
  it('lists every jurisdiction with its rate in force, to anyone, in one page', async () => {
    const response = await list();
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.next_cursor).toBeNull();
    expect(body.data).toHaveLength(94);
    expect(body.data.find((j: { code: string }) => j.code === 'GB')).toEqual({
      code: 'GB',
      name: 'United Kingdom',
      country: 'GB',
      kind: 'vat',
      rate: '0.2',
      effective_from: '2024-01-01',
      prices_include_tax: true,
    });
    expect(body.data.find((j: { code: string }) => j.code === 'US-NY').prices_include_tax).toBe(false);
  });

  it('filters by country (any case), and answers the rates in force on a date', async () => {
    const canada = (await list('?country=ca&at=2025-03-31')).json().data as Array<{
      code: string;
      country: string;
      rate: string;
      kind: string;
    }>;
    expect(canada).toHaveLength(13);
    expect(canada.every((j) => j.country === 'CA')).toBe(true);
    expect(canada.find((j) => j.code === 'CA-NS')).toMatchObject({ kind: 'hst', rate: '0.15' });
    expect((await list('?country=CA&at=2025-04-01')).json().data.find((j: { code: string }) => j.code === 'CA-NS').rate).toBe('0.14');
    expect((await list('?country=US')).json().data).toHaveLength(51);
    expect((await list('?country=JP')).json().data).toEqual([]);
  });

  it('answers 422 naming the field for a bad country, a bad date, a date before the table and an unknown parameter', async () => {
    for (const [query, field] of [
      ['?country=USA', 'country'],
      ['?at=2026-02-31x', 'at'],
      ['?at=2023-12-31', 'at'],
      ['?at=0000-01-01', 'at'],
      ['?limit=5', 'limit'],
    ] as const) {
      const response = await list(query);
      expectError(response, 422, 'validation_failed');
      expect({ query, field: response.json().error.details.field }).toEqual({ query, field });
    }
  });
});

describe('choosing a jurisdiction at onboarding', () => {
  it('keeps the jurisdiction and, unless told, prices exclusive of tax in the US and Canada and inclusive elsewhere', async () => {
    const cases = [
      ['US-CA', false],
      ['CA-ON', false],
      ['DE', true],
      ['GB', true],
      ['AU', true],
      ['NZ', true],
    ] as const;
    for (const [jurisdiction, inclusive] of cases) {
      const response = await onboardWith({ jurisdiction });
      expect(response.statusCode).toBe(201);
      expect(response.json().organization).toMatchObject({ jurisdiction, prices_include_tax: inclusive });
    }
  });

  it('has no jurisdiction and prices exclusive of tax when none is given', async () => {
    const response = await onboardWith({});
    expect(response.json().organization).toMatchObject({ jurisdiction: null, prices_include_tax: false });
  });

  it('takes prices_include_tax when given', async () => {
    const us = await onboardWith({ jurisdiction: 'US-NY', prices_include_tax: true });
    expect(us.json().organization).toMatchObject({ jurisdiction: 'US-NY', prices_include_tax: true });
    const de = await onboardWith({ jurisdiction: 'DE', prices_include_tax: false });
    expect(de.json().organization).toMatchObject({ jurisdiction: 'DE', prices_include_tax: false });
  });

  it('answers 422 on the jurisdiction field for a code books does not know, saying where the list is, and creates nothing', async () => {
    const before = await tableCounts(gateway);
    const response = await onboardWith({ jurisdiction: 'XX', user: { name: 'Nobody' } });
    expectError(response, 422, 'validation_failed');
    expect(response.json().error.details.field).toBe('jurisdiction');
    expect(response.json().error.message).toContain('GET /api/v1/tax/jurisdictions lists them');
    expect(await tableCounts(gateway)).toEqual(before);
  });

  it('tells a caller who names a whole country taxed by state to pick the state', async () => {
    const response = await onboardWith({ jurisdiction: 'US' });
    expectError(response, 422, 'validation_failed');
    expect(response.json().error.message).toBe(
      'Invalid body: jurisdiction: "US" is taxed by state or province: use a code such as "US-AK"; GET /api/v1/tax/jurisdictions?country=US lists them.',
    );
  });

  it('checks the jurisdiction of POST /api/v1/organizations the same way', async () => {
    const owner = await onboard(gateway, uniqueName('Group'));
    const create = (jurisdiction: string) =>
      gateway.app.inject({
        method: 'POST',
        url: '/api/v1/organizations',
        headers: bearer(owner.key),
        payload: { name: uniqueName('Branch'), jurisdiction },
      });
    const created = await create('FI');
    expect(created.statusCode).toBe(201);
    expect(created.json().organization).toMatchObject({ jurisdiction: 'FI', prices_include_tax: true });
    expectError(await create('FX'), 422, 'validation_failed');
  });
});

describe('changing the tax setting with PATCH /api/v1/organizations/:handle', () => {
  it("follows the new jurisdiction's default until prices_include_tax is chosen, keeps a choice, and null goes back to the default", async () => {
    const owner = await onboard(gateway, uniqueName('Mover'), { jurisdiction: 'US-WA' });
    expect((await patch(owner, { jurisdiction: 'GB' })).json()).toMatchObject({ jurisdiction: 'GB', prices_include_tax: true });
    expect((await patch(owner, { prices_include_tax: false })).json()).toMatchObject({ jurisdiction: 'GB', prices_include_tax: false });
    expect((await patch(owner, { jurisdiction: 'IE' })).json()).toMatchObject({ jurisdiction: 'IE', prices_include_tax: false });
    expect((await patch(owner, { prices_include_tax: null })).json()).toMatchObject({ jurisdiction: 'IE', prices_include_tax: true });
    const read = await gateway.app.inject({ method: 'GET', url: `/api/v1/organizations/${owner.handle}`, headers: bearer(owner.key) });
    expect(read.json()).toMatchObject({ jurisdiction: 'IE', prices_include_tax: true, role: 'owner' });
    const listed = await gateway.app.inject({ method: 'GET', url: '/api/v1/organizations', headers: bearer(owner.key) });
    expect(listed.json().data[0]).toMatchObject({ handle: owner.handle, jurisdiction: 'IE', prices_include_tax: true });
  });

  it('answers 422 for an unknown jurisdiction and changes nothing, not even the other fields sent with it', async () => {
    const owner = await onboard(gateway, uniqueName('Stayer'), { jurisdiction: 'FR' });
    const response = await patch(owner, { name: 'Renamed', jurisdiction: 'ZZ', prices_include_tax: false });
    expectError(response, 422, 'validation_failed');
    expect(response.json().error.details.field).toBe('jurisdiction');
    const read = await gateway.app.inject({ method: 'GET', url: `/api/v1/organizations/${owner.handle}`, headers: bearer(owner.key) });
    expect(read.json()).toMatchObject({ name: expect.not.stringMatching(/^Renamed$/), jurisdiction: 'FR', prices_include_tax: true });
  });

  it('refuses prices_include_tax that is not a boolean', async () => {
    const owner = await onboard(gateway, uniqueName('Typo'));
    const response = await patch(owner, { prices_include_tax: 'yes' });
    expectError(response, 422, 'validation_failed');
    expect(response.json().error.details.field).toBe('prices_include_tax');
  });

  it('marks sales tax as set up in the personalised capability map once a jurisdiction is chosen', async () => {
    const owner = await onboard(gateway, uniqueName('Setup'));
    const salesTax = async () => {
      const map = await gateway.app.inject({ method: 'GET', url: `/api/v1/orgs/${owner.handle}/capabilities`, headers: bearer(owner.key) });
      return map
        .json()
        .rungs.flatMap((r: { capabilities: unknown[] }) => r.capabilities)
        .find((c: { id: string }) => c.id === 'sales_tax');
    };
    expect(await salesTax()).toMatchObject({
      set_up: false,
      next_step: expect.stringContaining(`PATCH /api/v1/organizations/${owner.handle} with jurisdiction`),
    });
    expect((await patch(owner, { jurisdiction: 'NZ' })).statusCode).toBe(200);
    expect(await salesTax()).toMatchObject({ set_up: true, next_step: null });
  });
});

describe('when books does not answer', () => {
  let down: Gateway;
  beforeAll(async () => {
    down = await startTestGateway(SERVICES_DOWN);
  });
  afterAll(async () => {
    await down?.close();
  });

  it('answers 503 to onboarding with a jurisdiction and writes nothing, while onboarding without one still works', async () => {
    const before = await tableCounts(down);
    const response = await down.app.inject({
      method: 'POST',
      url: '/api/v1/onboard',
      payload: { name: uniqueName('Offline'), jurisdiction: 'DE' },
    });
    expectError(response, 503, 'unavailable');
    expect(await tableCounts(down)).toEqual(before);
    expect((await down.app.inject({ method: 'POST', url: '/api/v1/onboard', payload: { name: uniqueName('Offline') } })).statusCode).toBe(
      201,
    );
  });

  it('answers 503 to a PATCH of the jurisdiction and leaves the organisation as it was', async () => {
    const owner = await onboard(down, uniqueName('Offline'));
    const response = await down.app.inject({
      method: 'PATCH',
      url: `/api/v1/organizations/${owner.handle}`,
      headers: bearer(owner.key),
      payload: { jurisdiction: 'DE', name: 'Changed' },
    });
    expectError(response, 503, 'unavailable');
    const read = await down.app.inject({ method: 'GET', url: `/api/v1/organizations/${owner.handle}`, headers: bearer(owner.key) });
    expect(read.json()).toMatchObject({ jurisdiction: null, prices_include_tax: false });
    expect(read.json().name).not.toBe('Changed');
  });

  it('answers 503 to the jurisdiction list', async () => {
    expectError(await down.app.inject({ method: 'GET', url: '/api/v1/tax/jurisdictions' }), 503, 'unavailable');
  });
});

describe('organisations that chose a jurisdiction before books answered the default', () => {
  const PRISMA = fileURLToPath(new URL('../prisma', import.meta.url));
  const BACKFILL = '20261123122907_jurisdiction_prices_include_tax';

  it('keep their default after the upgrade: exclusive in the US and Canada, inclusive elsewhere, and a choice stays', async () => {
    const work = await mkdtemp(join(tmpdir(), 'ctk-backfill-'));
    try {
      // The database as it was before the migration: every migration before it.
      const before = join(work, 'prisma');
      await cp(PRISMA, before, { recursive: true });
      for (const migration of await readdir(join(before, 'migrations')))
        if (migration >= BACKFILL) await rm(join(before, 'migrations', migration), { recursive: true, force: true });
      const options = { service: 'gateway', databaseUrl: await createTestDatabase('backfill'), dataDir: join(work, 'data') };
      const old = await openDatabase({ ...options, prismaDir: before });
      const oldConnection = await old.adapter.connect();
      await oldConnection.executeScript(
        `INSERT INTO "organizations" ("id", "handle", "name", "jurisdiction", "prices_include_tax") VALUES
           (gen_random_uuid(), 'us', 'US', 'US-CA', NULL), (gen_random_uuid(), 'ca', 'CA', 'CA-ON', NULL),
           (gen_random_uuid(), 'de', 'DE', 'DE', NULL), (gen_random_uuid(), 'nz', 'NZ', 'NZ', NULL),
           (gen_random_uuid(), 'gb', 'GB', 'GB', false), (gen_random_uuid(), 'none', 'None', NULL, NULL)`,
      );
      await oldConnection.dispose();
      await old.close();

      // The upgrade as it was then: every migration up to the backfill (a later one drops the column it filled,
      // once books keeps the tax settings, decision 0028).
      const then = join(work, 'prisma-then');
      await cp(PRISMA, then, { recursive: true });
      for (const migration of await readdir(join(then, 'migrations')))
        if (migration > BACKFILL) await rm(join(then, 'migrations', migration), { recursive: true, force: true });
      const upgraded = await openDatabase({ ...options, prismaDir: then });
      const connection = await upgraded.adapter.connect();
      const { rows } = await connection.queryRaw({
        sql: 'SELECT "handle", "jurisdiction_prices_include_tax" FROM "organizations" ORDER BY "handle"',
        args: [],
        argTypes: [],
      });
      await connection.dispose();
      await upgraded.close();
      expect(upgraded.appliedMigrations).toEqual([BACKFILL]);
      expect(rows).toEqual([
        ['ca', false],
        ['de', true],
        ['gb', true],
        ['none', false],
        ['nz', true],
        ['us', false],
      ]);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
