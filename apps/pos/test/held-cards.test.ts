import { PrivateKey } from '@bsv/sdk';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { LoyaltyCard, PrepaidCard, type CardHolder, type LoyaltyProgram } from '@ctk/proto/ctk/pos/v1/cards';
import type { Order } from '@ctk/proto/ctk/pos/v1/pos';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundedCustomer, orderRequest, paying, PUBLIC_URL, startOrderStack, type OrderStack } from './order-stack.js';

let stack: OrderStack;
beforeAll(async () => {
  stack = await startOrderStack();
}, 60_000);
afterAll(() => stack?.close());

const coffee = { stampRule: 'visit', amountPerStampMinor: 0n, stampsForReward: 3, reward: 'A free coffee', active: true } as LoyaltyProgram;
const holder = (fields: Partial<CardHolder>): CardHolder => ({ address: '', publicKey: '', userId: '', ...fields });

/** A shop with a wallet and a loyalty program (a free coffee for 3 visits). */
async function shop(): Promise<OrgRef> {
  const org = await stack.walletOrg();
  await stack.client.replaceLoyaltyProgram({ org, program: coffee });
  return org;
}

function customer() {
  const key = PrivateKey.fromRandom();
  return { address: key.toAddress('testnet'), publicKey: key.toPublicKey().toString() };
}

const order = async (org: OrgRef, unitPriceMinor: bigint) =>
  (await stack.client.createOrder(orderRequest(org, { lines: [{ name: 'Lunch', quantity: 1n, unitPriceMinor } as never] }))).order!;
const issue = async (org: OrgRef, amountMinor: bigint, cardHolder?: CardHolder) =>
  stack.client.issuePrepaidCard({
    org,
    amountMinor,
    publicUrl: PUBLIC_URL,
    createdBy: 'staff-1',
    ...(cardHolder ? { holder: cardHolder } : {}),
  });

/** Pays what the order asks by BIP270 (its output, then the receipt output). */
async function payInFull(unpaid: Order) {
  const { outputs } = await stack.client.getPaymentRequest({ orderNumber: unpaid.orderNumber, publicUrl: PUBLIC_URL });
  const tx = await paying(await fundedCustomer(stack.chain), [
    { script: outputs[0]!.script, satoshis: outputs[0]!.amount },
    { script: outputs[1]!.script, satoshis: 0 },
  ]);
  expect((await stack.client.payOrder({ orderNumber: unpaid.orderNumber, transaction: tx.toHex() })).error).toBe(0);
}

/** What the public lookup answers of a prepaid card, and nothing else. */
async function publicPrepaid(id: string): Promise<PrepaidCard> {
  const card = (await stack.client.getPrepaidCard({ id, identifier: '' })).card!;
  const { merchantHandle, currency, status, balanceMinor, identifierLast4 } = card;
  return PrepaidCard.fromPartial({ id, merchantHandle, currency, status, balanceMinor, identifierLast4 });
}

async function publicLoyalty(id: string): Promise<LoyaltyCard> {
  const card = (await stack.client.getLoyaltyCard({ id, identifier: '' })).card!;
  const { merchantHandle, status, stamps, stampsForReward, rewardsAvailable, reward, identifierLast4 } = card;
  return LoyaltyCard.fromPartial({ id, merchantHandle, status, stamps, stampsForReward, rewardsAvailable, reward, identifierLast4 });
}

