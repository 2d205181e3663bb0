import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, onboard } from './harness.js';
import { uniqueName } from './support.js';
import { startTokenStack, type TokenStack } from './token-harness.js';

let stack: TokenStack;
beforeAll(async () => {
  stack = await startTokenStack();
}, 120_000);
afterAll(async () => stack?.close());

const call = (method: 'GET' | 'POST', url: string, key?: string, payload?: unknown) =>
  stack.gateway.app.inject({
    method,
    url,
    headers: key ? bearer(key) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

type Wallet = Awaited<ReturnType<TokenStack['newWallet']>>;
/** A party hands in what its wallet signed of a joint transaction, as the escrow's next steps say. */
async function handIn(wallet: Wallet, joint: { id: string; transaction: string }) {
  const { transaction } = await stack.walletCommand<{ transaction: string }>(
    wallet.file,
    'sign-transaction',
    '--partial',
    joint.transaction,
  );
  const answer = await call('POST', `/api/v1/joint-transactions/${joint.id}/signatures`, undefined, { transaction });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json();
}

describe('an escrow through the API', () => {
  it('staff agree it; the buyer funds it and the arbiter and buyer refund it, each with only the escrow’s id', async () => {
    const shop = await stack.merchant('Escrow Joinery');
    const staff = await addMember(stack.gateway, shop, 'staff');
    const [buyer, arbiter] = [await stack.newWallet(100_000), await stack.newWallet(0)];
    const created = await call('POST', `/api/v1/orgs/${shop.handle}/escrows`, staff.key, {
      buyer_public_key: buyer.public_key,
      arbiter_public_key: arbiter.public_key,
      satoshis: 40_000,
      description: 'Oak table',
    });
    expect(created.statusCode, created.body).toBe(201);
    const escrow = created.json();
    expect(escrow).toMatchObject({
      status: 'awaiting_funding',
      seller_public_key: shop.wallet.public_key,
      satoshis: 40_000,
      refund_address: buyer.address,
    });
    expect((await call('GET', `/api/v1/escrows/${escrow.id}`)).json()).toEqual(escrow);

    const [coin] = await stack.chain.listUnspent(buyer.address);
    const funding = await call('POST', `/api/v1/escrows/${escrow.id}/funding`, undefined, {
      inputs: [{ txid: coin!.txid, vout: coin!.vout }],
      change_address: buyer.address,
    });
    expect(funding.statusCode, funding.body).toBe(200);
    await handIn(buyer, funding.json().funding);
    expect((await call('GET', `/api/v1/escrows/${escrow.id}`)).json().status).toBe('funded');

    const refund = (await call('POST', `/api/v1/escrows/${escrow.id}/settlement`, undefined, { outcome: 'refund' })).json();
    expect(refund).toMatchObject({ status: 'settling', refund: { outputs: [{ address: buyer.address }] } });
    await handIn(arbiter, refund.refund);
    expect((await handIn(buyer, refund.refund)).status).toBe('broadcast');
    const done = (await call('GET', `/api/v1/escrows/${escrow.id}`)).json();
    expect(done).toMatchObject({ status: 'refunded', next_steps: [] });
    expect((await call('GET', `/api/v1/orgs/${shop.handle}/escrows`, staff.key)).json().data).toEqual([done]);
  });

  it('pays a pos order: staff agree it by the order’s number; funded, the order is paid into the escrow', async () => {
    const shop = await stack.merchant('Escrow Cabinetry');
    const staff = await addMember(stack.gateway, shop, 'staff');
    const [buyer, arbiter] = [await stack.newWallet(1_000_000), await stack.newWallet(0)];
    const placed = await call('POST', '/api/pos/orders', staff.key, {
      org_handle: shop.handle,
      lines: [{ name: 'Walnut shelf', quantity: 1, unit_price_minor: 4_500 }],
    });
    expect(placed.statusCode, placed.body).toBe(201);
    const order = placed.json();
    const created = await call('POST', `/api/v1/orgs/${shop.handle}/escrows`, staff.key, {
      buyer_public_key: buyer.public_key,
      arbiter_public_key: arbiter.public_key,
      order_number: order.order_number,
    });
    expect(created.statusCode, created.body).toBe(201);
    const escrow = created.json();
    expect(escrow).toMatchObject({
      order_number: order.order_number,
      order_total_minor: order.total_minor,
      currency: order.currency,
      order_payment: 'pending',
      description: `Order ${order.order_number}`,
    });
    expect(escrow.satoshis).toBeGreaterThan(order.due_satoshis);

    const [coin] = await stack.chain.listUnspent(buyer.address);
    const funding = await call('POST', `/api/v1/escrows/${escrow.id}/funding`, undefined, {
      inputs: [{ txid: coin!.txid, vout: coin!.vout }],
      change_address: buyer.address,
    });
    await handIn(buyer, funding.json().funding);
    expect((await call('GET', `/api/v1/escrows/${escrow.id}`)).json()).toMatchObject({ status: 'funded', order_payment: 'paid' });
    expect((await call('GET', `/api/pos/orders/${order.order_number}`)).json()).toMatchObject({
      status: 'paid_elsewhere',
      paid_elsewhere_by: 'escrow',
    });
    // One escrow holds the order: a second one for it is refused.
    const again = await call('POST', `/api/v1/orgs/${shop.handle}/escrows`, staff.key, {
      buyer_public_key: buyer.public_key,
      arbiter_public_key: arbiter.public_key,
      order_number: order.order_number,
    });
    expect([again.statusCode, again.json().error.details.reason]).toEqual([409, 'paid_elsewhere']);
  });

  it('needs the shop’s staff to agree and list, and refuses bad input with a 4xx, never a 500', async () => {
    const shop = await stack.merchant('Escrow Guard');
    const stranger = await onboard(stack.gateway, uniqueName('Elsewhere'));
    const [buyer, arbiter] = [await stack.newWallet(0), await stack.newWallet(0)];
    const body = { buyer_public_key: buyer.public_key, arbiter_public_key: arbiter.public_key, satoshis: 40_000 };
    const url = `/api/v1/orgs/${shop.handle}/escrows`;
    expect((await call('POST', url, undefined, body)).statusCode).toBe(401);
    expect((await call('POST', url, stranger.key, body)).statusCode).toBe(403);
    expect((await call('GET', url, stranger.key)).statusCode).toBe(403);
    for (const bad of [
      {},
      { ...body, buyer_public_key: 'xyz' },
      { ...body, arbiter_public_key: body.buyer_public_key },
      { ...body, satoshis: 999 },
      { ...body, satoshis: 1.5 },
      { ...body, release_address: 'nope' },
      { ...body, description: 'a\u0000b' },
      { ...body, extra: 1 },
      { ...body, order_number: '7Q2M7Q2M7Q' },
      { buyer_public_key: body.buyer_public_key, arbiter_public_key: body.arbiter_public_key },
      { buyer_public_key: body.buyer_public_key, arbiter_public_key: body.arbiter_public_key, order_number: '7Q2M7Q2M7Q' },
      { buyer_public_key: body.buyer_public_key, arbiter_public_key: body.arbiter_public_key, order_number: '7Q2M\u0000' },
    ]) {
      const answer = await call('POST', url, shop.key, bad);
      expect([answer.statusCode, JSON.stringify(bad)]).toEqual([422, JSON.stringify(bad)]);
    }
    const escrow = (await call('POST', url, shop.key, body)).json();
    for (const [path, payload, status] of [
      [`/api/v1/escrows/${escrow.id}/settlement`, { outcome: 'release' }, 409],
      [`/api/v1/escrows/${escrow.id}/settlement`, { outcome: 'keep' }, 422],
      [`/api/v1/escrows/${escrow.id}/funding`, { inputs: [], change_address: buyer.address }, 422],
      [`/api/v1/escrows/${escrow.id}/funding`, { inputs: [{ txid: 'ab'.repeat(32), vout: 0 }], change_address: buyer.address }, 409],
      [`/api/v1/escrows/esc_AAAAAAAAAAAAAAAAAAAAAAAA/settlement`, { outcome: 'refund' }, 404],
      [`/api/v1/escrows/not-an-id/settlement`, { outcome: 'refund' }, 422],
    ] as const) {
      const answer = await call('POST', path, undefined, payload);
      expect([answer.statusCode, path, JSON.stringify(payload)]).toEqual([status, path, JSON.stringify(payload)]);
    }
  });
});
