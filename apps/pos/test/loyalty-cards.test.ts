import { randomUUID } from 'node:crypto';
import { PrivateKey } from '@bsv/sdk';
import { mineBlocks } from '@ctk/chain/local';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import type { LoyaltyCard, LoyaltyProgram } from '@ctk/proto/ctk/pos/v1/cards';
import type { Order } from '@ctk/proto/ctk/pos/v1/pos';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, fundedCustomer, orderRequest, paying, PUBLIC_URL, startOrderStack, type OrderStack } from './order-stack.js';

let stack: OrderStack;
beforeAll(async () => {
  stack = await startOrderStack();
}, 60_000);
afterAll(() => stack?.close());

const IDENTIFIER = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/;
const coffee: Partial<LoyaltyProgram> = { stampRule: 'visit', stampsForReward: 3, reward: 'A free coffee', active: true };

const saveProgram = async (org: OrgRef, program: Partial<LoyaltyProgram> = coffee) =>
  (await stack.client.replaceLoyaltyProgram({ org, program: { ...coffee, amountPerStampMinor: 0n, ...program } as LoyaltyProgram }))
    .program!;
/** An organisation with a wallet and a program (a free coffee for 3 visits unless told). */
async function shop(program: Partial<LoyaltyProgram> = coffee): Promise<OrgRef> {
  const org = await stack.walletOrg();
  await saveProgram(org, program);
  return org;
}
const issue = async (org: OrgRef, holder: { address?: string; publicKey?: string; userId?: string } = {}) =>
  (await stack.client.createLoyaltyCard({ org, holder: { address: '', publicKey: '', userId: '', ...holder } })).card!;
const read = async (card: LoyaltyCard) => (await stack.client.getLoyaltyCard({ id: card.id, identifier: '' })).card!;
const create = async (org: OrgRef, fields: Parameters<typeof orderRequest>[1] = {}) =>
  (await stack.client.createOrder(orderRequest(org, fields))).order!;
const address = () => PrivateKey.fromRandom().toAddress('testnet');

/** Pays the order in full by BIP270 (its output, then the receipt output); answers the transaction's id. */
async function payInFull(order: Order): Promise<string> {
  const { outputs } = await stack.client.getPaymentRequest({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL });
  const tx = await paying(await fundedCustomer(stack.chain), [
    { script: outputs[0]!.script, satoshis: order.dueSatoshis },
    { script: outputs[1]!.script, satoshis: 0 },
  ]);
  expect((await stack.client.payOrder({ orderNumber: order.orderNumber, transaction: tx.toHex() })).error).toBe(0);
  return tx.id('hex');
}
async function paidOrder(org: OrgRef, fields: Parameters<typeof orderRequest>[1] = {}): Promise<Order> {
  const order = await create(org, fields);
  await payInFull(order);
  return order;
}
const stamp = (org: OrgRef, card: LoyaltyCard, order: Order) =>
  stack.client.stampLoyaltyCard({ org, id: card.id, orderNumber: order.orderNumber });
const redeem = (org: OrgRef, card: LoyaltyCard, identifier: string) => stack.client.redeemLoyaltyCard({ org, id: card.id, identifier });

