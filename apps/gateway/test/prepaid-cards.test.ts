import { PrivateKey } from '@bsv/sdk';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, onboard, startTestGateway, type Onboarded } from './harness.js';
import { startOrderStack } from './order-harness.js';
import { expectError, SERVICES_DOWN, uniqueName } from './support.js';

let stack: Awaited<ReturnType<typeof startOrderStack>>;
beforeAll(async () => {
  stack = await startOrderStack();
}, 180_000);
afterAll(() => stack?.close());

const IDENTIFIER = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/;
const PUBLIC_KEYS = ['balance_minor', 'currency', 'id', 'identifier_last4', 'merchant_handle', 'status'];
const inject = (options: InjectOptions) => stack.gateway.app.inject(options);
const post = (url: string, key: string | undefined, payload: object) =>
  inject({ method: 'POST', url, ...(key ? { headers: bearer(key) } : {}), payload });
const get = (url: string, key?: string) => inject({ method: 'GET', url, ...(key ? { headers: bearer(key) } : {}) });
const issue = (org: Onboarded, key: string, fields: object = {}) =>
  post('/api/pos/prepaid-cards', key, { org_handle: org.handle, amount_minor: 2500, currency: 'USD', ...fields });
const createOrder = async (org: Onboarded, unitPrice: number) => {
  const created = await post('/api/pos/orders', org.key, {
    org_handle: org.handle,
    lines: [{ name: 'Lunch', unit_price_minor: unitPrice }],
  });
  expect(created.statusCode).toBe(201);
  return created.json();
};

/** Pays the order by BIP270 through the gateway, as a customer's wallet does. */
async function pay(order: { order_number: string }) {
  const request = (await get(`/api/pos/orders/${order.order_number}/payment-request`)).json();
  const tx = await stack.paying(
    request.outputs.map((output: { script: string; amount: number }) => ({ script: output.script, satoshis: output.amount })),
  );
  const ack = await post(`/api/pos/orders/${order.order_number}/payment`, undefined, {
    transaction: tx.toHex(),
    merchantData: request.merchantData,
  });
  expect(ack.json()).toMatchObject({ error: 0 });
}

/** A card of the cafe, issued by its staff and paid for: active at 2500. */
async function activeCard(org: Onboarded) {
  const issued = (await issue(org, org.key)).json();
  await pay(issued.order);
  return { id: issued.card.id as string, identifier: issued.card.identifier as string };
}

let cafe: Onboarded;
let staffKey: string;
let otherShop: Onboarded;
beforeAll(async () => {
  cafe = await stack.walletOrg('Blue Bottle Cafe');
  staffKey = (await addMember(stack.gateway, cafe, 'staff')).key;
  otherShop = await stack.walletOrg('Corner Bakery');
});

