import { randomUUID } from 'node:crypto';
import { PrivateKey } from '@bsv/sdk';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, onboard, startTestGateway, type Onboarded } from './harness.js';
import { startOrderStack } from './order-harness.js';
import { expectError, SERVICES_DOWN, uniqueName } from './support.js';

let stack: Awaited<ReturnType<typeof startOrderStack>>;
beforeAll(async () => {
  stack = await startOrderStack();
}, 60_000);
afterAll(() => stack?.close());

const PUBLIC_CARD_KEYS = [
  'id',
  'identifier_last4',
  'merchant_handle',
  'reward',
  'rewards_available',
  'stamps',
  'stamps_for_reward',
  'status',
].sort();
const IDENTIFIER = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/;
const coffee = { stamp_rule: 'visit', stamps_for_reward: 2, reward: 'A free coffee' };

const inject = (options: InjectOptions) => stack.gateway.app.inject(options);
const send = (method: 'GET' | 'POST' | 'PUT', url: string, key?: string, payload?: object) =>
  inject({ method, url, ...(key ? { headers: bearer(key) } : {}), ...(payload ? { payload } : {}) });
const putProgram = (org: Onboarded, payload: object = coffee, key = org.key) =>
  send('PUT', `/api/v1/orgs/${org.handle}/loyalty-program`, key, payload);
const issue = (org: Onboarded, key = org.key, holder?: object) =>
  send('POST', '/api/pos/loyalty-cards', key, { org_handle: org.handle, ...(holder ? { holder } : {}) });
const cardAction = (org: Onboarded, id: string, action: 'stamp' | 'redeem' | 'transfer', payload: object, key = org.key) =>
  send('POST', `/api/pos/loyalty-cards/${id}/${action}`, key, { org_handle: org.handle, ...payload });
const address = () => PrivateKey.fromRandom().toAddress('testnet');

/** A shop with a wallet and a program: a free coffee for two visits. */
async function cafe(label: string): Promise<Onboarded> {
  const org = await stack.walletOrg(label);
  expect((await putProgram(org)).statusCode).toBe(200);
  return org;
}

/** Staff create an order (with a loyalty card when given) and a customer pays it by BIP270; answers the order and the txid. */
async function paidOrder(org: Onboarded, loyaltyCardId?: string): Promise<{ order: Record<string, unknown>; txid: string }> {
  const created = await send('POST', '/api/pos/orders', org.key, {
    org_handle: org.handle,
    lines: [{ name: 'Flat white', quantity: 1, unit_price_minor: 450 }],
    ...(loyaltyCardId ? { loyalty_card_id: loyaltyCardId } : {}),
  });
  expect(created.statusCode).toBe(201);
  const order = created.json();
  const request = (await send('GET', `/api/pos/orders/${order.order_number}/payment-request`)).json();
  const tx = await stack.paying(
    request.outputs.map((output: { script: string; amount: number }) => ({ script: output.script, satoshis: output.amount })),
  );
  const ack = await send('POST', new URL(request.paymentUrl).pathname, undefined, {
    transaction: tx.toHex(),
    merchantData: request.merchantData,
  });
  expect(ack.statusCode).toBe(200);
  return { order, txid: tx.id('hex') };
}

