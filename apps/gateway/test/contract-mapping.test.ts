import { describe, expect, it } from 'vitest';
import { exampleOf, messageDesc } from '../src/contract/contract-registry.js';
import { fromJson, toJson } from '../src/contract/json-mapping.js';
import { messageSchema } from '../src/contract/message-schema.js';

// The one rule between the public JSON and the contracts' messages (decision 0026), on pos's Item.
const item = messageDesc('ctk.pos.v1.Item');
const createItem = messageDesc('ctk.pos.v1.CreateItemRequest');

const message = {
  id: '1b7e3c9a-5d2f-4a8e-9c6b-0e4a2f8d6c31',
  name: 'Latte',
  description: '',
  priceCents: 575n,
  currency: 'USD',
  category: undefined,
  available: true,
  sku: 'LAT-12',
  createdAt: '2026-03-02T09:30:00.000Z',
  taxTreatment: 'standard',
  taxRate: undefined,
  priceType: 'fixed',
  inventory: 0n,
  modifiers: [{ id: '8d3f6a1c-2e4b-4f7a-9c5d-1b0e7a3c6f92', name: 'Large', priceCents: 75n, group: undefined }],
};

describe('the JSON of a contract message', () => {
  it('keys by proto field name, answers int64 as integers, an unset optional as null and a 0 as 0', () => {
    expect(toJson(item, message)).toEqual({
      id: '1b7e3c9a-5d2f-4a8e-9c6b-0e4a2f8d6c31',
      name: 'Latte',
      description: '',
      price_cents: 575,
      currency: 'USD',
      category: null,
      available: true,
      sku: 'LAT-12',
      created_at: '2026-03-02T09:30:00.000Z',
      tax_treatment: 'standard',
      tax_rate: null,
      price_type: 'fixed',
      inventory: 0,
      modifiers: [{ id: '8d3f6a1c-2e4b-4f7a-9c5d-1b0e7a3c6f92', name: 'Large', price_cents: 75, group: null }],
    });
  });

  it('refuses to answer an int64 beyond a JSON integer as a number that is not the one the service meant', () => {
    expect(() => toJson(item, { ...message, priceCents: 2n ** 60n })).toThrow(/beyond a JSON integer/);
  });

  it('answers an unbounded int64 (a sum) as a JSON integer while exact, and as its digits past 2^53', () => {
    const line = messageDesc('ctk.books.v1.JournalLine');
    const sum = { accountCode: '4000', accountName: 'Revenue', accountType: 'income', debitMinor: 0n, creditMinor: 2n ** 60n };
    expect(toJson(line, sum)).toEqual({
      account_code: '4000',
      account_name: 'Revenue',
      account_type: 'income',
      debit_minor: 0,
      credit_minor: '1152921504606846976',
      memo: null,
    });
    expect(messageSchema(line, 'answer').safeParse(toJson(line, sum)).success).toBe(true);
  });

  it('takes an unbounded int64 in a request (a token supply) as a JSON integer while exact, or its digits up to 2^63 - 1', () => {
    const mint = messageDesc('ctk.contracts.v1.DraftTokenMintRequest');
    const body = { symbol: 'BREW', name: 'Brew Club', kind: 'membership' };
    const schema = messageSchema(mint, 'request');
    const read = (supply: unknown) => fromJson(mint, schema.parse({ ...body, supply }) as Record<string, unknown>);
    expect(read(500)).toMatchObject({ supply: 500n });
    expect(read('9223372036854775807')).toMatchObject({ supply: 2n ** 63n - 1n });
    for (const supply of ['9223372036854775808', 2 ** 60, '12.5', ' 12', '', 1.5])
      expect(schema.safeParse({ ...body, supply }).success, String(supply)).toBe(false);
  });

  it('reads a row by field name, a Date as ISO 8601, and leaves out an unset field marked omit_unset rather than null', () => {
    const added = messageDesc('ctk.gateway.v1.AddedMember');
    const row = { userId: '5e9d1c7b-2a4f-4c8e-b6d3-0f8a2e5c7b91', name: 'Ben', email: null, did: null, role: 'staff', hash: 'secret' };
    const json = toJson(added, { member: { ...row, createdAt: new Date('2026-03-02T09:00:12.000Z') } });
    expect(json).toEqual({
      member: { user_id: row.userId, name: 'Ben', email: null, did: null, role: 'staff', created_at: '2026-03-02T09:00:12.000Z' },
    });
    expect(messageSchema(added, 'answer').parse(json)).toEqual(json);
  });

  it('answers a bool of one value (values: "true") as that value only', () => {
    const revoked = messageSchema(messageDesc('ctk.gateway.v1.Revoked'), 'answer');
    const id = 'c4a8e2f6-1b3d-4e5a-8f7c-9d0b2a6e4c13';
    expect(revoked.safeParse({ id, revoked: true }).success).toBe(true);
    expect(revoked.safeParse({ id, revoked: false }).success).toBe(false);
  });

  it("shows a view's field marked view_of from the answer's field of that name", () => {
    const account = { code: '1010', name: 'BSV wallet', type: 'asset', normalBalance: 'debit', debitsMinor: 900n, creditsMinor: 250n };
    const balances = { ...account, debitBalanceMinor: 650n, creditBalanceMinor: 0n, balanceMinor: 650n };
    expect(toJson(messageDesc('ctk.books.v1.TrialBalanceAccount'), balances)).toEqual({
      code: '1010',
      name: 'BSV wallet',
      type: 'asset',
      normal_balance: 'debit',
      debit_minor: 650,
      credit_minor: 0,
      balance_minor: 650,
    });
  });

  it('reads messages side by side as a spread of them would: a key of the one on top, even unset, over those under it', () => {
    const top = { name: 'Flat white', category: undefined };
    const under = [{ ...message, sku: 'FW-1', category: 'coffee' }, message];
    expect(toJson(item, top, ...under)).toEqual(toJson(item, { ...message, ...under[0], ...top }));
    expect(toJson(item, top, ...under)).toMatchObject({ name: 'Flat white', sku: 'FW-1', category: null, price_cents: 575 });
  });

  it('maps a request body back to the message, int64 as bigint, leaving out what was not sent or sent as null', () => {
    expect(
      fromJson(createItem, { name: 'Latte', price_cents: 575, inventory: null, modifiers: [{ name: 'Large', price_cents: 75 }] }),
    ).toEqual({
      name: 'Latte',
      priceCents: 575n,
      modifiers: [{ name: 'Large', priceCents: 75n }],
    });
  });
});