describe('issuing and reading prepaid cards', () => {
  it('staff issue a pending card with its identifier and the order that sells it; paid, the card is active', async () => {
    const address = PrivateKey.fromRandom().toAddress('testnet');
    const issued = await issue(cafe, staffKey, { holder: { address } });
    expect(issued.statusCode).toBe(201);
    expect(issued.headers['cache-control']).toBe('no-store');
    const { card, order } = issued.json();
    expect(card).toMatchObject({
      merchant_handle: cafe.handle,
      currency: 'USD',
      status: 'pending',
      balance_minor: 0,
      initial_minor: 2500,
      order_number: order.order_number,
      activated_at: null,
      holder: { address, public_key: null },
      activities: [],
    });
    expect(card.identifier).toMatch(IDENTIFIER);
    expect(order).toMatchObject({
      status: 'open',
      total_minor: 2500,
      tax_minor: 0,
      tip_minor: 0,
      prepaid_card_id: card.id,
      card_paid_minor: 0,
    });
    expect(order.lines).toMatchObject([{ name: 'Gift card', tax_treatment: 'exempt' }]);

    await pay(order);
    const byId = await get(`/api/pos/prepaid-cards/${card.id}`);
    expect(byId.statusCode).toBe(200);
    expect(byId.json()).toEqual({
      id: card.id,
      merchant_handle: cafe.handle,
      currency: 'USD',
      status: 'active',
      balance_minor: 2500,
      identifier_last4: card.identifier.slice(-4),
    });
    expect(byId.headers['cache-control']).toBe('no-store');
    const byIdentifier = await get(`/api/pos/prepaid-cards/lookup/${encodeURIComponent(card.identifier.toLowerCase().replace(/-/g, ' '))}`);
    expect(byIdentifier.json()).toEqual(byId.json());
  });

  it('shows the public nothing but status and balance: no identifier, holder, ledger, order or organisation', async () => {
    const { id, identifier } = await activeCard(cafe);
    for (const url of [`/api/pos/prepaid-cards/${id}`, `/api/pos/prepaid-cards/lookup/${identifier}`]) {
      const answer = await get(url);
      expect(Object.keys(answer.json()).sort()).toEqual(PUBLIC_KEYS);
      expect(answer.body).not.toContain(identifier);
      // A key changes nothing: the read is the same public view for anyone.
      expect(Object.keys((await get(url, cafe.key)).json()).sort()).toEqual(PUBLIC_KEYS);
    }
  });

  it('answers 404 for an unknown card or identifier, 422 for what cannot be one', async () => {
    expectError(await get('/api/pos/prepaid-cards/6d1b7c4e-8f0a-4b8e-9a51-3f3c1a2b9e77'), 404, 'not_found');
    expectError(await get('/api/pos/prepaid-cards/lookup/ZZZZ-ZZZZ-ZZZZ-ZZZZ'), 404, 'not_found');
    expectError(await get('/api/pos/prepaid-cards/not-a-card'), 422, 'validation_failed');
    expectError(await get('/api/pos/prepaid-cards/lookup/ABCD'), 422, 'validation_failed');
    expectError(await get('/api/pos/prepaid-cards/lookup/ABCD%00-EFGH-JKMN-PQRS'), 422, 'validation_failed');
  });

  it("needs the staff role in the card's organisation to issue, use or transfer", async () => {
    const { id } = await activeCard(cafe);
    const outsider = await onboard(stack.gateway, uniqueName('Outsider'));
    const to = { address: PrivateKey.fromRandom().toAddress('testnet') };
    expectError(await issue(cafe, ''), 401, 'unauthenticated');
    expectError(await issue(cafe, outsider.key), 403, 'forbidden');
    expectError(await post(`/api/pos/prepaid-cards/${id}/transfer`, undefined, { org_handle: cafe.handle, to }), 401, 'unauthenticated');
    expectError(await post(`/api/pos/prepaid-cards/${id}/transfer`, outsider.key, { org_handle: cafe.handle, to }), 403, 'forbidden');
    expectError(await issue({ ...cafe, handle: 'no-such-shop-anywhere' }, cafe.key), 404, 'not_found');
  });
});

describe("the organisation's list", () => {
  it("shows staff their organisation's cards with balances and ledgers, never an identifier, and nobody else's", async () => {
    const { id, identifier } = await activeCard(otherShop);
    const list = await get(`/api/v1/orgs/${otherShop.handle}/prepaid-cards?limit=100`, otherShop.key);
    expect(list.statusCode).toBe(200);
    const card = (list.json().data as { id: string }[]).find((listed) => listed.id === id);
    expect(card).toMatchObject({ status: 'active', balance_minor: 2500, identifier: null, identifier_last4: identifier.slice(-4) });
    expect(JSON.stringify(list.json())).not.toContain(identifier);
    expect((card as unknown as { activities: { kind: string }[] }).activities.map((activity) => activity.kind)).toEqual(['issue']);
    expectError(await get(`/api/v1/orgs/${otherShop.handle}/prepaid-cards`, staffKey), 403, 'forbidden');
    expectError(await get(`/api/v1/orgs/${otherShop.handle}/prepaid-cards`), 401, 'unauthenticated');
    expectError(await get(`/api/v1/orgs/${otherShop.handle}/prepaid-cards?limit=0`, otherShop.key), 422, 'validation_failed');
  });
});