describe('the loyalty program', () => {
  it('is not found before the first save; each replacement is whole and counts in the version', async () => {
    const org = await stack.walletOrg();
    expect(await failure(stack.client.getLoyaltyProgram({ org }))).toMatchObject({ code: 'not_found' });
    const first = await saveProgram(org);
    expect(first).toMatchObject({ stampRule: 'visit', amountPerStampMinor: 0n, stampsForReward: 3, reward: 'A free coffee', active: true });
    expect(first.version).toBe(1n);
    const second = await saveProgram(org, {
      stampRule: 'amount',
      amountPerStampMinor: 500n,
      stampsForReward: 10,
      reward: 'A bag of beans',
    });
    expect(second).toMatchObject({ stampRule: 'amount', amountPerStampMinor: 500n, version: 2n });
    expect((await stack.client.getLoyaltyProgram({ org })).program).toEqual(second);
    // Another organisation has none.
    expect(await failure(stack.client.getLoyaltyProgram({ org: await stack.walletOrg() }))).toMatchObject({ code: 'not_found' });
  });

  it('counts every one of 10 concurrent saves', { tags: ['concurrency'] }, async () => {
    const org = await stack.walletOrg();
    await Promise.all(Array.from({ length: 10 }, (_, i) => saveProgram(org, { reward: `Reward ${i}` })));
    expect((await stack.client.getLoyaltyProgram({ org })).program!.version).toBe(10n);
  });

  it.each([
    ['an unknown rule', { stampRule: 'weekly' }, 'stamp_rule'],
    ['no stamps for a reward', { stampsForReward: 0 }, 'stamps_for_reward'],
    ['101 stamps for a reward', { stampsForReward: 101 }, 'stamps_for_reward'],
    ['an empty reward', { reward: '   ' }, 'reward'],
    ['a reward of 121 characters', { reward: 'x'.repeat(121) }, 'reward'],
    ['a NUL in the reward', { reward: 'A free\u0000 coffee' }, 'reward'],
    ['a bidirectional override in the reward', { reward: 'A free \u202ecoffee' }, 'reward'],
    ['the amount rule without an amount', { stampRule: 'amount', amountPerStampMinor: 0n }, 'amount_per_stamp_minor'],
    ['an amount with the visit rule', { amountPerStampMinor: 500n }, 'amount_per_stamp_minor'],
    ['a negative amount', { stampRule: 'amount', amountPerStampMinor: -1n }, 'amount_per_stamp_minor'],
    ['a huge amount', { stampRule: 'amount', amountPerStampMinor: 10n ** 13n }, 'amount_per_stamp_minor'],
  ])('refuses %s, naming the field, and keeps the program', async (_, fields, field) => {
    const org = await shop();
    const refused = await failure(saveProgram(org, fields as Partial<LoyaltyProgram>));
    expect(refused).toMatchObject({ code: 'validation_failed', details: { field } });
    expect((await stack.client.getLoyaltyProgram({ org })).program).toMatchObject({ version: 1n, reward: 'A free coffee' });
  });
});

describe('issuing and reading cards', () => {
  it('issues a card with its identifier once; reading it by id or identifier never shows the identifier', async () => {
    const org = await shop();
    const holder = address();
    const card = await issue(org, { address: holder });
    expect(card).toMatchObject({ merchantHandle: org.handle, status: 'active', stamps: 0, stampsForReward: 3, rewardsAvailable: 0 });
    expect(card.reward).toBe('A free coffee');
    expect(card.identifier!).toMatch(IDENTIFIER);
    expect(card.identifierLast4).toBe(card.identifier!.slice(-4));
    expect(card.holder).toEqual({ address: holder, publicKey: undefined, userId: '' });
    const byId = await read(card);
    expect(byId).toEqual({ ...card, identifier: undefined });
    // Typed as a person would: no dashes, lower case, O for 0 and L for 1.
    const typed = card.identifier!.replace(/-/g, '').toLowerCase().replace(/0/g, 'o').replace(/1/g, 'l');
    expect((await stack.client.getLoyaltyCard({ id: '', identifier: typed })).card).toEqual(byId);
  });

  it("keeps a public key's address beside it; refuses another network's address or a bad key, naming the field", async () => {
    const org = await shop();
    const key = PrivateKey.fromRandom();
    const card = await issue(org, { publicKey: key.toPublicKey().toString() });
    expect(card.holder).toMatchObject({ address: key.toAddress('testnet'), publicKey: key.toPublicKey().toString() });
    const mainnet = key.toAddress('mainnet');
    expect(await failure(issue(org, { address: mainnet }))).toMatchObject({
      code: 'validation_failed',
      details: { field: 'holder.address' },
    });
    expect(await failure(issue(org, { publicKey: '02zz' }))).toMatchObject({
      code: 'validation_failed',
      details: { field: 'holder.public_key' },
    });
    expect(await failure(issue(org, { userId: 'not-a-user' }))).toMatchObject({
      code: 'validation_failed',
      details: { field: 'holder.user_id' },
    });
  });

  it('gives an address and a user one card at a shop each, naming the card they have; another shop may issue its own', async () => {
    const org = await shop();
    const [holder, user] = [address(), randomUUID()];
    const first = await issue(org, { address: holder });
    const again = await failure(issue(org, { address: holder }));
    expect(again).toMatchObject({ code: 'already_exists', details: { field: 'holder.address', card_id: first.id } });
    const own = await issue(org, { userId: user });
    expect(await failure(issue(org, { userId: user, address: address() }))).toMatchObject({
      code: 'already_exists',
      details: { field: 'holder.user_id', card_id: own.id },
    });
    expect((await issue(await shop(), { address: holder })).id).not.toBe(first.id);
    // Cards without a holder are many.
    expect((await issue(org)).id).not.toBe((await issue(org)).id);
  });

  it('refuses a card where there is no active program', async () => {
    expect(await failure(issue(await stack.walletOrg()))).toMatchObject({ code: 'failed_precondition', details: { reason: 'no_program' } });
    expect(await failure(issue(await shop({ active: false })))).toMatchObject({
      code: 'failed_precondition',
      details: { reason: 'program_inactive' },
    });
  });

  it('answers not_found for an unknown card, and a 422 for text that cannot be an identifier', async () => {
    expect((await failure(stack.client.getLoyaltyCard({ id: randomUUID(), identifier: '' }))).code).toBe('not_found');
    expect((await failure(stack.client.getLoyaltyCard({ id: 'not-an-id', identifier: '' }))).code).toBe('not_found');
    expect((await failure(stack.client.getLoyaltyCard({ id: '', identifier: 'ABCD-EFGH-JKMN-PQRS' }))).code).toBe('not_found');
    for (const identifier of ['ABCD-EFGH', 'ABCD-EFGH-JKMN-PQRU', 'ABCD\u0000EFGH-JKMN-PQRS']) {
      expect(await failure(stack.client.getLoyaltyCard({ id: '', identifier }))).toMatchObject({
        code: 'validation_failed',
        details: { field: 'identifier' },
      });
    }
    expect((await failure(stack.client.getLoyaltyCard({ id: '', identifier: '' }))).code).toBe('validation_failed');
  });
});