describe('the cards a POS card shows', () => {
  it("are the address's prepaid and loyalty cards at the shop, public fields only, newest first, and no one else's", async () => {
    const [org, elsewhere] = [await shop(), await shop()];
    const sam = customer();
    const stranger = customer();
    const posCard = (await stack.client.createPosCard({ org, holder: holder({ address: sam.address }), label: 'Sam' })).card!;
    const posCardElsewhere = (await stack.client.createPosCard({ org: elsewhere, holder: holder({ publicKey: sam.publicKey }) })).card!;

    // Sam's cards at the shop: a gift card paid for, one whose order is still open, a loyalty card held by their key, stamped once.
    const active = (await issue(org, 1000n, holder({ address: sam.address }))).card!;
    await payInFull((await stack.client.getOrder({ orderNumber: active.orderNumber })).order!);
    const pending = (await issue(org, 500n, holder({ address: sam.address }))).card!;
    const loyalty = (await stack.client.createLoyaltyCard({ org, holder: holder({ publicKey: sam.publicKey }) })).card!;
    const visit = await order(org, 450n);
    await payInFull(visit);
    await stack.client.stampLoyaltyCard({ org, id: loyalty.id, orderNumber: visit.orderNumber });
    // Not Sam's at the shop: a stranger's cards, a gift card with no holder, and Sam's gift card at the other shop.
    await issue(org, 700n, holder({ address: stranger.address }));
    await stack.client.createLoyaltyCard({ org, holder: holder({ address: stranger.address }) });
    await issue(org, 800n);
    const atElsewhere = (await issue(elsewhere, 300n, holder({ address: sam.address }))).card!;

    const expected = {
      ...posCard,
      prepaidCards: [await publicPrepaid(pending.id), await publicPrepaid(active.id)],
      loyaltyCards: [await publicLoyalty(loyalty.id)],
    };
    expect(expected.prepaidCards.map((card) => [card.status, card.balanceMinor])).toEqual([
      ['pending', 0n],
      ['active', 1000n],
    ]);
    expect(expected.loyaltyCards[0]).toMatchObject({ stamps: 1, stampsForReward: 3, reward: 'A free coffee' });

    // The shop's staff see what the address holds at their shop, with or without its POS card (decision 0024).
    expect((await stack.client.listShopCards({ org, limit: 0, cursor: '' })).cards).toEqual([expected]);
    expect(await stack.client.createPosCard({ org, holder: holder({ address: sam.address }) })).toEqual({ card: expected, created: false });
    const atShop = await stack.client.getShopAddressCards({ org, address: sam.address });
    expect([atShop.prepaidCards, atShop.loyaltyCards]).toEqual([expected.prepaidCards, expected.loyaltyCards]);
    expect((await stack.client.getShopAddressCards({ org: elsewhere, address: sam.address })).prepaidCards).toEqual([
      await publicPrepaid(atElsewhere.id),
    ]);
    // Nothing that spends or names the holder: no identifier, holder, ledger, selling order or organisation.
    for (const card of [...atShop.prepaidCards, ...atShop.loyaltyCards]) {
      expect(card).toMatchObject({ identifier: undefined, holder: undefined, activities: [], organizationId: '' });
    }
    // A stranger who knows the address or the POS card's id sees the POS cards, and no balance or stamp anywhere.
    expect(await stack.client.getPosCard({ id: posCard.id })).toEqual({ cards: [{ ...expected, prepaidCards: [], loyaltyCards: [] }] });
    expect((await stack.client.getPosCard({ address: sam.address })).cards).toEqual([
      { ...posCardElsewhere, prepaidCards: [], loyaltyCards: [] },
      { ...expected, prepaidCards: [], loyaltyCards: [] },
    ]);
  });

  it('leave out a gift card whose selling order expired (void), and show balances with the uses of expired orders restored', async () => {
    const org = await shop();
    const sam = customer();
    await stack.client.createPosCard({ org, holder: holder({ address: sam.address }) });
    const issued = await issue(org, 1000n, holder({ address: sam.address }));
    await payInFull(issued.order!);
    const meal = await order(org, 600n);
    await stack.client.usePrepaidCard({
      org,
      id: issued.card!.id,
      identifier: issued.card!.identifier,
      orderNumber: meal.orderNumber,
      amountMinor: 250n,
      publicUrl: PUBLIC_URL,
    });
    const unsold = (await issue(org, 500n, holder({ address: sam.address }))).card!;
    const shown = async () => (await stack.client.getShopAddressCards({ org, address: sam.address })).prepaidCards;
    expect((await shown()).map((card) => [card.id, card.status, card.balanceMinor])).toEqual([
      [unsold.id, 'pending', 0n],
      [issued.card!.id, 'active', 750n],
    ]);

    stack.advance(901);
    try {
      // The read of the address's cards expires the orders first: the sold card's order made it void, the meal's use is back.
      expect((await shown()).map((card) => [card.id, card.status, card.balanceMinor])).toEqual([[issued.card!.id, 'active', 1000n]]);
      expect((await stack.client.getPrepaidCard({ id: unsold.id, identifier: '' })).card).toMatchObject({ status: 'void' });
      expect((await stack.client.getOrder({ orderNumber: meal.orderNumber })).order).toMatchObject({ status: 'expired' });
    } finally {
      stack.advance(-901);
    }
  });
});