describe('the schemas derived from a contract message', () => {
  const body = messageSchema(createItem, 'request', ['org']);

  it('takes the documented example, and refuses an unknown key, a missing required field and a wrong type', () => {
    expect(body.safeParse(exampleOf(createItem)).success).toBe(true);
    const issues = (value: unknown) => body.safeParse(value).error?.issues.map((i) => [i.path.join('.'), i.code]);
    expect(issues({ name: 'Latte', price_cents: 575, colour: 'red' })).toEqual([['', 'unrecognized_keys']]);
    expect(issues({ price_cents: 575 })).toEqual([['name', 'invalid_type']]);
    expect(issues({ name: 'Latte', price_cents: '575' })).toEqual([['price_cents', 'invalid_type']]);
    expect(issues({ name: 'Latte', price_cents: 5.5 })).toEqual([['price_cents', 'invalid_type']]);
  });

  it('refuses an id the service gives (output_only) in a request, and the org the gateway fills', () => {
    const withId = { name: 'Latte', price_cents: 575, modifiers: [{ id: 'x', name: 'Large', price_cents: 75 }] };
    expect(body.safeParse(withId).error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['id'] });
    expect(body.safeParse({ name: 'Latte', price_cents: 575, org: { id: 'x' } }).error?.issues[0]).toMatchObject({ keys: ['org'] });
  });

  it("answers with the contract's values and formats, and its example validates", () => {
    const answer = messageSchema(item, 'answer');
    expect(answer.safeParse(exampleOf(item)).success).toBe(true);
    expect(answer.safeParse({ ...(exampleOf(item) as object), tax_treatment: 'zero' }).success).toBe(false);
    expect(answer.safeParse({ ...(exampleOf(item) as object), id: 'not-a-uuid' }).success).toBe(false);
  });
});

describe('a oneof of messages and a map, on the payment gate', () => {
  const grant = messageDesc('ctk.p2p.v1.GateGrant');
  const check = messageDesc('ctk.p2p.v1.CheckGateRequestRequest');

  it('answers the chosen member by name beside its fields, and maps it back', () => {
    const window = { kind: { $case: 'window', value: { seconds: 3600 } } };
    expect(toJson(grant, window)).toEqual({ kind: 'window', seconds: 3600 });
    expect(fromJson(grant, { kind: 'window', seconds: 3600 })).toEqual(window);
    expect(toJson(grant, { kind: { $case: 'calls', value: { calls: 10 } } })).toEqual({ kind: 'calls', calls: 10 });
    expect(() => toJson(grant, {})).toThrow(/GateGrant.kind/);
  });

  it("refuses another kind, the other kind's field and a kind without its field, naming them", () => {
    const schema = messageSchema(grant, 'request');
    expect(schema.safeParse({ kind: 'calls', calls: 10 }).success).toBe(true);
    const paths = (value: unknown) => schema.safeParse(value).error?.issues.map((issue) => [issue.code, issue.path.join('.')]);
    expect(paths({ kind: 'forever' })).toEqual([['invalid_union', 'kind']]);
    expect(paths({ kind: 'window', seconds: 60, calls: 3 })).toEqual([['unrecognized_keys', '']]);
    expect(paths({ kind: 'calls' })).toEqual([['invalid_type', 'calls']]);
    expect(messageSchema(grant, 'answer').safeParse(exampleOf(grant)).success).toBe(true);
  });

  it('takes a map of strings as an object, and refuses a value that is not a string', () => {
    const schema = messageSchema(check, 'request', ['account']);
    const body = { method: 'GET', url: '/weather', headers: { 'x-bsv-vout': '0' } };
    expect(schema.safeParse(body).success).toBe(true);
    expect(fromJson(check, body)).toEqual({ method: 'GET', url: '/weather', headers: { 'x-bsv-vout': '0' } });
    expect(schema.safeParse({ ...body, headers: { 'x-bsv-vout': 0 } }).error?.issues[0]?.path).toEqual(['headers', 'x-bsv-vout']);
    expect(toJson(messageDesc('ctk.p2p.v1.CheckGateRequestResponse'), { outcome: 'free', status: 200 }).headers).toEqual({});
  });
});
