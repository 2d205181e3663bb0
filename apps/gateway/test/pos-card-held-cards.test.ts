import { PrivateKey } from '@bsv/sdk';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type Onboarded } from './harness.js';
import { startOrderStack } from './order-harness.js';

let stack: Awaited<ReturnType<typeof startOrderStack>>;
beforeAll(async () => {
  stack = await startOrderStack();
}, 60_000);
afterAll(() => stack?.close());

const inject = (options: InjectOptions) => stack.gateway.app.inject(options);
const get = (url: string, key?: string) => inject({ method: 'GET', url, ...(key ? { headers: bearer(key) } : {}) });
const post = async (url: string, key: string, payload: object) => {
  const response = await inject({ method: 'POST', url, headers: bearer(key), payload });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json();
};

/** A shop with a wallet and a loyalty program. */
async function cafe(label: string): Promise<Onboarded> {
  const org = await stack.walletOrg(label);
  const program = { stamp_rule: 'visit', stamps_for_reward: 8, reward: 'A free coffee' };
  const saved = await inject({
    method: 'PUT',
    url: `/api/v1/orgs/${org.handle}/loyalty-program`,
    headers: bearer(org.key),
    payload: program,
  });
  expect(saved.statusCode).toBe(200);
  return org;
}

/** Pays the order by BIP270 through the gateway, as a customer's wallet does. */
async function pay(order: { order_number: string }) {
  const request = (await get(`/api/pos/orders/${order.order_number}/payment-request`)).json();
  const tx = await stack.paying(
    request.outputs.map((output: { script: string; amount: number }) => ({ script: output.script, satoshis: output.amount })),
  );
  const ack = await inject({
    method: 'POST',
    url: `/api/pos/orders/${order.order_number}/payment`,
    payload: { transaction: tx.toHex(), merchantData: request.merchantData },
  });
  expect(ack.json()).toMatchObject({ error: 0 });
}

/** The customer's cards at a shop, made by its staff: a gift card paid for and a loyalty card, both held by the address. */
async function cardsAt(org: Onboarded, address: string) {
  const posCard = await post('/api/pos/cards', org.key, { org_handle: org.handle, holder: { address }, label: 'Sam, oat flat white' });
  const gift = await post('/api/pos/prepaid-cards', org.key, { org_handle: org.handle, amount_minor: 2500, holder: { address } });
  await pay(gift.order);
  const loyalty = await post('/api/pos/loyalty-cards', org.key, { org_handle: org.handle, holder: { address } });
  return { posCard, gift: gift.card, loyalty };
}

describe('the cards a POS card shows', () => {
  it("are its address's prepaid and loyalty cards at the shop, as their public lookups show them, never another shop's", async () => {
    const [blueBottle, bakery] = [await cafe('Blue Bottle Cafe'), await cafe('Corner Bakery')];
    const sam = PrivateKey.fromRandom().toAddress('testnet');
    const here = await cardsAt(blueBottle, sam);
    const there = await cardsAt(bakery, sam);
    // Another customer's cards at the same shop are not Sam's.
    await cardsAt(blueBottle, PrivateKey.fromRandom().toAddress('testnet'));

    const shown = async (cards: typeof here) => ({
      prepaid_cards: [(await get(`/api/pos/prepaid-cards/${cards.gift.id}`)).json()],
      loyalty_cards: [(await get(`/api/pos/loyalty-cards/${cards.loyalty.id}`)).json()],
    });
    const expectedHere = await shown(here);
    expect(expectedHere.prepaid_cards[0]).toMatchObject({ merchant_handle: blueBottle.handle, status: 'active', balance_minor: 2500 });
    expect(expectedHere.loyalty_cards[0]).toMatchObject({ merchant_handle: blueBottle.handle, stamps: 0, stamps_for_reward: 8 });

    const byId = await get(`/api/pos/cards/${here.posCard.id}`);
    expect(byId.statusCode).toBe(200);
    const { label: _, created: __, ...publicCard } = here.posCard;
    expect(byId.json()).toEqual({ ...publicCard, ...expectedHere });

    const byAddress = await get(`/api/pos/cards/address/${sam}`);
    expect(byAddress.statusCode).toBe(200);
    expect(byAddress.json().data).toEqual([
      { ...byId.json(), ...(await shown(there)), id: there.posCard.id, shop_id: bakery.handle, created_at: there.posCard.created_at },
      byId.json(),
    ]);

    const staffList = (await get(`/api/pos/shops/${blueBottle.handle}/cards`, blueBottle.key)).json().data;
    expect(staffList.find((card: { id: string }) => card.id === here.posCard.id)).toEqual({ ...byId.json(), label: 'Sam, oat flat white' });

    // Nothing that spends or names the holder: neither identifier, the holder, a ledger nor an organisation id.
    for (const response of [byId, byAddress]) {
      for (const secret of [here.gift.identifier, here.loyalty.identifier, there.gift.identifier, blueBottle.orgId, bakery.orgId]) {
        expect(response.body).not.toContain(secret);
      }
      for (const field of ['"holder"', '"activities"', '"identifier"', '"order_number"', 'Sam, oat'])
        expect(response.body).not.toContain(field);
    }
  });
});