describe('the loyalty program', () => {
  it('staff read it, only an admin replaces it; none yet is 404 saying how to make one', async () => {
    const org = await stack.walletOrg('Program Cafe');
    const [staff, admin] = [await addMember(stack.gateway, org, 'staff'), await addMember(stack.gateway, org, 'admin')];
    const none = await send('GET', `/api/v1/orgs/${org.handle}/loyalty-program`, staff.key);
    expectError(none, 404, 'not_found');
    expect(none.json().error.message).toContain(`PUT /api/v1/orgs/${org.handle}/loyalty-program`);
    expectError(await putProgram(org, coffee, staff.key), 403, 'forbidden');
    const saved = await putProgram(org, coffee, admin.key);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({
      stamp_rule: 'visit',
      amount_per_stamp_minor: 0,
      stamps_for_reward: 2,
      reward: 'A free coffee',
      reward_value_minor: 0,
      active: true,
      version: 1,
      updated_at: expect.any(String),
    });
    const again = await putProgram(org, { stamp_rule: 'amount', amount_per_stamp_minor: 500, stamps_for_reward: 10, reward: 'Beans' });
    expect(again.json()).toMatchObject({ stamp_rule: 'amount', amount_per_stamp_minor: 500, version: 2 });
    expect((await send('GET', `/api/v1/orgs/${org.handle}/loyalty-program`, staff.key)).json()).toEqual(again.json());
    const outsider = await onboard(stack.gateway, uniqueName('Outsider'));
    expectError(await send('GET', `/api/v1/orgs/${org.handle}/loyalty-program`, outsider.key), 403, 'forbidden');
    expectError(await send('GET', `/api/v1/orgs/${org.handle}/loyalty-program`), 401, 'unauthenticated');
  });

  it('refuses bad input with 422 naming the field: the gateway the shape, pos the rules; nothing changes', async () => {
    const org = await cafe('Rules Cafe');
    for (const [payload, field] of [
      [{ ...coffee, stamp_rule: 'weekly' }, 'stamp_rule'],
      [{ ...coffee, stamps_for_reward: 0 }, 'stamps_for_reward'],
      [{ ...coffee, stamps_for_reward: 2 ** 40 }, 'stamps_for_reward'],
      [{ ...coffee, stamps_for_reward: '8' }, 'stamps_for_reward'],
      [{ ...coffee, reward: '' }, 'reward'],
      [{ ...coffee, reward: 'A free\u0007 coffee' }, 'reward'],
      [{ ...coffee, amount_per_stamp_minor: 500 }, 'amount_per_stamp_minor'],
      [{ ...coffee, stamp_rule: 'amount' }, 'amount_per_stamp_minor'],
      [{ ...coffee, bonus: true }, 'bonus'],
    ] as const) {
      const response = await putProgram(org, payload);
      expect({ payload, status: response.statusCode, code: response.json().error?.code }).toMatchObject({
        status: 422,
        code: 'validation_failed',
      });
      expect(JSON.stringify(response.json().error)).toContain(field);
    }
    expectError(await putProgram(org, { ...coffee, reward: 'A free\u0000 coffee' }), 422, 'validation_failed');
    expect((await send('GET', `/api/v1/orgs/${org.handle}/loyalty-program`, org.key)).json()).toMatchObject({ version: 1 });
  });
});

