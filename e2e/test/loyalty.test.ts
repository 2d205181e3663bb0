import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HD, PrivateKey, Utils } from '@bsv/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, freePort, startInstance, stopInstance, wallet, type Instance } from './instance.js';
import { proveWalletKey } from './key-proof.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const IDENTIFIER = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/;
const REWARD = 'A free flat white';
const STAMPS_FOR_REWARD = 3;

/** A customer signs in with a key of their own (a did:key): an API key, and a role in no organisation. */
async function signIn(base: string): Promise<string> {
  const key = PrivateKey.fromRandom();
  const did = `did:key:z${Utils.toBase58([0xe7, 0x01, ...(key.toPublicKey().toDER() as number[])])}`;
  const challenge = await api(base, 'POST', '/api/auth/challenge', undefined, { did });
  expect(challenge.status).toBe(201);
  const signature = key.sign(challenge.body.message, 'utf8').toDER('hex') as string;
  const verified = await api(base, 'POST', '/api/auth/verify', undefined, { nonce: challenge.body.nonce, signature });
  expect(verified.status).toBe(201);
  return verified.body.api_key.key;
}

/**
 * The loyalty half of the customer-cards acceptance (decision 0017, "Loyalty" and "On-chain stamps"), as a
 * user observes it on one instance of the embedded default and its local chain (which mines only when asked,
 * so that a stamp can be read before its payment is mined).
 */
