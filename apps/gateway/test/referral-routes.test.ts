import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, onboard } from './harness.js';
import { uniqueName } from './support.js';
import { startTokenStack, type TokenStack } from './token-harness.js';

let stack: TokenStack;
let origin: string;
beforeAll(async () => {
  stack = await startTokenStack();
  // The buyer's wallet reads the payment request and posts its payment over HTTP, as it would from a phone.
  origin = `http://127.0.0.1:${(stack.gateway.app.server.address() as { port: number }).port}`;
}, 120_000);
afterAll(async () => stack?.close());

const call = (method: 'GET' | 'POST', url: string, key?: string, payload?: unknown) =>
  stack.gateway.app.inject({
    method,
    url,
    headers: { host: new URL(origin).host, ...(key ? bearer(key) : {}) },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

/** A shop selling cold brew at $4.00, and a referral link giving Coffee Weekly 10% of it. */
async function referredShop(label: string) {
  const shop = await stack.merchant(label, 0);
  const item = await call('POST', `/api/v1/orgs/${shop.handle}/items`, shop.key, { name: 'Cold brew', price_cents: 400, currency: 'USD' });
  expect(item.statusCode, item.body).toBe(201);
  const referrer = await stack.newWallet(0);
  const link = {
    item_id: item.json().id,
    referrer_name: 'Coffee Weekly',
    referrer_address: referrer.address,
    commission_basis_points: 1_000,
  };
  return { shop, referrer, link };
}

describe('referral covenants through the API', () => {
  it('staff make a link; a buyer checks out through it and pays the covenant with `ctk-wallet pay`; the referrer is paid on the chain', async () => {
    const { shop, referrer, link } = await referredShop('Referral Roasters');
    const staff = await addMember(stack.gateway, shop, 'staff');
    const created = await call('POST', `/api/v1/orgs/${shop.handle}/referral-links`, staff.key, link);
    expect(created.statusCode, created.body).toBe(201);
    const referral = created.json();
    expect(referral).toMatchObject({ item_name: 'Cold brew', price_minor: 400, currency: 'USD', commission_basis_points: 1_000, sales: 0 });
    expect(referral.url).toBe(`${origin}/r/${referral.id}`);
    expect((await call('GET', `/api/v1/referral-links/${referral.id}`)).json()).toMatchObject({
      id: referral.id,
      referrer_name: 'Coffee Weekly',
    });

    const opened = await call('POST', `/api/v1/referral-links/${referral.id}/checkouts`);
    expect(opened.statusCode, opened.body).toBe(201);
    const checkout = opened.json();
    expect(checkout).toMatchObject({
      status: 'awaiting_payment',
      total_minor: 400,
      commission_minor: 40,
      satoshis: 40_000,
      commission_satoshis: 4_000,
    });
    expect(checkout.pay_uri).toBe(`pay:?r=${encodeURIComponent(`${origin}/api/v1/referral-checkouts/${checkout.id}/payment-request`)}`);
    const request = (await call('GET', `/api/v1/referral-checkouts/${checkout.id}/payment-request`)).json();
    expect(request).toMatchObject({
      network: 'bitcoin-sv',
      outputs: [{ script: checkout.covenant_script, amount: checkout.funding_satoshis }],
    });

    const qr = await call('GET', `/api/v1/referral-checkouts/${checkout.id}/qr`);
    expect([qr.statusCode, qr.headers['content-type']]).toEqual([200, 'image/svg+xml']);
    expect(qr.body).toMatch(/^<svg/);
    expect((await call('GET', `/api/v1/referral-checkouts/${checkout.id}/qr?format=png`)).headers['content-type']).toBe('image/png');
    expect((await call('GET', `/api/v1/referral-checkouts/${checkout.id}/qr?format=gif`)).statusCode).toBe(422);

    const buyer = await stack.newWallet(200_000);
    const paid = await stack.walletCommand<{ txid: string; via: string }>(buyer.file, 'pay', checkout.pay_uri);
    expect(paid.via).toBe('payment request (acknowledged, broadcast)');
    const done = (await call('GET', `/api/v1/referral-checkouts/${checkout.id}`)).json();
    expect(done).toMatchObject({ status: 'paid', funding_txid: paid.txid });
    expect(await stack.chain.listUnspent(referrer.address)).toEqual([expect.objectContaining({ txid: done.spend_txid, satoshis: 4_000 })]);
    expect((await call('GET', `/api/v1/orgs/${shop.handle}/referral-checkouts`, staff.key)).json().data).toEqual([done]);
    expect((await call('GET', `/api/v1/orgs/${shop.handle}/referral-links`, staff.key)).json().data).toEqual([
      { ...referral, sales: 1, commission_paid_satoshis: 4_000 },
    ]);
    const order = (await call('GET', `/api/pos/orders/${checkout.order_number}`)).json();
    expect(order).toMatchObject({ status: 'paid', commission_minor: 40, commission_satoshis: 4_000, commission_address: referrer.address });
  });

  it('needs the shop’s staff to make and list links, and refuses bad input with a 4xx, never a 500', async () => {
    const { shop, link } = await referredShop('Referral Guard');
    const stranger = await onboard(stack.gateway, uniqueName('Elsewhere'));
    const url = `/api/v1/orgs/${shop.handle}/referral-links`;
    expect((await call('POST', url, undefined, link)).statusCode).toBe(401);
    expect((await call('POST', url, stranger.key, link)).statusCode).toBe(403);
    expect((await call('GET', url, stranger.key)).statusCode).toBe(403);
    expect((await call('GET', `/api/v1/orgs/${shop.handle}/referral-checkouts`, stranger.key)).statusCode).toBe(403);
    for (const bad of [
      {},
      { ...link, item_id: 'latte' },
      { ...link, commission_basis_points: 0 },
      { ...link, commission_basis_points: 5_001 },
      { ...link, commission_basis_points: 2.5 },
      { ...link, referrer_address: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT' },
      { ...link, referrer_name: 'Coffee\u0000Weekly' },
      { ...link, extra: 1 },
    ]) {
      const answer = await call('POST', url, shop.key, bad);
      expect([answer.statusCode, JSON.stringify(bad)]).toEqual([422, JSON.stringify(bad)]);
    }
    // Another shop's item is not this shop's to refer.
    const theirs = await call('POST', `/api/v1/orgs/${stranger.handle}/items`, stranger.key, {
      name: 'Tea',
      price_cents: 300,
      currency: 'USD',
    });
    expect((await call('POST', url, shop.key, { ...link, item_id: theirs.json().id })).statusCode).toBe(422);
    const referral = (await call('POST', url, shop.key, link)).json();
    const checkout = (await call('POST', `/api/v1/referral-links/${referral.id}/checkouts`)).json();
    for (const [method, path, payload, status] of [
      ['GET', '/api/v1/referral-links/ref_AAAAAAAAAAAAAAAAAAAAAAAA', undefined, 404],
      ['GET', '/api/v1/referral-links/not-a-link', undefined, 422],
      ['POST', '/api/v1/referral-links/ref_AAAAAAAAAAAAAAAAAAAAAAAA/checkouts', undefined, 404],
      ['GET', '/api/v1/referral-checkouts/rco_AAAAAAAAAAAAAAAAAAAAAAAA', undefined, 404],
      ['GET', '/api/v1/referral-checkouts/rco_%00', undefined, 422],
      ['POST', `/api/v1/referral-checkouts/${checkout.id}/payment`, { transaction: 'zz' }, 422],
      ['POST', `/api/v1/referral-checkouts/${checkout.id}/payment`, {}, 422],
      ['POST', '/api/v1/referral-checkouts/rco_AAAAAAAAAAAAAAAAAAAAAAAA/payment', { transaction: '00' }, 404],
    ] as const) {
      const answer = await call(method, path, undefined, payload);
      expect([answer.statusCode, path, JSON.stringify(payload)]).toEqual([status, path, JSON.stringify(payload)]);
    }

    // Disabling: the shop's staff only, its own links only; disabled, the link opens no checkout.
    const disable = (handle: string, id: string, key?: string) => call('POST', `/api/v1/orgs/${handle}/referral-links/${id}/disable`, key);
    expect((await disable(shop.handle, referral.id)).statusCode).toBe(401);
    expect((await disable(shop.handle, referral.id, stranger.key)).statusCode).toBe(403);
    expect((await disable(stranger.handle, referral.id, stranger.key)).statusCode).toBe(404);
    expect((await disable(shop.handle, 'ref_%00', shop.key)).statusCode).toBe(422);
    const disabled = await disable(shop.handle, referral.id, shop.key);
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json()).toMatchObject({ id: referral.id, disabled_at: expect.any(String) });
    expect((await call('GET', `/api/v1/referral-links/${referral.id}`)).json().disabled_at).toBe(disabled.json().disabled_at);
    const refused = await call('POST', `/api/v1/referral-links/${referral.id}/checkouts`);
    expect([refused.statusCode, refused.json().error.details.reason]).toEqual([409, 'link_disabled']);
  });
});