describe('loyalty cards at the counter', () => {
  it('staff issue a card with its identifier once; the public reads show its standing and nothing else', async () => {
    const org = await cafe('Blue Bottle');
    const staff = await addMember(stack.gateway, org, 'staff');
    const holder = address();
    const issued = await issue(org, staff.key, { address: holder });
    expect(issued.statusCode).toBe(201);
    const card = issued.json();
    expect(card).toEqual({
      id: expect.any(String),
      merchant_handle: org.handle,
      status: 'active',
      stamps: 0,
      stamps_for_reward: 2,
      rewards_available: 0,
      reward: 'A free coffee',
      identifier_last4: card.identifier.slice(-4),
      rewards_redeemed: 0,
      holder: { address: holder, public_key: null },
      created_at: expect.any(String),
      identifier: expect.stringMatching(IDENTIFIER),
    });
    const byId = await send('GET', `/api/pos/loyalty-cards/${card.id}`);
    expect(byId.statusCode).toBe(200);
    expect(Object.keys(byId.json()).sort()).toEqual(PUBLIC_CARD_KEYS);
    expect(byId.json()).toMatchObject({ id: card.id, stamps: 0, identifier_last4: card.identifier_last4 });
    const typed = card.identifier.replace(/-/g, '').toLowerCase();
    const byIdentifier = await send('GET', `/api/pos/loyalty-cards/lookup/${typed}`);
    expect(byIdentifier.json()).toEqual(byId.json());
    for (const response of [byId, byIdentifier]) {
      for (const secret of [card.identifier, typed, holder, org.orgId, 'holder', 'organization_id'])
        expect(response.body).not.toContain(secret);
    }
    expectError(await send('GET', `/api/pos/loyalty-cards/${randomUUID()}`), 404, 'not_found');
    expectError(await send('GET', '/api/pos/loyalty-cards/not-a-card'), 422, 'validation_failed');
    expectError(await send('GET', '/api/pos/loyalty-cards/lookup/ABCD-EFGH-JKMN-PQRS'), 404, 'not_found');
    expectError(await send('GET', '/api/pos/loyalty-cards/lookup/ABCD'), 422, 'validation_failed');
  });

  it('an order created with the card stamps it when paid, once; the public order never shows the card', async () => {
    const org = await cafe('Stamp Cafe');
    const card = (await issue(org)).json();
    const { order } = await paidOrder(org, card.id);
    const publicOrder = await send('GET', `/api/pos/orders/${order.order_number}`);
    expect(publicOrder.json().status).toBe('paid');
    expect(publicOrder.body).not.toContain(card.id);
    expect(publicOrder.body).not.toContain('loyalty');
    expect((await send('GET', `/api/pos/loyalty-cards/${card.id}`)).json().stamps).toBe(1);
    expectError(await cardAction(org, card.id, 'stamp', { order_number: order.order_number }), 409, 'already_stamped');

    const { order: next } = await paidOrder(org);
    const stamped = await cardAction(org, card.id, 'stamp', { order_number: next.order_number });
    expect(stamped.statusCode).toBe(200);
    expect(stamped.json()).toMatchObject({
      card: { id: card.id, stamps: 2, rewards_available: 1, holder: { address: null, public_key: null } },
      activity: { sequence: 2, kind: 'stamp', stamps: 1, stamps_after: 2, order_number: next.order_number, receipt: { vout: 1 } },
    });
    expect(stamped.json().card.identifier).toBeUndefined();
    expectError(
      await send('POST', '/api/pos/orders', org.key, {
        org_handle: org.handle,
        lines: [{ name: 'Flat white', quantity: 1, unit_price_minor: 450 }],
        loyalty_card_id: 'card-1',
      }),
      422,
      'validation_failed',
    );
  });

  it('redeems with the identifier presented: once for one reward, 404 for another identifier, 409 without the stamps', async () => {
    const org = await cafe('Reward Cafe');
    const [card, other] = [(await issue(org)).json(), (await issue(org)).json()];
    for (let i = 0; i < 2; i++) await paidOrder(org, card.id);
    expectError(await cardAction(org, card.id, 'redeem', { identifier: other.identifier }), 404, 'not_found');
    const redeemed = await cardAction(org, card.id, 'redeem', { identifier: card.identifier });
    expect(redeemed.statusCode).toBe(200);
    expect(redeemed.json()).toMatchObject({
      card: { stamps: 0, rewards_redeemed: 1, rewards_available: 0 },
      activity: { kind: 'redeem', stamps: -2, stamps_after: 0, order_number: null, receipt: null },
    });
    const refused = await cardAction(org, card.id, 'redeem', { identifier: card.identifier });
    expectError(refused, 409, 'not_enough_stamps');
    expect(refused.json().error.details).toEqual({ stamps: 0, stamps_for_reward: 2 });
    expectError(await cardAction(org, card.id, 'redeem', {}), 422, 'validation_failed');
  });

  it('transfers a card to a new holder with a new identifier; the old one stops working', async () => {
    const org = await cafe('Transfer Cafe');
    const card = (await issue(org, org.key, { address: address() })).json();
    const key = PrivateKey.fromRandom();
    const moved = await cardAction(org, card.id, 'transfer', { to: { public_key: key.toPublicKey().toString() } });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({
      id: card.id,
      identifier: expect.stringMatching(IDENTIFIER),
      holder: { address: key.toAddress('testnet'), public_key: key.toPublicKey().toString() },
    });
    expect(moved.json().identifier).not.toBe(card.identifier);
    expectError(await send('GET', `/api/pos/loyalty-cards/lookup/${card.identifier}`), 404, 'not_found');
    expect((await send('GET', `/api/pos/loyalty-cards/lookup/${moved.json().identifier}`)).json().id).toBe(card.id);
    const bad = await cardAction(org, card.id, 'transfer', { to: { address: 'not an address' } });
    expectError(bad, 422, 'validation_failed');
    expect(bad.json().error.details.field).toBe('to.address');
    expectError(await cardAction(org, card.id, 'transfer', { to: {} }), 422, 'validation_failed');
  });

  it("keeps every organisation to its own cards and roles: another shop's staff get 404, strangers 403", async () => {
    const org = await cafe('Own Cafe');
    const card = (await issue(org)).json();
    const other = await cafe('Other Cafe');
    const { order } = await paidOrder(other);
    expectError(await cardAction(other, card.id, 'stamp', { order_number: order.order_number }), 404, 'not_found');
    expectError(await cardAction(other, card.id, 'redeem', { identifier: card.identifier }), 404, 'not_found');
    expectError(await cardAction(other, card.id, 'transfer', {}), 404, 'not_found');
    expectError(await cardAction(org, card.id, 'stamp', { order_number: order.order_number }), 404, 'not_found');
    expectError(await cardAction(org, card.id, 'redeem', { identifier: card.identifier }, other.key), 403, 'forbidden');
    expectError(await issue(org, other.key), 403, 'forbidden');
    expectError(await send('POST', '/api/pos/loyalty-cards', undefined, { org_handle: org.handle }), 401, 'unauthenticated');
    expectError(await issue(await stack.walletOrg('No Program Cafe')), 409, 'failed_precondition');
    for (const holder of [{ address: 'not an address' }, { public_key: '02zz' }, { user_id: randomUUID() }]) {
      expectError(await issue(org, org.key, holder), 422, 'validation_failed');
    }
  });
});