describe('a loyalty card end to end: stamped by paid orders to its reward, redeemed exactly once, each stamp verified on the chain', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-loyalty-'));
  let chainPort = 0;
  let cafe: Instance;
  const handle = 'blue-bottle-cafe';
  const keys = { admin: '', staff: '', customer: '', otherStaff: '' };
  let otherHandle = '';
  const customerWallet = join(dir, 'customer.json');
  let customerAddress = '';
  /** The customer's card as created: its id and identifier. */
  let card: Json = {};
  /** Each stamped order's number and the txid that paid it, in order. */
  const stamped: { orderNumber: string; txid: string; receiptMerchant: string }[] = [];
  /** A paid order of the cafe that stamped no card. */
  const plain = { orderNumber: '', txid: '', receiptMerchant: '' };

  beforeAll(async () => {
    chainPort = await freePort();
    cafe = await startInstance({
      port: await freePort(),
      dataDir: join(dir, 'cafe'),
      chainPort,
      env: { CHAIN_MINE_INTERVAL_MS: '0' },
    });

    const cafeShop = await shop('Blue Bottle Cafe', ['admin', 'staff']);
    expect(cafeShop.handle).toBe(handle);
    Object.assign(keys, { admin: cafeShop.admin, staff: cafeShop.staff });
    const harbour = await shop('Harbour Coffee', ['staff']);
    otherHandle = harbour.handle;
    keys.otherStaff = harbour.staff;

    keys.customer = await signIn(cafe.base);
    customerAddress = (await wallet(chainPort, customerWallet, 'create')).address as string;
    // An order of $4.50 and its tax is about 0.1 BSV at the embedded default's demo rate; five are paid.
    for (let coin = 0; coin < 3; coin++) await wallet(chainPort, customerWallet, 'faucet', '50000000');
  }, 180_000);

  /** An organisation onboarded as a newcomer does, with a wallet's xpub to take payments and members with their own keys. */
  async function shop(name: string, roles: ('admin' | 'staff')[]): Promise<{ handle: string; admin: string; staff: string }> {
    const onboarded = await api(cafe.base, 'POST', '/api/v1/onboard', undefined, { name, jurisdiction: 'US-CA' });
    expect(onboarded.status).toBe(201);
    const { handle } = onboarded.body.organization;
    const owner = onboarded.body.api_key.key;
    const xpub = HD.fromRandom().derive("m/44'/236'/0'").toPublic().toString();
    expect((await api(cafe.base, 'PATCH', `/api/v1/organizations/${handle}`, owner, { wallet_xpub: xpub })).status).toBe(200);
    const members = { admin: '', staff: '' };
    for (const role of roles) {
      const member = await api(cafe.base, 'POST', `/api/v1/orgs/${handle}/members`, owner, { name: `The ${role}`, role });
      expect(member.status).toBe(201);
      members[role] = member.body.api_key.key;
    }
    return { handle, ...members };
  }

  afterAll(async () => {
    if (cafe) await stopInstance(cafe);
    rmSync(dir, { recursive: true, force: true });
  });

  const staffSays = (key: string, action: 'stamp' | 'redeem', body: Json, cardId = card.id as string, org = handle) =>
    api(cafe.base, 'POST', `/api/pos/loyalty-cards/${cardId}/${action}`, key, { org_handle: org, ...body });
  const byId = async () => (await api(cafe.base, 'GET', `/api/pos/loyalty-cards/${card.id}`)).body;
  const byIdentifier = async () => (await api(cafe.base, 'GET', `/api/pos/loyalty-cards/lookup/${card.identifier}`)).body;
  const heldCards = async () => {
    const held = await api(cafe.base, 'GET', '/api/v1/wallet/loyalty-cards', keys.customer);
    expect(held.status).toBe(200);
    return held.body;
  };

  /** Staff ring up a flat white (on the card when given); the customer pays its `pay:` URI with the wallet (BIP270). */
  async function paidOrder(
    loyaltyCardId?: string,
    staff = { key: keys.staff, org: handle },
  ): Promise<{ orderNumber: string; txid: string; receiptMerchant: string }> {
    const created = await api(cafe.base, 'POST', '/api/pos/orders', staff.key, {
      org_handle: staff.org,
      lines: [{ name: 'Flat white', quantity: 1, unit_price_minor: 450 }],
      ...(loyaltyCardId ? { loyalty_card_id: loyaltyCardId } : {}),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.pay_uri).toMatch(/^pay:\?r=/);
    const paid = await wallet(chainPort, customerWallet, 'pay', created.body.pay_uri);
    expect(paid.txid).toMatch(/^[0-9a-f]{64}$/);
    const order = await api(cafe.base, 'GET', `/api/pos/orders/${created.body.order_number}`);
    expect(order.body.status).toBe('paid');
    expect(order.body.payments).toEqual([expect.objectContaining({ txid: paid.txid, via: 'payment_request' })]);
    return { orderNumber: created.body.order_number, txid: paid.txid as string, receiptMerchant: created.body.receipt_merchant };
  }

  it('an admin sets the program (a stamp a visit, a reward after three); staff read it but may not replace it', async () => {
    const program = { stamp_rule: 'visit', stamps_for_reward: STAMPS_FOR_REWARD, reward: REWARD };
    const refused = await api(cafe.base, 'PUT', `/api/v1/orgs/${handle}/loyalty-program`, keys.staff, program);
    expect(refused.status).toBe(403);
    const saved = await api(cafe.base, 'PUT', `/api/v1/orgs/${handle}/loyalty-program`, keys.admin, program);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ ...program, amount_per_stamp_minor: 0, active: true, version: 1 });
    const read = await api(cafe.base, 'GET', `/api/v1/orgs/${handle}/loyalty-program`, keys.staff);
    expect(read.body).toEqual(saved.body);
  });

  it('a customer creates their own card with their API key and their wallet address, and gets its identifier', async () => {
    const created = await api(cafe.base, 'POST', '/api/v1/loyalty-cards', keys.customer, {
      org_handle: handle,
      address: customerAddress,
      proof: await proveWalletKey(cafe.base, customerWallet),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    card = created.body;
    expect(card).toMatchObject({
      merchant_handle: handle,
      status: 'active',
      stamps: 0,
      stamps_for_reward: STAMPS_FOR_REWARD,
      rewards_available: 0,
      rewards_redeemed: 0,
      reward: REWARD,
      holder: { address: customerAddress },
      identifier: expect.stringMatching(IDENTIFIER),
      activities: [],
    });
    expect(card.identifier_last4).toBe(card.identifier.slice(-4));
    const again = await api(cafe.base, 'POST', '/api/v1/loyalty-cards', keys.customer, { org_handle: handle });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'already_exists', details: { card_id: card.id } });

    const publicView = await byId();
    expect(publicView).toEqual({
      id: card.id,
      merchant_handle: handle,
      status: 'active',
      stamps: 0,
      stamps_for_reward: STAMPS_FOR_REWARD,
      rewards_available: 0,
      reward: REWARD,
      identifier_last4: card.identifier_last4,
    });
    // Typing is forgiving: dashes and case do not matter.
    const typed = await api(cafe.base, 'GET', `/api/pos/loyalty-cards/lookup/${card.identifier.replace(/-/g, '').toLowerCase()}`);
    expect(typed.body).toEqual(publicView);
    expect((await heldCards()).data).toEqual([expect.objectContaining({ id: card.id, identifier: card.identifier, stamps: 0 })]);
  });

  it('each order paid over BIP270 stamps the card once, bound to its receipt; unmined, the stamp is not yet verified', async () => {
    for (let visit = 1; visit <= STAMPS_FOR_REWARD; visit++) {
      const paid = await paidOrder(card.id);
      stamped.push(paid);
      const standing = { stamps: visit, rewards_available: visit >= STAMPS_FOR_REWARD ? 1 : 0 };
      expect(await byId()).toMatchObject({ id: card.id, ...standing });
      expect(await byIdentifier()).toMatchObject({ id: card.id, ...standing });

      const held = await heldCards();
      expect(held.data).toHaveLength(1);
      expect(held.data[0]).toMatchObject({ id: card.id, identifier: card.identifier, rewards_redeemed: 0, ...standing });
      expect(held.data[0].activities).toEqual(
        stamped.map((order, index) => ({
          sequence: index + 1,
          kind: 'stamp',
          stamps: 1,
          stamps_after: index + 1,
          order_number: order.orderNumber,
          receipt: { txid: order.txid, vout: expect.any(Number) },
          occurred_at: expect.any(String),
        })),
      );

      // A second stamp of the same order, by hand, is refused, and the card does not move.
      const twice = await staffSays(keys.staff, 'stamp', { order_number: paid.orderNumber });
      expect(twice.status).toBe(409);
      expect(twice.body.error.code).toBe('already_stamped');
      expect((await byId()).stamps).toBe(visit);

      // In the mempool, not yet mined: the stamp is found but not verified, and it says why.
      const unmined = await api(cafe.base, 'GET', `/api/pos/loyalty-stamps/${paid.txid}`);
      expect(unmined.status).toBe(200);
      expect(unmined.body).toMatchObject({
        card_id: card.id,
        merchant_handle: handle,
        order_number: paid.orderNumber,
        verified: false,
        block_height: null,
        problem: expect.stringMatching(/not yet mined/),
      });
    }
    expect(await byId()).toMatchObject({ stamps: STAMPS_FOR_REWARD, rewards_available: 1 });

    // A paid order without the card stamps nothing.
    Object.assign(plain, await paidOrder());
    expect((await byId()).stamps).toBe(STAMPS_FOR_REWARD);
  });

  it('a redeem with another identifier is 404; another organisation’s staff can neither stamp nor redeem the card (404)', async () => {
    const otherCard = await api(cafe.base, 'POST', '/api/pos/loyalty-cards', keys.staff, { org_handle: handle });
    expect(otherCard.status).toBe(201);
    for (const identifier of [otherCard.body.identifier, 'ABCD-EFGH-JKMN-PQRS']) {
      const wrong = await staffSays(keys.staff, 'redeem', { identifier });
      expect(wrong.status).toBe(404);
      expect(wrong.body.error.code).toBe('not_found');
    }

    // Their staff, in their own shop's name: the card's true identifier, a paid order of their own that stamped nothing.
    const theirs = await paidOrder(undefined, { key: keys.otherStaff, org: otherHandle });
    const redeem = await staffSays(keys.otherStaff, 'redeem', { identifier: card.identifier }, card.id, otherHandle);
    expect(redeem.status).toBe(404);
    expect(redeem.body.error.code).toBe('not_found');
    for (const order of [theirs, plain]) {
      const stamp = await staffSays(keys.otherStaff, 'stamp', { order_number: order.orderNumber }, card.id, otherHandle);
      expect(stamp.status).toBe(404);
      expect(stamp.body.error.code).toBe('not_found');
    }
    // Nor in the cafe's name: they have no role there.
    for (const [action, body] of [
      ['redeem', { identifier: card.identifier }],
      ['stamp', { order_number: plain.orderNumber }],
    ] as const) {
      const answer = await staffSays(keys.otherStaff, action, body);
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('forbidden');
    }

    const held = (await heldCards()).data[0];
    expect(held).toMatchObject({ stamps: STAMPS_FOR_REWARD, rewards_available: 1, rewards_redeemed: 0 });
    expect(held.activities).toHaveLength(STAMPS_FOR_REWARD);
  });

  it('the card at its reward is redeemed exactly once under 50 concurrent redeems: one 200, 49 are 409 not_enough_stamps', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => staffSays(keys.staff, 'redeem', { identifier: card.identifier.toLowerCase() })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(49);
    for (const answer of refused) {
      expect(answer.status).toBe(409);
      expect(answer.body.error.code).toBe('not_enough_stamps');
      expect(answer.body.error.details).toEqual({ stamps: 0, stamps_for_reward: STAMPS_FOR_REWARD });
    }
    const redeemed = answers.find((answer) => answer.status === 200)!.body;
    expect(redeemed).toMatchObject({
      card: { id: card.id, stamps: 0, rewards_available: 0, rewards_redeemed: 1 },
      activity: { kind: 'redeem', stamps: -STAMPS_FOR_REWARD, stamps_after: 0, order_number: null, receipt: null },
    });

    expect(await byId()).toMatchObject({ stamps: 0, rewards_available: 0 });
    expect(await byIdentifier()).toMatchObject({ stamps: 0, rewards_available: 0 });
    const held = (await heldCards()).data[0];
    expect(held).toMatchObject({ stamps: 0, rewards_available: 0, rewards_redeemed: 1 });
    expect(held.activities.map((activity: Json) => [activity.kind, activity.stamps, activity.stamps_after])).toEqual([
      ['stamp', 1, 1],
      ['stamp', 1, 2],
      ['stamp', 1, 3],
      ['redeem', -STAMPS_FOR_REWARD, 0],
    ]);
  });

  it('once mined, each stamp is verified from the txid that paid its order; an unknown txid or an unstamped payment is 404', async () => {
    expect((await fetch(`http://127.0.0.1:${chainPort}/mine`, { method: 'POST' })).ok).toBe(true);
    const ledger = (await heldCards()).data[0].activities as Json[];
    for (const [index, order] of stamped.entries()) {
      const verification = await api(cafe.base, 'GET', `/api/pos/loyalty-stamps/${order.txid}`);
      expect(verification.status).toBe(200);
      expect(verification.body).toEqual({
        card_id: card.id,
        merchant_handle: handle,
        order_number: order.orderNumber,
        stamp: ledger[index],
        verified: true,
        receipt_merchant: order.receiptMerchant,
        receipt_reference: order.orderNumber,
        block_height: expect.any(Number),
        problem: null,
      });
      expect(verification.body.stamp.receipt).toEqual({ txid: order.txid, vout: expect.any(Number) });
    }

    const unknown = await api(cafe.base, 'GET', `/api/pos/loyalty-stamps/${'ab'.repeat(32)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    const unstamped = await api(cafe.base, 'GET', `/api/pos/loyalty-stamps/${plain.txid}`);
    expect(unstamped.status).toBe(404);
    expect(unstamped.body.error.code).toBe('not_found');
  });
});
