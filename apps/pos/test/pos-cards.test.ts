import { PrivateKey } from '@bsv/sdk';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import type { CardHolder } from '@ctk/proto/ctk/pos/v1/cards';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from './order-stack.js';
import { newOrg, startTestPos } from './support.js';

let pos: Awaited<ReturnType<typeof startTestPos>>;
beforeAll(async () => {
  pos = await startTestPos();
});
afterAll(() => pos?.close());

/** A customer's own key: its compressed public key and its address on the test chain (testnet form). */
function customer() {
  const key = PrivateKey.fromRandom();
  return { publicKey: key.toPublicKey().toString(), address: key.toAddress([0x6f]), mainnet: key.toAddress([0x00]) };
}

/** What a test varies in a creation: the holder (some fields of it, or none) and the label. */
type CreateFields = { holder?: Partial<CardHolder> | undefined; label?: string };

const create = (org: OrgRef, fields: CreateFields = {}) =>
  pos.client.createPosCard({ org, holder: { address: customer().address }, ...fields });
const list = async (org: OrgRef, limit = 0, cursor = '') => pos.client.listShopCards({ org, limit, cursor });

describe('CreatePosCard', () => {
  it("makes the customer's card at the shop for an address, and answers the same card when asked again", async () => {
    const org = newOrg();
    const { address } = customer();
    const first = await create(org, { holder: { address }, label: 'Sam, oat flat white' });
    expect(first.created).toBe(true);
    expect(first.card).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      shopId: org.handle,
      address,
      publicKey: undefined,
      label: 'Sam, oat flat white',
      createdAt: expect.any(String),
      prepaidCards: [],
      loyaltyCards: [],
      organizationId: org.id,
    });
    expect(new Date(first.card!.createdAt).toISOString()).toBe(first.card!.createdAt);

    // Again, with another label: the card the address has, unchanged.
    const again = await create(org, { holder: { address }, label: 'Someone else' });
    expect(again).toEqual({ card: first.card, created: false });
    expect((await list(org)).cards).toEqual([first.card]);
  });

  it('takes a public key for its address, and the two together when they agree', async () => {
    const org = newOrg();
    const { publicKey, address } = customer();
    const { card, created } = await create(org, { holder: { publicKey: publicKey.toUpperCase() } });
    expect(created).toBe(true);
    expect(card).toMatchObject({ address, publicKey: publicKey.toLowerCase() });
    // The same address given as such is the same card.
    expect(await create(org, { holder: { address, publicKey } })).toEqual({ card, created: false });
  });

  it('is one card per shop: the same address at another shop is another card', async () => {
    const { address } = customer();
    const [a, b] = [newOrg(), newOrg()];
    const atA = (await create(a, { holder: { address } })).card!;
    const atB = (await create(b, { holder: { address } })).card!;
    expect(atB.id).not.toBe(atA.id);
    expect(atB).toMatchObject({ shopId: b.handle, organizationId: b.id, address });
  });

  it('makes one card of 20 concurrent creations for one address; each answers it, one as created', { tags: ['concurrency'] }, async () => {
    const org = newOrg();
    const { address } = customer();
    const answers = await Promise.all(Array.from({ length: 20 }, () => create(org, { holder: { address } })));
    expect(answers.filter((answer) => answer.created)).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.card!.id)).size).toBe(1);
    expect((await list(org)).cards).toHaveLength(1);
  });

  it('refuses a holder that is no address of this chain, and labels with control characters, naming the field, writing nothing', async () => {
    const org = newOrg();
    const { publicKey, mainnet } = customer();
    const other = customer();
    const cases: [CreateFields, string][] = [
      [{ holder: undefined }, 'holder.address'],
      [{ holder: { address: '', publicKey: '', userId: '' } }, 'holder.address'],
      [{ holder: { userId: '6d1b7c4e-8f0a-4b8e-9a51-3f3c1a2b9e77' } }, 'holder.address'],
      [{ holder: { address: mainnet } }, 'holder.address'],
      [{ holder: { address: 'not an address' } }, 'holder.address'],
      [{ holder: { address: `${other.address}\u0000` } }, 'holder.address'],
      [{ holder: { address: 'm'.repeat(10_000) } }, 'holder.address'],
      [{ holder: { publicKey: publicKey.slice(0, 64) } }, 'holder.public_key'],
      [{ holder: { publicKey: `04${publicKey.slice(2)}` } }, 'holder.public_key'],
      [{ holder: { publicKey: `02${'f'.repeat(64)}` } }, 'holder.public_key'],
      [{ holder: { publicKey, address: other.address } }, 'holder.address'],
      [{ label: 'Sam\u0000' }, 'label'],
      [{ label: 'Sam\u0007' }, 'label'],
      [{ label: 'Sam\nflat white' }, 'label'],
      [{ label: 'Sam \u202eetihw talf' }, 'label'],
      [{ label: 'x'.repeat(121) }, 'label'],
    ];
    for (const [fields, field] of cases) {
      const refused = await failure(create(org, fields));
      expect({ fields, code: refused.code, field: refused.details?.field }).toEqual({ fields, code: 'validation_failed', field });
    }
    expect((await list(org)).cards).toEqual([]);
  });
});