describe('using and transferring prepaid cards', () => {
  it('staff take a card for part of an order: the staff view, the order with the rest due, and the ledger entry', async () => {
    const { id, identifier } = await activeCard(cafe);
    const order = await createOrder(cafe, 4000);
    const used = await post(`/api/pos/prepaid-cards/${id}/use`, staffKey, {
      org_handle: cafe.handle,
      identifier,
      order_number: order.order_number,
    });
    expect(used.statusCode).toBe(200);
    const answer = used.json();
    expect(answer.card).toMatchObject({ id, status: 'empty', balance_minor: 0, holder: { address: null, public_key: null } });
    // Neither its identifier nor its ledger (decision 0051): the use's own entry is beside it.
    expect(Object.keys(answer.card)).not.toContain('identifier');
    expect(Object.keys(answer.card)).not.toContain('activities');
    expect(answer.order).toMatchObject({ status: 'open', card_paid_minor: 2500, satoshis: 150_000, due_satoshis: 150_000 });
    expect(answer.activity).toEqual({
      sequence: 2,
      kind: 'redeem',
      amount_minor: -2500,
      balance_after_minor: 0,
      order_number: order.order_number,
      occurred_at: expect.any(String),
    });
    expect(used.body).not.toContain(identifier);
    const empty = await post(`/api/pos/prepaid-cards/${id}/use`, staffKey, {
      org_handle: cafe.handle,
      identifier,
      order_number: order.order_number,
    });
    expectError(empty, 409, 'insufficient_balance');
    // Money in error details is an integer, as everywhere else.
    expect(empty.json().error.details).toEqual({ balance_minor: 0 });
  });

  it('draws once for a use retried with the same Idempotency-Key, and answers the retry as the first', async () => {
    const { id, identifier } = await activeCard(cafe);
    const order = await createOrder(cafe, 4000);
    const use = (key: string) =>
      inject({
        method: 'POST',
        url: `/api/pos/prepaid-cards/${id}/use`,
        headers: { ...bearer(staffKey), 'idempotency-key': key },
        payload: { org_handle: cafe.handle, identifier, order_number: order.order_number, amount_minor: 1000 },
      });
    const first = await use('till-2-use-1');
    const retried = await use('till-2-use-1');
    expect(first.statusCode).toBe(200);
    expect(retried.statusCode).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.json()).toEqual(first.json());
    expect((await get(`/api/pos/prepaid-cards/${id}`)).json().balance_minor).toBe(1500);
    // Another key is another use: the same amount drawn again.
    const second = await use('till-2-use-2');
    expect(second.json().card.balance_minor).toBe(500);
    expect(second.json().order.card_paid_minor).toBe(2000);
  });

  it("answers another organisation's staff 404 for the card, as for an unknown one, and a wrong identifier 404", async () => {
    const { id, identifier } = await activeCard(cafe);
    const theirs = await createOrder(otherShop, 500);
    const ours = await createOrder(cafe, 500);
    const to = { address: PrivateKey.fromRandom().toAddress('testnet') };
    expectError(
      await post(`/api/pos/prepaid-cards/${id}/use`, otherShop.key, {
        org_handle: otherShop.handle,
        identifier,
        order_number: theirs.order_number,
      }),
      404,
      'not_found',
    );
    expectError(await post(`/api/pos/prepaid-cards/${id}/transfer`, otherShop.key, { org_handle: otherShop.handle, to }), 404, 'not_found');
    const other = await activeCard(cafe);
    expectError(
      await post(`/api/pos/prepaid-cards/${id}/use`, staffKey, {
        org_handle: cafe.handle,
        identifier: other.identifier,
        order_number: ours.order_number,
      }),
      404,
      'not_found',
    );
    expect((await get(`/api/pos/prepaid-cards/${id}`)).json().balance_minor).toBe(2500);
  });

  it('transfers a card: a new holder and identifier answered once, the old identifier not found any more', async () => {
    const { id, identifier } = await activeCard(cafe);
    const key = PrivateKey.fromRandom();
    const moved = await post(`/api/pos/prepaid-cards/${id}/transfer`, staffKey, {
      org_handle: cafe.handle,
      to: { public_key: key.toPublicKey().toString() },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.headers['cache-control']).toBe('no-store');
    const card = moved.json();
    expect(card).toMatchObject({
      id,
      balance_minor: 2500,
      holder: { address: key.toAddress('testnet'), public_key: key.toPublicKey().toString() },
    });
    expect(card.identifier).toMatch(IDENTIFIER);
    expect(card.identifier).not.toBe(identifier);
    expectError(await get(`/api/pos/prepaid-cards/lookup/${identifier}`), 404, 'not_found');
    expect((await get(`/api/pos/prepaid-cards/lookup/${card.identifier}`)).json().id).toBe(id);
  });

  it('refuses bad input with a 422 naming the field, and changes nothing', async () => {
    const { id, identifier } = await activeCard(cafe);
    const order = await createOrder(cafe, 500);
    const use = (payload: object) =>
      post(`/api/pos/prepaid-cards/${id}/use`, staffKey, {
        org_handle: cafe.handle,
        identifier,
        order_number: order.order_number,
        ...payload,
      });
    const cases: [() => Promise<LightMyRequestResponse>, string][] = [
      [() => issue(cafe, staffKey, { amount_minor: 12.5 }), 'amount_minor'],
      [() => issue(cafe, staffKey, { amount_minor: '2500' }), 'amount_minor'],
      [() => issue(cafe, staffKey, { amount_minor: 1e20 }), 'amount_minor'],
      [() => issue(cafe, staffKey, { amount_minor: 0 }), 'amount_minor'],
      [() => issue(cafe, staffKey, { amount_minor: 100_000_001 }), 'amount_minor'],
      [() => issue(cafe, staffKey, { currency: 'dollars' }), 'currency'],
      [() => issue(cafe, staffKey, { holder: { address: 'mzBc4XEFSdzCDcTxAgf6EZXgsZWpztRhef\u202e' } }), 'holder.address'],
      [() => issue(cafe, staffKey, { holder: { user_id: 'someone' } }), 'user_id'],
      [() => issue(cafe, staffKey, { colour: 'gold' }), 'colour'],
      [() => use({ identifier: undefined }), 'identifier'],
      [() => use({ identifier: 'not-a-card' }), 'identifier'],
      [() => use({ amount_minor: -1 }), 'amount_minor'],
      [() => use({ amount_minor: 10_000_000_000_000 }), 'amount_minor'],
      [() => use({ order_number: 'ORDER' }), 'order_number'],
      [() => post(`/api/pos/prepaid-cards/${id}/transfer`, staffKey, { org_handle: cafe.handle, to: {} }), 'to.address'],
    ];
    for (const [call, field] of cases) {
      const answer = await call();
      expect({ field, status: answer.statusCode, code: answer.json().error?.code }).toEqual({
        field,
        status: 422,
        code: 'validation_failed',
      });
      expect(answer.body).toContain(field);
    }
    expect((await get(`/api/pos/prepaid-cards/${id}`)).json()).toMatchObject({ status: 'active', balance_minor: 2500 });
  });
});

