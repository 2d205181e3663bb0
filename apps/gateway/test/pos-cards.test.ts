import { PrivateKey } from '@bsv/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, onboard, type Onboarded, type Gateway } from './harness.js';
import { startPosStack } from './pos-harness.js';
import { expectError, uniqueName } from './support.js';

let stack: Awaited<ReturnType<typeof startPosStack>>;
let gateway: Gateway;
beforeAll(async () => {
  stack = await startPosStack();
  gateway = stack.gateway;
}, 60_000);
afterAll(() => stack?.close());

/** A customer's own key: its public key, its address on the test chain (pos runs on the local chain: testnet form), and its mainnet address. */
function customer() {
  const key = PrivateKey.fromRandom();
  return { publicKey: key.toPublicKey().toString(), address: key.toAddress([0x6f]), mainnet: key.toAddress([0x00]) };
}

const send = (method: 'GET' | 'POST', url: string, key?: string, payload?: object, headers: Record<string, string> = {}) =>
  gateway.app.inject({ method, url, headers: { ...(key ? bearer(key) : {}), ...headers }, ...(payload ? { payload } : {}) });
const createCard = (org: Onboarded, body: object, key = org.key) =>
  send('POST', '/api/pos/cards', key, { org_handle: org.handle, ...body });
const listCards = (org: Onboarded, key = org.key, query = '') => send('GET', `/api/pos/shops/${org.handle}/cards${query}`, key);
const publicFields = ['id', 'shop_id', 'address', 'public_key', 'created_at'];

describe('POS cards for staff', () => {
  it("staff make a customer's card (201), the same address again answers it (200, created false); each member role may", async () => {
    const org = await onboard(gateway, uniqueName('Blue Bottle'));
    const staff = await addMember(gateway, org, 'staff');
    const admin = await addMember(gateway, org, 'admin');
    const { address } = customer();

    const created = await createCard(org, { holder: { address }, label: 'Sam, oat flat white' }, staff.key);
    expect(created.statusCode).toBe(201);
    const card = created.json();
    expect(card).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      shop_id: org.handle,
      address,
      public_key: null,
      label: 'Sam, oat flat white',
      created_at: expect.any(String),
      prepaid_cards: [],
      loyalty_cards: [],
      created: true,
    });
    expect(created.body).not.toContain(org.orgId);

    const again = await createCard(org, { holder: { address }, label: 'Another label' }, admin.key);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ...card, created: false });

    const { created: _, ...listed } = card;
    const list = await listCards(org, staff.key);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ data: [listed], next_cursor: null });
    expect(list.body).not.toContain(org.orgId);
  });

  it("refuses another organisation's members, and callers without a key; a shop lists its own cards only", async () => {
    const org = await onboard(gateway, uniqueName('Home Cafe'));
    const outsider = await onboard(gateway, uniqueName('Other Cafe'));
    const { address } = customer();
    expect((await createCard(org, { holder: { address } })).statusCode).toBe(201);

    expectError(await createCard(org, { holder: { address } }, outsider.key), 403, 'forbidden');
    expectError(await listCards(org, outsider.key), 403, 'forbidden');
    expectError(await send('POST', '/api/pos/cards', undefined, { org_handle: org.handle, holder: { address } }), 401, 'unauthenticated');
    expectError(await send('GET', `/api/pos/shops/${org.handle}/cards`), 401, 'unauthenticated');
    expectError(await send('GET', '/api/pos/shops/no-such-shop-here/cards', org.key), 404, 'not_found');
    expectError(await send('GET', '/api/pos/shops/Not%20A%20Handle/cards', org.key), 422, 'validation_failed');
    expectError(await send('POST', '/api/pos/cards', org.key, { holder: { address } }), 422, 'validation_failed');
    // The outsider's own shop has none of them; the same address there is another card.
    expect((await listCards(outsider)).json()).toEqual({ data: [], next_cursor: null });
    const there = await createCard(outsider, { holder: { address } });
    expect(there.statusCode).toBe(201);
    expect(there.json().shop_id).toBe(outsider.handle);
  });

  it('refuses bad holders and labels with 422 naming the field, writing nothing', async () => {
    const org = await onboard(gateway, uniqueName('Strict Cafe'));
    const { publicKey, mainnet } = customer();
    const other = customer();
    for (const [body, field] of [
      [{}, 'holder'],
      [{ holder: {} }, 'holder.address'],
      [{ holder: { address: mainnet } }, 'holder.address'],
      [{ holder: { address: 'not an address' } }, 'holder.address'],
      [{ holder: { address: 12345 } }, 'address'],
      [{ holder: { address: 'm'.repeat(101) } }, 'address'],
      [{ holder: { address: other.address, user_id: 'x' } }, 'user_id'],
      [{ holder: { public_key: publicKey.slice(0, 64) } }, 'holder.public_key'],
      [{ holder: { public_key: `04${publicKey.slice(2)}` } }, 'holder.public_key'],
      [{ holder: { public_key: publicKey, address: other.address } }, 'holder.address'],
      [{ holder: { address: other.address }, label: 'Sam\u0007' }, 'label'],
      [{ holder: { address: other.address }, label: 'Sam\nflat white' }, 'label'],
      [{ holder: { address: other.address }, label: 'Sam \u202eetihw talf' }, 'label'],
      [{ holder: { address: other.address }, label: 'x'.repeat(121) }, 'label'],
      [{ holder: { address: other.address }, label: 42 }, 'label'],
      [{ holder: { address: other.address }, colour: 'blue' }, 'colour'],
    ] as const) {
      const response = await createCard(org, body);
      expect({ body, status: response.statusCode, code: response.json().error?.code }).toEqual({
        body,
        status: 422,
        code: 'validation_failed',
      });
      expect(JSON.stringify(response.json().error)).toContain(field);
    }
    expectError(await createCard(org, { holder: { address: `${other.address}\u0000` } }), 422, 'validation_failed');
    expectError(await createCard(org, { holder: { address: other.address }, label: 'Sam\u0000' }), 422, 'validation_failed');
    expect((await listCards(org)).json().data).toEqual([]);
  });

  it('makes one card of 20 concurrent creations for one address: one 201, nineteen 200, one id', { tags: ['concurrency'] }, async () => {
    const org = await onboard(gateway, uniqueName('Busy Cafe'));
    const { address } = customer();
    const answers = await Promise.all(Array.from({ length: 20 }, () => createCard(org, { holder: { address } })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, ...Array(19).fill(200)].sort());
    expect(new Set(answers.map((answer) => answer.json().id)).size).toBe(1);
    expect((await listCards(org)).json().data).toHaveLength(1);
  });

  it("lists the shop's cards newest first, a page at a time", async () => {
    const org = await onboard(gateway, uniqueName('Paged Cafe'));
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) ids.push((await createCard(org, { holder: { address: customer().address } })).json().id);
    const first = (await listCards(org, org.key, '?limit=2')).json();
    const second = (await listCards(org, org.key, `?limit=2&cursor=${first.next_cursor}`)).json();
    expect([...first.data, ...second.data].map((card: { id: string }) => card.id)).toEqual(ids.reverse());
    expect(second.next_cursor).toBeNull();
    expectError(await listCards(org, org.key, '?limit=0'), 422, 'validation_failed');
    expectError(await listCards(org, org.key, '?cursor=not-a-cursor'), 422, 'validation_failed');
  });
});