describe("a customer's own card", () => {
  const join = (org: OrgRef, fields: { address?: string; publicKey?: string; provenKey?: string; userId?: string } = {}) =>
    stack.client.joinLoyaltyProgram({ org, userId: randomUUID(), provenKey: '', ...fields });

  it('is held by the user and, with a proven key, by that key and its address; a second one names the card and org_handle', async () => {
    const org = await shop();
    const userId = randomUUID();
    const card = (await join(org, { userId })).card!;
    expect(card.holder).toMatchObject({ userId, address: undefined, publicKey: undefined });
    const refused = await failure(join(org, { userId }));
    expect({ code: refused.code, field: refused.details?.field, card: refused.details?.card_id }).toEqual({
      code: 'already_exists',
      field: 'org_handle',
      card: card.id,
    });
    const key = PrivateKey.fromRandom().toPublicKey();
    const bound = (await join(org, { publicKey: key.toString().toUpperCase(), provenKey: key.toString() })).card!;
    expect(bound.holder).toMatchObject({ address: key.toAddress('testnet'), publicKey: key.toString() });
  });

  it('binds an address or a key only with proof of its key, and only that key', async () => {
    const org = await shop();
    for (const fields of [{ address: address() }, { publicKey: PrivateKey.fromRandom().toPublicKey().toString() }]) {
      const refused = await failure(join(org, fields));
      expect({ code: refused.code, field: refused.details?.field }).toEqual({ code: 'validation_failed', field: 'proof' });
      expect(refused.message).toContain('/api/auth/challenge');
    }
    const proven = PrivateKey.fromRandom().toPublicKey().toString();
    const other = PrivateKey.fromRandom().toPublicKey().toString();
    const mismatch = await failure(join(org, { publicKey: other, provenKey: proven }));
    expect({ code: mismatch.code, field: mismatch.details?.field }).toEqual({ code: 'validation_failed', field: 'address' });
    const elsewhere = await failure(join(org, { address: address(), provenKey: proven }));
    expect({ code: elsewhere.code, field: elsewhere.details?.field }).toEqual({ code: 'validation_failed', field: 'address' });
    expect(elsewhere.message).not.toContain('holder.');
  });
});

