import { randomUUID } from 'node:crypto';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import type { LoyaltyCard, LoyaltyProgram } from '@ctk/proto/ctk/pos/v1/cards';
import type { CreateOrderRequest, Order } from '@ctk/proto/ctk/pos/v1/pos';
import { eventually } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newItem } from './support.js';
import { failure, fundedCustomer, orderRequest, paying, PUBLIC_URL, startOrderStack, type OrderStack } from './order-stack.js';

let stack: OrderStack;
beforeAll(async () => {
  stack = await startOrderStack();
}, 60_000);
afterAll(() => stack?.close());

type Fields = Partial<CreateOrderRequest>;
const quote = async (org: OrgRef, fields: Fields) => (await stack.client.quoteOrder({ order: orderRequest(org, fields) })).quote!;
const create = async (org: OrgRef, fields: Fields) => (await stack.client.createOrder(orderRequest(org, fields))).order!;
const program: Partial<LoyaltyProgram> = {
  stampRule: 'visit',
  amountPerStampMinor: 0n,
  stampsForReward: 2,
  reward: 'A free flat white',
  rewardValueMinor: 450n,
  active: true,
};
const saveProgram = (org: OrgRef, fields: Partial<LoyaltyProgram> = {}) =>
  stack.client.replaceLoyaltyProgram({ org, program: { ...program, ...fields } as LoyaltyProgram });
const read = async (card: LoyaltyCard) => (await stack.client.getLoyaltyCard({ id: card.id, identifier: '' })).card!;

/** Pays the order in full by BIP270 (its output, then the receipt output). */
async function payInFull(order: Order) {
  const { outputs } = await stack.client.getPaymentRequest({ orderNumber: order.orderNumber, publicUrl: PUBLIC_URL });
  const tx = await paying(await fundedCustomer(stack.chain), [
    { script: outputs[0]!.script, satoshis: order.dueSatoshis },
    { script: outputs[1]!.script, satoshis: 0 },
  ]);
  expect((await stack.client.payOrder({ orderNumber: order.orderNumber, transaction: tx.toHex() })).error).toBe(0);
}

/** A card holding `visits` stamps: each a paid order that stamps it. */
async function cardWithStamps(org: OrgRef, visits: number): Promise<LoyaltyCard> {
  const card = (await stack.client.createLoyaltyCard({ org, holder: { address: '', publicKey: '', userId: randomUUID() } })).card!;
  for (let visit = 0; visit < visits; visit++) await payInFull(await create(org, { loyaltyCardId: card.id }));
  expect((await read(card)).stamps).toBe(visits);
  return card;
}

/** What a quote and an order both say of the price. */
const priceOf = (priced: {
  currency: string;
  lines: Order['lines'];
  subtotalMinor: bigint;
  discountMinor: bigint;
  taxMinor: bigint;
  tipMinor: bigint;
  totalMinor: bigint;
  rewardMinor: bigint;
  reward: string;
}) => ({
  currency: priced.currency,
  lines: priced.lines,
  subtotalMinor: priced.subtotalMinor,
  discountMinor: priced.discountMinor,
  taxMinor: priced.taxMinor,
  tipMinor: priced.tipMinor,
  totalMinor: priced.totalMinor,
  rewardMinor: priced.rewardMinor,
  reward: priced.reward,
});