describe('POS cards for anyone', () => {
  it('reads a card by id with its public fields only: no label, no organisation id', async () => {
    const org = await onboard(gateway, uniqueName('Public Cafe'));
    const { publicKey, address } = customer();
    const card = (await createCard(org, { holder: { public_key: publicKey }, label: 'Secret nickname' })).json();
    expect(card.address).toBe(address);
    const response = await send('GET', `/api/pos/cards/${card.id}`);
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json()).sort()).toEqual([...publicFields].sort());
    expect(response.json()).toEqual({
      id: card.id,
      shop_id: org.handle,
      address,
      public_key: publicKey,
      created_at: card.created_at,
    });
    for (const secret of ['Secret nickname', org.orgId, 'label', 'organization']) expect(response.body).not.toContain(secret);
    expectError(await send('GET', '/api/pos/cards/6d1b7c4e-8f0a-4b8e-9a51-3f3c1a2b9e77'), 404, 'not_found');
    expectError(await send('GET', '/api/pos/cards/not-a-card'), 422, 'validation_failed');
  });

  it("reads an address's cards, one per shop, by the address or its public key; refuses addresses of another network", async () => {
    const [first, second] = [await onboard(gateway, uniqueName('First Cafe')), await onboard(gateway, uniqueName('Second Cafe'))];
    const { publicKey, address, mainnet } = customer();
    const atFirst = (await createCard(first, { holder: { address }, label: 'Regular' })).json();
    const atSecond = (await createCard(second, { holder: { public_key: publicKey } })).json();

    for (const given of [address, publicKey]) {
      const response = await send('GET', `/api/pos/cards/address/${given}`);
      expect(response.statusCode).toBe(200);
      const { data } = response.json();
      expect(data.map((card: { id: string; shop_id: string }) => [card.id, card.shop_id])).toEqual([
        [atSecond.id, second.handle],
        [atFirst.id, first.handle],
      ]);
      for (const card of data) expect(Object.keys(card).sort()).toEqual([...publicFields].sort());
      expect(response.body).not.toContain('Regular');
    }
    expect((await send('GET', `/api/pos/cards/address/${customer().address}`)).json()).toEqual({ data: [] });

    for (const bad of [mainnet, 'not-an-address', `${address}%E2%80%AE`, `${address}%07`, 'x'.repeat(101)]) {
      const response = await send('GET', `/api/pos/cards/address/${bad}`);
      expect({ bad, status: response.statusCode, code: response.json().error?.code }).toEqual({
        bad,
        status: 422,
        code: 'validation_failed',
      });
      expect(JSON.stringify(response.json().error)).toContain('address');
    }
    expectError(await send('GET', `/api/pos/cards/address/${address}%00`), 422, 'validation_failed');
  });
});