describe('stamps', () => {
  it('staff stamp a card for paid orders up to a reward, each with its order and the receipt of its payment', async () => {
    const org = await shop();
    const card = await issue(org);
    let last;
    for (let visit = 1; visit <= 3; visit++) {
      const order = await paidOrder(org);
      last = await stack.client.stampLoyaltyCard({ org, id: card.id, orderNumber: order.orderNumber });
      expect(last.activity).toMatchObject({
        sequence: BigInt(visit),
        kind: 'stamp',
        stamps: 1,
        stampsAfter: visit,
        orderNumber: order.orderNumber,
      });
      expect(last.activity!.receipt).toEqual({ txid: expect.stringMatching(/^[0-9a-f]{64}$/), vout: 1 });
    }
    expect(last!.card).toMatchObject({ stamps: 3, rewardsAvailable: 1, identifier: undefined });
    expect(await read(card)).toMatchObject({ stamps: 3, rewardsAvailable: 1 });
  });

  it(
    'an order stamps once: again on the same card, or on another, is already_stamped, and 10 at once stamp one card',
    { tags: ['concurrency'] },
    async () => {
      const org = await shop();
      const [card, other] = [await issue(org), await issue(org)];
      const order = await paidOrder(org);
      await stamp(org, card, order);
      expect((await failure(stamp(org, card, order))).code).toBe('already_stamped');
      expect((await failure(stamp(org, other, order))).code).toBe('already_stamped');
      expect((await read(other)).stamps).toBe(0);

      const cards = await Promise.all(Array.from({ length: 10 }, () => issue(org)));
      const next = await paidOrder(org);
      const attempts = await Promise.allSettled(cards.map((each) => stamp(org, each, next)));
      expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1);
      const refusals = attempts.flatMap((attempt) => (attempt.status === 'rejected' ? [(attempt.reason as { code: string }).code] : []));
      expect(new Set(refusals)).toEqual(new Set(['already_stamped']));
      expect((await Promise.all(cards.map(read))).reduce((sum, each) => sum + each.stamps, 0)).toBe(1);
    },
  );

  it("refuses an unpaid order, another organisation's order or card, and stamps while the program is paused", async () => {
    const org = await shop();
    const card = await issue(org);
    expect(await failure(stamp(org, card, await create(org)))).toMatchObject({
      code: 'failed_precondition',
      details: { field: 'order_number' },
    });
    const stranger = await shop();
    expect((await failure(stamp(org, card, await paidOrder(stranger)))).code).toBe('not_found');
    expect((await failure(stamp(stranger, card, await paidOrder(stranger)))).code).toBe('not_found');
    expect((await failure(stack.client.stampLoyaltyCard({ org, id: card.id, orderNumber: "1' OR 1=1" }))).code).toBe('validation_failed');
    const order = await paidOrder(org);
    await saveProgram(org, { active: false });
    expect((await failure(stamp(org, card, order))).code).toBe('failed_precondition');
    await saveProgram(org);
    expect((await stamp(org, card, order)).card!.stamps).toBe(1);
  });

  it('stamps per amount spent after discount, before tip; an order that earns none is a 422 saying why', async () => {
    const org = await shop({ stampRule: 'amount', amountPerStampMinor: 200n, stampsForReward: 10, reward: 'A bag of beans' });
    const card = await issue(org);
    // 1000 less 10% is 900: four stamps of 200; the tip earns none.
    const order = await paidOrder(org, {
      lines: [{ name: 'Beans', quantity: 1n, unitPriceMinor: 1000n } as never],
      discountBasisPoints: 1000,
      tipMinor: 500n,
    });
    expect((await stamp(org, card, order)).activity).toMatchObject({ stamps: 4, stampsAfter: 4 });
    const small = await paidOrder(org, { lines: [{ name: 'Mint', quantity: 1n, unitPriceMinor: 150n } as never] });
    const refused = await failure(stamp(org, card, small));
    expect(refused).toMatchObject({ code: 'validation_failed', details: { field: 'order_number' } });
    expect(refused.message).toMatch(/150 .*200/);
  });
});