describe('buying a card and the wallet', () => {
  it("any customer buys a shop's card without a role; it is in their wallet with its identifier, never their user id", async () => {
    const customer = await onboard(stack.gateway, uniqueName('Customer'));
    const bought = await post('/api/v1/prepaid-cards/purchase', customer.key, { org_handle: cafe.handle, amount_minor: 5000 });
    expect(bought.statusCode).toBe(201);
    const { card, order } = bought.json();
    expect(card).toMatchObject({ status: 'pending', initial_minor: 5000, holder: { address: null, public_key: null } });
    expect(card.identifier).toMatch(IDENTIFIER);
    expect(order).toMatchObject({ merchant_handle: cafe.handle, total_minor: 5000, prepaid_card_id: card.id });
    expect(order.pay_uri).toMatch(/^pay:\?r=/);
    await pay(order);

    const wallet = await get('/api/v1/wallet/prepaid-cards', customer.key);
    expect(wallet.statusCode).toBe(200);
    expect(wallet.json()).toMatchObject({
      data: [{ id: card.id, identifier: card.identifier, status: 'active', balance_minor: 5000 }],
      next_cursor: null,
    });
    expect(wallet.json().data[0].activities).toMatchObject([{ kind: 'issue', amount_minor: 5000 }]);
    expect(wallet.body).not.toContain(customer.userId);
    expect(bought.body).not.toContain(customer.userId);
    // Staff of the shop see the card (by using it) without the identifier or the user.
    const meal = await createOrder(cafe, 1000);
    const used = await post(`/api/pos/prepaid-cards/${card.id}/use`, staffKey, {
      org_handle: cafe.handle,
      identifier: card.identifier,
      order_number: meal.order_number,
    });
    expect(used.json().order).toMatchObject({ status: 'confirmed', card_paid_minor: 1000 });
    expect(used.body).not.toContain(customer.userId);
    expect(used.body).not.toContain(card.identifier);
    expect((await get('/api/v1/wallet/prepaid-cards', customer.key)).json().data[0].balance_minor).toBe(4000);
  });

  it('a gift is held by `to` or nobody, not by the buyer; `to` without gift, an unknown shop and no key are refused', async () => {
    const buyer = await onboard(stack.gateway, uniqueName('Gift Buyer'));
    const address = PrivateKey.fromRandom().toAddress('testnet');
    const gift = await post('/api/v1/prepaid-cards/purchase', buyer.key, {
      org_handle: cafe.handle,
      amount_minor: 2000,
      gift: true,
      to: { address },
    });
    expect(gift.statusCode).toBe(201);
    expect(gift.json().card).toMatchObject({ holder: { address, public_key: null } });
    expect(gift.json().card.identifier).toMatch(IDENTIFIER);
    const anonymous = await post('/api/v1/prepaid-cards/purchase', buyer.key, { org_handle: cafe.handle, amount_minor: 2000, gift: true });
    expect(anonymous.json().card.holder).toEqual({ address: null, public_key: null });
    expect((await get('/api/v1/wallet/prepaid-cards', buyer.key)).json()).toEqual({ data: [], next_cursor: null });

    expectError(
      await post('/api/v1/prepaid-cards/purchase', buyer.key, { org_handle: cafe.handle, amount_minor: 2000, to: { address } }),
      422,
      'validation_failed',
    );
    expectError(
      await post('/api/v1/prepaid-cards/purchase', buyer.key, { org_handle: 'no-such-shop-anywhere', amount_minor: 2000 }),
      404,
      'not_found',
    );
    expectError(
      await post('/api/v1/prepaid-cards/purchase', buyer.key, { org_handle: 'Not A Handle', amount_minor: 2000 }),
      422,
      'validation_failed',
    );
    expectError(
      await post('/api/v1/prepaid-cards/purchase', undefined, { org_handle: cafe.handle, amount_minor: 2000 }),
      401,
      'unauthenticated',
    );
    expectError(await get('/api/v1/wallet/prepaid-cards'), 401, 'unauthenticated');
  });

  it('replays an idempotent purchase with the same card and identifier, and lists the wallet a page at a time', async () => {
    const customer = await onboard(stack.gateway, uniqueName('Regular'));
    const buy = () =>
      inject({
        method: 'POST',
        url: '/api/v1/prepaid-cards/purchase',
        headers: { ...bearer(customer.key), 'idempotency-key': 'gift-card-1' },
        payload: { org_handle: cafe.handle, amount_minor: 1500 },
      });
    const [first, again] = [await buy(), await buy()];
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().card).toEqual(first.json().card);
    await post('/api/v1/prepaid-cards/purchase', customer.key, { org_handle: otherShop.handle, amount_minor: 700 });
    const page = (await get('/api/v1/wallet/prepaid-cards?limit=1', customer.key)).json();
    expect(page.data).toHaveLength(1);
    expect(page.data[0].merchant_handle).toBe(otherShop.handle);
    const next = (await get(`/api/v1/wallet/prepaid-cards?limit=1&cursor=${page.next_cursor}`, customer.key)).json();
    expect(next).toMatchObject({ data: [{ id: first.json().card.id, identifier: first.json().card.identifier }], next_cursor: null });
  });
});