describe('GetPosCard', () => {
  it('answers a card by id, and not_found for an id no card has or that is no id', async () => {
    const { card } = await create(newOrg(), { label: 'Regular' });
    expect(await pos.client.getPosCard({ id: card!.id })).toEqual({ cards: [card] });
    for (const id of ['6d1b7c4e-8f0a-4b8e-9a51-3f3c1a2b9e77', 'not-an-id', `${card!.id}\u0000`]) {
      expect((await failure(pos.client.getPosCard({ id }))).code).toBe('not_found');
    }
  });

  it("answers an address's cards, one per shop, newest first; by its public key too; none is an empty list", async () => {
    const { address, publicKey, mainnet } = customer();
    const first = (await create(newOrg(), { holder: { address } })).card!;
    const second = (await create(newOrg(), { holder: { publicKey } })).card!;
    expect((await pos.client.getPosCard({ address })).cards.map((card) => card.id)).toEqual([second.id, first.id]);
    expect((await pos.client.getPosCard({ address: publicKey })).cards.map((card) => card.id)).toEqual([second.id, first.id]);
    expect(await pos.client.getPosCard({ address: customer().address })).toEqual({ cards: [] });

    for (const bad of [mainnet, 'not an address', `${address}\u202e`, publicKey.slice(0, 60)]) {
      const refused = await failure(pos.client.getPosCard({ address: bad }));
      expect({ bad, code: refused.code, field: refused.details?.field }).toEqual({ bad, code: 'validation_failed', field: 'address' });
    }
  });

  it('asks for the id or an address, one of them', async () => {
    expect((await failure(pos.client.getPosCard({}))).code).toBe('validation_failed');
    const { card } = await create(newOrg());
    expect((await failure(pos.client.getPosCard({ id: card!.id, address: card!.address }))).code).toBe('validation_failed');
  });
});

describe('ListShopCards', () => {
  it("lists the shop's cards newest first a page at a time, and no other shop's", async () => {
    const org = newOrg();
    const made = [];
    for (let n = 0; n < 5; n++) made.push((await create(org, { label: `Customer ${n}` })).card!);
    await create(newOrg());
    const newestFirst = [...made].reverse();

    const pages = [];
    let cursor = '';
    do {
      const page = await list(org, 2, cursor);
      pages.push(page.cards);
      cursor = page.nextCursor;
    } while (cursor);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(newestFirst);
    expect((await list(org)).cards).toEqual(newestFirst);
    expect(await list(newOrg())).toEqual({ cards: [], nextCursor: '' });
  });

  it('refuses a page size out of range and a cursor it did not issue', async () => {
    const org = newOrg();
    expect((await failure(list(org, 101))).details).toMatchObject({ field: 'limit' });
    expect((await failure(list(org, -1))).details).toMatchObject({ field: 'limit' });
    expect((await failure(list(org, 10, 'not-a-cursor'))).details).toMatchObject({ field: 'cursor' });
  });
});