describe('an order created with a loyalty card', () => {
  it('stamps the card itself when it is paid, once, bound to the receipt output of its payment', async () => {
    const org = await shop();
    const card = await issue(org, { userId: randomUUID() });
    const order = await create(org, { loyaltyCardId: card.id });
    expect(order.loyaltyCardId).toBe(card.id);
    expect((await read(card)).stamps).toBe(0);
    const { outputs } = await stack.client.getPaymentRequest({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL });
    const tx = await paying(await fundedCustomer(stack.chain), [
      { script: outputs[0]!.script, satoshis: order.dueSatoshis },
      { script: outputs[1]!.script, satoshis: 0 },
    ]);
    // The wallet sends it twice, and the watcher or staff learn of it too: one stamp.
    await stack.client.payOrder({ orderNumber: order.orderNumber, transaction: tx.toHex() });
    await stack.client.payOrder({ orderNumber: order.orderNumber, transaction: tx.toHex() });
    await stack.client.confirmOrder({ org, orderNumber: order.orderNumber, txid: tx.id('hex'), publicUrl: PUBLIC_URL });
    const stamped = await read(card);
    expect(stamped.stamps).toBe(1);
    expect((await failure(stamp(org, card, order))).code).toBe('already_stamped');
    const held = await heldCard(card);
    expect(held.activities).toEqual([
      expect.objectContaining({ kind: 'stamp', stamps: 1, orderNumber: order.orderNumber, receipt: { txid: tx.id('hex'), vout: 1 } }),
    ]);
  });

  it("refuses another organisation's card, or text that is no card, naming loyalty_card_id, before anything is held", async () => {
    const org = await shop();
    const theirs = await issue(await shop());
    for (const loyaltyCardId of [theirs.id, randomUUID(), 'card-1']) {
      expect(await failure(stack.client.createOrder(orderRequest(org, { loyaltyCardId })))).toMatchObject({
        code: 'validation_failed',
        details: { field: 'loyalty_card_id' },
      });
    }
  });

  it('a paused program lets the order be paid and stamps nothing; staff may stamp it later', async () => {
    const org = await shop();
    const card = await issue(org);
    const order = await create(org, { loyaltyCardId: card.id });
    await saveProgram(org, { active: false });
    await payInFull(order);
    expect((await stack.client.getOrder({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL })).order!.status).toBe('paid');
    expect((await read(card)).stamps).toBe(0);
    await saveProgram(org);
    expect((await stamp(org, card, order)).card!.stamps).toBe(1);
  });
});

describe('redeeming a reward', () => {
  it('of 50 concurrent redemptions of a card holding one reward, exactly one succeeds', { tags: ['concurrency'] }, async () => {
    const org = await shop({ ...coffee, stampsForReward: 2 });
    const card = await issue(org, { userId: randomUUID() });
    for (let i = 0; i < 3; i++) await stamp(org, card, await paidOrder(org));
    const attempts = await Promise.allSettled(Array.from({ length: 50 }, () => redeem(org, card, card.identifier!)));
    const succeeded = attempts.flatMap((attempt) => (attempt.status === 'fulfilled' ? [attempt.value] : []));
    expect(succeeded).toHaveLength(1);
    expect(succeeded[0]!.activity).toMatchObject({ kind: 'redeem', stamps: -2, stampsAfter: 1 });
    const refusals = attempts.flatMap((attempt) =>
      attempt.status === 'rejected' ? [attempt.reason as { code: string; details: object }] : [],
    );
    expect(new Set(refusals.map((refusal) => refusal.code))).toEqual(new Set(['not_enough_stamps']));
    expect(refusals[0]!.details).toEqual({ stamps: 1, stamps_for_reward: 2 });
    expect(await read(card)).toMatchObject({ stamps: 1, rewardsRedeemed: 1, rewardsAvailable: 0 });
    const ledger = (await heldCard(card)).activities;
    expect(ledger.map((activity) => [activity.sequence, activity.kind, activity.stampsAfter])).toEqual([
      [1n, 'stamp', 1],
      [2n, 'stamp', 2],
      [3n, 'stamp', 3],
      [4n, 'redeem', 1],
    ]);
  });

  it("needs the card's own identifier: another card's, or none that parses, is refused and takes nothing", async () => {
    const org = await shop({ ...coffee, stampsForReward: 1 });
    const [card, other] = [await issue(org), await issue(org)];
    await stamp(org, card, await paidOrder(org));
    expect((await failure(redeem(org, card, other.identifier!))).code).toBe('not_found');
    expect(await failure(redeem(org, card, 'nope'))).toMatchObject({ code: 'validation_failed', details: { field: 'identifier' } });
    expect((await failure(redeem(await shop(), card, card.identifier!))).code).toBe('not_found');
    expect((await read(card)).stamps).toBe(1);
    // A paused program still honours the stamps given.
    await saveProgram(org, { ...coffee, stampsForReward: 1, active: false });
    expect((await redeem(org, card, card.identifier!.toLowerCase())).card).toMatchObject({ stamps: 0, rewardsRedeemed: 1 });
  });
});

