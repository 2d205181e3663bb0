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

const PUBLIC_POS_CARD_KEYS = ['address', 'created_at', 'id', 'public_key', 'shop_id'];

describe('the cards a POS card shows', () => {
  it("are shown to its shop's staff only, at their shop only; a stranger reading the address sees no balance or stamp", async () => {
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

    // Anyone: the POS cards themselves (which shops, since when), never what they hold.
    const { label: _, created: __, prepaid_cards: ___, loyalty_cards: ____, ...publicCard } = here.posCard;
    const byId = await get(`/api/pos/cards/${here.posCard.id}`);
    expect(byId.statusCode).toBe(200);
    expect(byId.json()).toEqual(publicCard);
    const byAddress = await get(`/api/pos/cards/address/${sam}`);
    expect(byAddress.statusCode).toBe(200);
    expect(byAddress.json().data.map((card: object) => Object.keys(card).sort())).toEqual([PUBLIC_POS_CARD_KEYS, PUBLIC_POS_CARD_KEYS]);
    expect(byAddress.json().data.map((card: { id: string }) => card.id)).toEqual([there.posCard.id, here.posCard.id]);
    for (const response of [byId, byAddress]) {
      for (const held of ['balance_minor', 'stamps', here.gift.id, here.loyalty.id, there.gift.id, there.loyalty.id]) {
        expect(response.body).not.toContain(held);
      }
    }

    // The shop's staff: the card with what the address holds at their shop, and nothing of the other shop's.
    const staffList = (await get(`/api/pos/shops/${blueBottle.handle}/cards`, blueBottle.key)).json().data;
    expect(staffList.find((card: { id: string }) => card.id === here.posCard.id)).toEqual({
      ...publicCard,
      ...expectedHere,
      label: 'Sam, oat flat white',
    });
    const atShop = await get(`/api/pos/shops/${blueBottle.handle}/cards/address/${sam}`, blueBottle.key);
    expect(atShop.statusCode, atShop.body).toBe(200);
    expect(atShop.json()).toEqual({
      shop_id: blueBottle.handle,
      address: sam,
      pos_card: { ...publicCard, ...expectedHere, label: 'Sam, oat flat white' },
      ...expectedHere,
    });
    expect(atShop.body).not.toContain(there.gift.id);
    // Another shop's staff, or anyone without a key, are refused.
    const refusedFor = await get(`/api/pos/shops/${blueBottle.handle}/cards/address/${sam}`, bakery.key);
    expect(refusedFor.statusCode).toBe(403);
    expect((await get(`/api/pos/shops/${blueBottle.handle}/cards/address/${sam}`)).statusCode).toBe(401);

    // Nothing that spends or names the holder: neither identifier, the holder, a ledger nor an organisation id.
    for (const response of [byId, byAddress, atShop]) {
      for (const secret of [here.gift.identifier, here.loyalty.identifier, there.gift.identifier, blueBottle.orgId, bakery.orgId]) {
        expect(response.body).not.toContain(secret);
      }
      for (const field of ['"holder"', '"activities"', '"identifier"', '"order_number"']) expect(response.body).not.toContain(field);
    }
  });

  it('an address staff scan shows what it holds at their shop at once, before any POS card is made', async () => {
    const cafeOrg = await cafe('Scan Cafe');
    const customer = PrivateKey.fromRandom();
    const address = customer.toAddress('testnet');
    const loyalty = await post('/api/pos/loyalty-cards', cafeOrg.key, { org_handle: cafeOrg.handle, holder: { address } });
    for (const given of [address, customer.toPublicKey().toString()]) {
      const scanned = await get(`/api/pos/shops/${cafeOrg.handle}/cards/address/${given}`, cafeOrg.key);
      expect(scanned.statusCode, scanned.body).toBe(200);
      expect(scanned.json()).toEqual({
        shop_id: cafeOrg.handle,
        address,
        pos_card: null,
        prepaid_cards: [],
        loyalty_cards: [(await get(`/api/pos/loyalty-cards/${loyalty.id}`)).json()],
      });
    }
    const nothing = await get(
      `/api/pos/shops/${cafeOrg.handle}/cards/address/${PrivateKey.fromRandom().toAddress('testnet')}`,
      cafeOrg.key,
    );
    expect(nothing.json()).toMatchObject({ pos_card: null, prepaid_cards: [], loyalty_cards: [] });
    const bad = await get(`/api/pos/shops/${cafeOrg.handle}/cards/address/not-an-address`, cafeOrg.key);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.details.field).toBe('address');
  });
});