describe('QuoteOrder: the price the order will have, nothing created (decision 0023)', () => {
  it('answers exactly what CreateOrder then charges, for menu items with modifiers, a discount and every kind of tip, taxed both ways', async () => {
    for (const taxed of [
      await stack.walletOrg({ jurisdiction: 'US-CA' }),
      await stack.walletOrg({ jurisdiction: 'GB', pricesIncludeTax: true }),
    ]) {
      const latte = (
        await stack.client.createItem(
          newItem(taxed, {
            name: 'Oat milk latte',
            priceCents: 575n,
            modifiers: [
              { name: 'Large', priceCents: 75n, group: 'Size' },
              { name: 'Extra shot', priceCents: 100n, group: '' },
            ],
          } as never),
        )
      ).item!;
      const large = latte.modifiers.find((modifier) => modifier.name === 'Large')!.id;
      const shot = latte.modifiers.find((modifier) => modifier.name === 'Extra shot')!.id;
      const lines = [
        { itemId: latte.id, quantity: 2n, modifiers: [{ modifierId: large }, { modifierId: shot }] },
        { name: 'Croissant', quantity: 3n, unitPriceMinor: 425n },
      ] as never;
      for (const fields of [
        { lines },
        { lines, tipBasisPoints: 1500 },
        { lines, discountBasisPoints: 1000, tipBasisPoints: 1800 },
        { lines, discountMinor: 333n, tipMinor: 250n },
      ] satisfies Fields[]) {
        const quoted = await quote(taxed, fields);
        const created = await create(taxed, fields);
        expect(priceOf(quoted)).toEqual(priceOf(created));
        expect(quoted.lines[0]!.modifiers.map((modifier) => modifier.name)).toEqual(['Large', 'Extra shot']);
        // The tip is never taken on the tax: a percentage is of the goods after discount, net of their tax.
        if (fields.tipBasisPoints) {
          const beforeTax = created.lines.reduce((sum, line) => sum + line.totalMinor - line.taxMinor, 0n);
          expect(created.tipMinor).toBe((beforeTax * BigInt(fields.tipBasisPoints) * 2n + 10_000n) / 20_000n);
        }
      }
    }
  });

  it('refuses what CreateOrder refuses, with the same code and field', async () => {
    const org = await stack.walletOrg();
    for (const fields of [{ discountMinor: 10_000n }, { loyaltyCardId: 'card-1' }, { lines: [] }] satisfies Fields[]) {
      const quoted = await failure(stack.client.quoteOrder({ order: orderRequest(org, fields) }));
      const created = await failure(stack.client.createOrder(orderRequest(org, fields)));
      expect({ code: quoted.code, details: quoted.details }).toEqual({ code: created.code, details: created.details });
    }
  });
});