describe('transfer', () => {
  it('re-keys the card for its new holder: the old identifier stops working, the stamps stay', async () => {
    const org = await shop({ ...coffee, stampsForReward: 1 });
    const user = randomUUID();
    const card = await issue(org, { userId: user });
    await stamp(org, card, await paidOrder(org));
    const newHolder = address();
    const moved = (await stack.client.transferLoyaltyCard({ org, id: card.id, to: { address: newHolder, publicKey: '', userId: '' } }))
      .card!;
    expect(moved.identifier).toMatch(IDENTIFIER);
    expect(moved.identifier).not.toBe(card.identifier!);
    expect(moved).toMatchObject({ id: card.id, stamps: 1, holder: { address: newHolder, publicKey: undefined, userId: '' } });
    expect((await failure(stack.client.getLoyaltyCard({ id: '', identifier: card.identifier! }))).code).toBe('not_found');
    expect((await failure(redeem(org, card, card.identifier!))).code).toBe('not_found');
    expect((await stack.client.listHeldLoyaltyCards({ userId: user })).cards).toEqual([]);
    const redeemed = await redeem(org, card, moved.identifier!);
    expect(redeemed.card!.stamps).toBe(0);
    // The ledger goes on: stamp, transfer, redeem.
    expect(redeemed.activity).toMatchObject({ sequence: 3n, kind: 'redeem' });
  });

  it('re-keys a lost card without a new holder; refuses an address that has a card at the shop, or another shop', async () => {
    const org = await shop();
    const holder = address();
    const card = await issue(org, { address: holder });
    const rekeyed = (await stack.client.transferLoyaltyCard({ org, id: card.id })).card!;
    expect(rekeyed.identifier).not.toBe(card.identifier!);
    expect(rekeyed.holder!.address).toBe(holder);
    const taken = address();
    const other = await issue(org, { address: taken });
    const refused = await failure(
      stack.client.transferLoyaltyCard({ org, id: card.id, to: { address: taken, publicKey: '', userId: '' } }),
    );
    expect(refused).toMatchObject({ code: 'already_exists', details: { field: 'to.address', card_id: other.id } });
    expect((await failure(stack.client.transferLoyaltyCard({ org: await shop(), id: card.id }))).code).toBe('not_found');
    expect(
      await failure(stack.client.transferLoyaltyCard({ org, id: card.id, to: { address: 'not an address', publicKey: '', userId: '' } })),
    ).toMatchObject({ code: 'validation_failed', details: { field: 'to.address' } });
  });
});

describe("the holder's wallet", () => {
  it("lists the caller's own cards at every shop, newest first, each with its identifier and ledger", async () => {
    const user = randomUUID();
    const [cafe, bakery] = [await shop(), await shop({ ...coffee, reward: 'A croissant' })];
    const first = await issue(cafe, { userId: user });
    const second = await issue(bakery, { userId: user });
    await issue(cafe, { userId: randomUUID() });
    const page = await stack.client.listHeldLoyaltyCards({ userId: user, limit: 1 });
    expect(page.cards.map((card) => [card.id, card.identifier!, card.reward])).toEqual([[second.id, second.identifier, 'A croissant']]);
    const rest = await stack.client.listHeldLoyaltyCards({ userId: user, limit: 1, cursor: page.nextCursor });
    expect(rest.cards.map((card) => [card.id, card.identifier!])).toEqual([[first.id, first.identifier]]);
    expect(rest.nextCursor).toBe('');
    expect(await failure(stack.client.listHeldLoyaltyCards({ userId: 'me' }))).toMatchObject({ details: { field: 'user_id' } });
  });
});