describe("a customer's own cards", () => {
  it('a customer joins a shop without a role there, once, and lists their cards with identifier and ledger; the user id is never answered', async () => {
    const org = await cafe('Wallet Cafe');
    const customer = await onboard(stack.gateway, uniqueName('Sam'));
    const join = (payload: object) => send('POST', '/api/v1/loyalty-cards', customer.key, { org_handle: org.handle, ...payload });
    const joined = await join({});
    expect(joined.statusCode).toBe(201);
    const card = joined.json();
    expect(card).toMatchObject({ merchant_handle: org.handle, stamps: 0, identifier: expect.stringMatching(IDENTIFIER), activities: [] });
    const again = await join({});
    expectError(again, 409, 'already_exists');
    expect(again.json().error.details).toMatchObject({ card_id: card.id, field: 'org_handle' });
    const bad = await send('POST', '/api/v1/loyalty-cards', (await onboard(stack.gateway, uniqueName('Alex'))).key, {
      org_handle: org.handle,
      address: 'not an address',
    });
    // An address needs proof of its key (decision 0024, test/card-binding.test.ts).
    expectError(bad, 422, 'validation_failed');
    expect(bad.json().error.details.field).toBe('proof');
    expectError(await send('POST', '/api/v1/loyalty-cards', customer.key, { org_handle: 'no-such-shop-4f1a' }), 404, 'not_found');
    expectError(await send('POST', '/api/v1/loyalty-cards', undefined, { org_handle: org.handle }), 401, 'unauthenticated');

    const { order, txid } = await paidOrder(org, card.id);
    const wallet = await send('GET', '/api/v1/wallet/loyalty-cards', customer.key);
    expect(wallet.statusCode).toBe(200);
    expect(wallet.json()).toEqual({
      data: [
        expect.objectContaining({
          id: card.id,
          identifier: card.identifier,
          stamps: 1,
          activities: [expect.objectContaining({ kind: 'stamp', order_number: order.order_number, receipt: { txid, vout: 1 } })],
        }),
      ],
      next_cursor: null,
    });
    for (const response of [joined, wallet]) expect(response.body).not.toContain(customer.userId);
    // Another user's wallet does not have it, nor does the shop's owner.
    expect((await send('GET', '/api/v1/wallet/loyalty-cards', org.key)).json()).toEqual({ data: [], next_cursor: null });
    expectError(await send('GET', '/api/v1/wallet/loyalty-cards'), 401, 'unauthenticated');
  });
});

describe('on-chain stamps', () => {
  it('anyone verifies a stamp from the txid that paid its order', async () => {
    const org = await cafe('Chain Cafe');
    const card = (await issue(org)).json();
    const { order, txid } = await paidOrder(org, card.id);
    const unmined = await send('GET', `/api/pos/loyalty-stamps/${txid}`);
    expect(unmined.statusCode).toBe(200);
    expect(unmined.json()).toMatchObject({ card_id: card.id, order_number: order.order_number, verified: false });
    await stack.mine();
    const verified = await send('GET', `/api/pos/loyalty-stamps/${txid}`);
    expect(verified.json()).toEqual({
      card_id: card.id,
      merchant_handle: org.handle,
      order_number: order.order_number,
      stamp: expect.objectContaining({ kind: 'stamp', stamps: 1, receipt: { txid, vout: 1 } }),
      verified: true,
      receipt_merchant: order.receipt_merchant,
      receipt_reference: order.order_number,
      block_height: expect.any(Number),
      problem: null,
    });
    expectError(await send('GET', `/api/pos/loyalty-stamps/${'ab'.repeat(32)}`), 404, 'not_found');
    expectError(await send('GET', '/api/pos/loyalty-stamps/abc'), 422, 'validation_failed');
  });

  it('limits each public card route per client address', async () => {
    const limited = await startTestGateway({ ...SERVICES_DOWN, POS_GRPC_URL: stack.posUrl, CTK_CARD_LOOKUP_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const org = await cafe('Busy Cafe');
      const card = (await issue(org)).json();
      const read = (url: string, remoteAddress: string) => limited.app.inject({ method: 'GET', url, remoteAddress });
      for (let i = 0; i < 3; i++) expect((await read(`/api/pos/loyalty-cards/${card.id}`, '203.0.113.7')).statusCode).toBe(200);
      expectError(await read(`/api/pos/loyalty-cards/${card.id}`, '203.0.113.7'), 429, 'rate_limited');
      expect((await read(`/api/pos/loyalty-cards/${card.id}`, '203.0.113.8')).statusCode).toBe(200);
      for (let i = 0; i < 3; i++) await read(`/api/pos/loyalty-cards/lookup/ABCD-EFGH-JKMN-PQRS`, '203.0.113.9');
      expectError(await read(`/api/pos/loyalty-cards/lookup/${card.identifier}`, '203.0.113.9'), 429, 'rate_limited');
    } finally {
      await limited.close();
    }
  });
});