describe('an order that redeems a loyalty reward (decision 0023)', () => {
  it('takes the reward off before tax as a discount the order, its quote and its payment event carry; the stamps are spent with the order', async () => {
    const org = await stack.walletOrg({ jurisdiction: 'US-CA' });
    await saveProgram(org);
    const card = await cardWithStamps(org, 2);
    const fields = {
      lines: [{ name: 'Flat white', quantity: 2n, unitPriceMinor: 450n } as never],
      tipBasisPoints: 1000,
      loyaltyCardId: card.id,
      redeemRewardIdentifier: card.identifier!.toLowerCase(),
    };
    const quoted = await quote(org, fields);
    // A quote spends nothing.
    expect((await read(card)).stamps).toBe(2);
    const order = await create(org, fields);
    expect(priceOf(quoted)).toEqual(priceOf(order));
    expect(order).toMatchObject({ subtotalMinor: 900n, discountMinor: 0n, rewardMinor: 450n, reward: 'A free flat white' });
    // The reward is shared as a discount before tax: 900 - 450 = 450, taxed; the 10% tip on 450.
    expect(order.lines[0]!.discountMinor).toBe(450n);
    expect(order.totalMinor).toBe(450n + order.taxMinor + 45n);
    expect(await read(card)).toMatchObject({ stamps: 0, rewardsRedeemed: 1 });

    await payInFull(order);
    const event = await eventually(() => {
      const found = stack.events.find((candidate) => candidate.description === `Order ${order.orderNumber}`);
      if (!found) throw new Error('no event yet');
      return found;
    });
    expect(event).toMatchObject({ amountMinor: order.totalMinor, rewardMinor: 450n });
  });

  it('caps the reward at what the discount leaves of the order', async () => {
    const org = await stack.walletOrg();
    await saveProgram(org, { rewardValueMinor: 10_000n });
    const card = await cardWithStamps(org, 2);
    const order = await create(org, {
      lines: [{ name: 'Espresso', quantity: 1n, unitPriceMinor: 300n } as never],
      discountMinor: 100n,
      tipMinor: 50n,
      loyaltyCardId: card.id,
      redeemRewardIdentifier: card.identifier!,
    });
    expect(order).toMatchObject({ subtotalMinor: 300n, discountMinor: 100n, rewardMinor: 200n, totalMinor: 50n });
  });

  it('refuses without the card, with another identifier, without a value or without the stamps, and spends nothing', async () => {
    const org = await stack.walletOrg();
    await saveProgram(org, { rewardValueMinor: 0n });
    const card = await cardWithStamps(org, 2);
    const other = (await stack.client.createLoyaltyCard({ org, holder: { address: '', publicKey: '', userId: randomUUID() } })).card!;
    const ask = (fields: Fields) => failure(stack.client.createOrder(orderRequest(org, fields)));
    expect(await ask({ redeemRewardIdentifier: card.identifier! })).toMatchObject({
      code: 'validation_failed',
      details: { field: 'loyalty_card_id' },
    });
    expect((await ask({ loyaltyCardId: card.id, redeemRewardIdentifier: other.identifier! })).code).toBe('not_found');
    expect((await ask({ loyaltyCardId: card.id, redeemRewardIdentifier: card.identifier! })).code).toBe('failed_precondition');
    await saveProgram(org);
    expect((await ask({ loyaltyCardId: other.id, redeemRewardIdentifier: other.identifier! })).code).toBe('not_enough_stamps');
    expect((await read(card)).stamps).toBe(2);
  });

  it('of 50 concurrent orders redeeming the one reward a card holds, exactly one gets it', { tags: ['concurrency'] }, async () => {
    const org = await stack.walletOrg();
    await saveProgram(org);
    const card = await cardWithStamps(org, 3);
    const fields = {
      lines: [{ name: 'Flat white', quantity: 2n, unitPriceMinor: 450n } as never],
      loyaltyCardId: card.id,
      redeemRewardIdentifier: card.identifier!,
    };
    const attempts = await Promise.allSettled(Array.from({ length: 50 }, () => stack.client.createOrder(orderRequest(org, fields))));
    const created = attempts.flatMap((attempt) => (attempt.status === 'fulfilled' ? [attempt.value.order!] : []));
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ rewardMinor: 450n, totalMinor: 450n });
    const refusals = attempts.flatMap((attempt) => (attempt.status === 'rejected' ? [attempt.reason as { code: string }] : []));
    expect(new Set(refusals.map((refusal) => refusal.code))).toEqual(new Set(['not_enough_stamps']));
    expect(await read(card)).toMatchObject({ stamps: 1, rewardsRedeemed: 1 });
  });

  it(
    'gives the stamps back to the card when its order is cancelled, once, however many cancels come and at once',
    { tags: ['concurrency'] },
    async () => {
      const org = await stack.walletOrg();
      await saveProgram(org);
      const card = await cardWithStamps(org, 3);
      const fields = {
        lines: [{ name: 'Flat white', quantity: 2n, unitPriceMinor: 450n } as never],
        loyaltyCardId: card.id,
        redeemRewardIdentifier: card.identifier!,
      };
      const order = await create(org, fields);
      expect(await read(card)).toMatchObject({ stamps: 1, rewardsRedeemed: 1 });
      const cancel = () => stack.client.cancelOrder({ org, orderNumber: order.orderNumber, publicUrl: PUBLIC_URL });
      const cancels = await Promise.all(Array.from({ length: 10 }, cancel));
      expect(cancels.map((answer) => answer.order!.status)).toEqual(Array(10).fill('cancelled'));
      expect((await cancel()).order!.status).toBe('cancelled');
      // The 2 stamps back once: 3, not 1 (none) nor 5 or more (twice).
      expect(await read(card)).toMatchObject({ stamps: 3, rewardsRedeemed: 0 });
      // And the card redeems its reward again.
      expect((await create(org, fields)).rewardMinor).toBe(450n);
      expect(await read(card)).toMatchObject({ stamps: 1, rewardsRedeemed: 1 });
    },
  );
});