describe('on-chain stamps', () => {
  it("verifies a stamp from its order's txid: the receipt names the merchant and the order, mined", async () => {
    const org = await shop();
    const card = await issue(org);
    const order = await create(org, { loyaltyCardId: card.id });
    const txid = await payInFull(order);
    const unmined = await stack.client.verifyStamp({ txid });
    expect(unmined).toMatchObject({ cardId: card.id, merchantHandle: org.handle, orderNumber: order.orderNumber, verified: false });
    expect(unmined.problem).toMatch(/not yet mined/);
    await mineBlocks(stack.chain.url, 1);
    const verified = await stack.client.verifyStamp({ txid: txid.toUpperCase() });
    expect(verified).toMatchObject({
      cardId: card.id,
      orderNumber: order.orderNumber,
      verified: true,
      receiptMerchant: `${org.handle}@pay.example.com`,
      receiptReference: order.orderNumber,
      problem: undefined,
    });
    expect(verified.blockHeight).toBeGreaterThan(0n);
    expect(verified.stamp).toMatchObject({ kind: 'stamp', stamps: 1, orderNumber: order.orderNumber, receipt: { txid, vout: 1 } });
  });

  it('binds no receipt to a stamp whose order was paid without one, and answers not_found for its txid', async () => {
    const org = await shop();
    const card = await issue(org);
    const order = await create(org);
    const { outputs } = await stack.client.getPaymentRequest({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL });
    const tx = await paying(await fundedCustomer(stack.chain), [{ script: outputs[0]!.script, satoshis: order.dueSatoshis }]);
    await broadcast(tx.toHex());
    await stack.client.confirmOrder({ org, orderNumber: order.orderNumber, txid: tx.id('hex'), publicUrl: PUBLIC_URL });
    expect((await stamp(org, card, order)).activity!.receipt).toBeUndefined();
    expect((await failure(stack.client.verifyStamp({ txid: tx.id('hex') }))).code).toBe('not_found');
    expect(await failure(stack.client.verifyStamp({ txid: 'abc' }))).toMatchObject({
      code: 'validation_failed',
      details: { field: 'txid' },
    });
  });
});

describe('the database', () => {
  it('keeps the ledger append-only and a card at 0 stamps or more, whatever writes', async () => {
    const org = await shop();
    const card = await issue(org);
    await stamp(org, card, await paidOrder(org));
    const prisma = stack.orders.prisma;
    await expect(prisma.$executeRaw`UPDATE loyalty_card_activities SET stamps = 5 WHERE card_id = ${card.id}::uuid`).rejects.toThrow(
      /append-only/,
    );
    await expect(prisma.$executeRaw`DELETE FROM loyalty_card_activities WHERE card_id = ${card.id}::uuid`).rejects.toThrow(/append-only/);
    await expect(prisma.$executeRaw`UPDATE loyalty_cards SET stamps = -1 WHERE id = ${card.id}::uuid`).rejects.toThrow(
      /loyalty_cards_stamps_check/,
    );
    expect((await read(card)).stamps).toBe(1);
  });
});

/** The card as its holder's wallet lists it, with its ledger. */
async function heldCard(card: LoyaltyCard): Promise<LoyaltyCard> {
  const held = (await stack.client.listHeldLoyaltyCards({ userId: card.holder!.userId })).cards.find((each) => each.id === card.id);
  expect(held).toBeDefined();
  return held!;
}

/** Broadcasts a transaction to the local chain, as a customer's wallet would without BIP270. */
async function broadcast(hex: string) {
  const response = await fetch(`${stack.chain.url}/v1/tx`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rawTx: hex }),
  });
  if (!response.ok) throw new Error(`broadcast: ${response.status} ${await response.text()}`);
}