describe('limits and the document', () => {
  it('limits each public read per client address', async () => {
    const { id, identifier } = await activeCard(cafe);
    const limited = await startTestGateway({ ...SERVICES_DOWN, POS_GRPC_URL: stack.posUrl, CTK_CARD_LOOKUP_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      for (const url of [`/api/pos/prepaid-cards/${id}`, `/api/pos/prepaid-cards/lookup/${identifier}`]) {
        const read = (remoteAddress: string) => limited.app.inject({ method: 'GET', url, remoteAddress });
        for (let i = 0; i < 3; i++) expect((await read('203.0.113.7')).statusCode).toBe(200);
        expectError(await read('203.0.113.7'), 429, 'rate_limited');
        expect((await read('203.0.113.8')).statusCode).toBe(200);
      }
    } finally {
      await limited.close();
    }
  });

  it('documents each prepaid card operation with its answers and errors, and the real answers match the document', async () => {
    const doc = (await get('/api/v1/openapi.json')).json();
    const operation = (method: string, path: string) => doc.paths[path][method];
    const statuses = (method: string, path: string) => Object.keys(operation(method, path).responses).sort();
    expect(statuses('post', '/api/pos/prepaid-cards')).toEqual(expect.arrayContaining(['201', '401', '403', '404', '422']));
    expect(statuses('post', '/api/pos/prepaid-cards/{id}/use')).toEqual(expect.arrayContaining(['200', '404', '409', '422']));
    // A use honours Idempotency-Key, and the document says so; a read takes none.
    const headers = (method: string, path: string) =>
      (operation(method, path).parameters as Array<{ in: string; name: string }>).filter((p) => p.in === 'header').map((p) => p.name);
    expect(headers('post', '/api/pos/prepaid-cards/{id}/use')).toContain('Idempotency-Key');
    expect(headers('get', '/api/pos/prepaid-cards/{id}')).not.toContain('Idempotency-Key');
    expect(statuses('get', '/api/pos/prepaid-cards/lookup/{identifier}')).toEqual(expect.arrayContaining(['200', '404', '422', '429']));
    expect(statuses('post', '/api/v1/prepaid-cards/purchase')).not.toContain('501');
    expect(statuses('get', '/api/v1/wallet/prepaid-cards')).not.toContain('501');

    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const id = 'https://commerce-toolkit.test/openapi.json';
    ajv.addSchema({ ...doc, $id: id });
    const matches = (method: string, path: string, status: number, body: unknown) => {
      const schema = operation(method, path).responses[String(status)].content['application/json'].schema;
      const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${id}#/components/`)));
      expect(validate(body) ? [] : validate.errors, `${method} ${path}`).toEqual([]);
    };
    const issued = await issue(cafe, staffKey);
    matches('post', '/api/pos/prepaid-cards', 201, issued.json());
    await pay(issued.json().order);
    const { card } = issued.json();
    matches('get', '/api/pos/prepaid-cards/{id}', 200, (await get(`/api/pos/prepaid-cards/${card.id}`)).json());
    matches(
      'get',
      '/api/pos/prepaid-cards/lookup/{identifier}',
      200,
      (await get(`/api/pos/prepaid-cards/lookup/${card.identifier}`)).json(),
    );
    const order = await createOrder(cafe, 900);
    const used = await post(`/api/pos/prepaid-cards/${card.id}/use`, staffKey, {
      org_handle: cafe.handle,
      identifier: card.identifier,
      order_number: order.order_number,
      amount_minor: 400,
    });
    matches('post', '/api/pos/prepaid-cards/{id}/use', 200, used.json());
    const moved = await post(`/api/pos/prepaid-cards/${card.id}/transfer`, staffKey, {
      org_handle: cafe.handle,
      to: { address: PrivateKey.fromRandom().toAddress('testnet') },
    });
    matches('post', '/api/pos/prepaid-cards/{id}/transfer', 200, moved.json());
    const customer = await onboard(stack.gateway, uniqueName('Documented'));
    matches(
      'post',
      '/api/v1/prepaid-cards/purchase',
      201,
      (await post('/api/v1/prepaid-cards/purchase', customer.key, { org_handle: cafe.handle, amount_minor: 900 })).json(),
    );
    matches('get', '/api/v1/wallet/prepaid-cards', 200, (await get('/api/v1/wallet/prepaid-cards', customer.key)).json());
  });
});
