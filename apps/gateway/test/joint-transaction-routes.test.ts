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

async function coinOf(address: string) {
  const [coin] = await stack.chain.listUnspent(address);
  return { txid: coin!.txid, vout: coin!.vout, satoshis: coin!.satoshis };
}

describe('jointly signed transactions through the API', () => {
  it('staff build one, each partner reads it by its id and hands back what its wallet signed; complete, it is broadcast', async () => {
    const shop = await stack.merchant('Joint Roasters');
    const staff = await addMember(stack.gateway, shop, 'staff');
    const [a, b] = [await stack.newWallet(100_000), await stack.newWallet(100_000)];
    const [coinA, coinB] = [await coinOf(a.address), await coinOf(b.address)];
    const created = await call('POST', `/api/v1/orgs/${shop.handle}/joint-transactions`, staff.key, {
      inputs: [coinA, coinB].map(({ txid, vout }) => ({ txid, vout })),
      outputs: [{ address: shop.wallet.address, satoshis: 199_000 }],
      description: 'Market stall, split two ways',
    });
    expect(created.statusCode, created.body).toBe(201);
    const joint = created.json();
    expect(joint).toMatchObject({
      id: expect.stringMatching(/^jtx_[A-Za-z0-9_-]{24}$/),
      status: 'collecting',
      org_handle: shop.handle,
      fee_satoshis: 1_000,
      txid: null,
      inputs: [
        { kind: 'p2pkh', address: a.address, signed_by: [] },
        { kind: 'p2pkh', address: b.address, signed_by: [] },
      ],
      outputs: [{ address: shop.wallet.address, satoshis: 199_000 }],
    });

    // A partner needs no key: the id is the invitation.
    const read = await call('GET', `/api/v1/joint-transactions/${joint.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(joint);
    const sign = async (file: string) => {
      const { transaction } = await stack.walletCommand<{ transaction: string }>(file, 'sign-transaction', '--partial', joint.transaction);
      return call('POST', `/api/v1/joint-transactions/${joint.id}/signatures`, undefined, { transaction });
    };
    const half = await sign(a.file);
    expect(half.statusCode, half.body).toBe(200);
    expect(half.json().inputs.map((input: { signed_by: string[] }) => input.signed_by)).toEqual([[a.public_key], []]);
    const whole = await sign(b.file);
    expect(whole.json()).toMatchObject({ status: 'broadcast', txid: expect.stringMatching(/^[0-9a-f]{64}$/), next_steps: [] });
    expect((await stack.chain.listUnspent(shop.wallet.address)).some((coin) => coin.txid === whole.json().txid)).toBe(true);

    const listed = await call('GET', `/api/v1/orgs/${shop.handle}/joint-transactions`, staff.key);
    expect(listed.json().data).toEqual([whole.json()]);
  });

  it('needs the shop’s staff to build and list; refuses bad input, a tampered copy and foreign signatures with a 4xx', async () => {
    const shop = await stack.merchant('Joint Guard');
    const stranger = await onboard(stack.gateway, uniqueName('Elsewhere'));
    const a = await stack.newWallet(100_000);
    const coin = await coinOf(a.address);
    const body = { inputs: [{ txid: coin.txid, vout: coin.vout }], outputs: [{ address: a.address, satoshis: 90_000 }] };
    const url = `/api/v1/orgs/${shop.handle}/joint-transactions`;
    expect((await call('POST', url, undefined, body)).statusCode).toBe(401);
    expect((await call('POST', url, stranger.key, body)).statusCode).toBe(403);
    expect((await call('GET', url, stranger.key)).statusCode).toBe(403);
    for (const bad of [
      {},
      { ...body, inputs: [] },
      { ...body, inputs: [{ txid: 'zz', vout: 0 }] },
      { ...body, inputs: [{ txid: coin.txid, vout: -1 }] },
      { ...body, outputs: [{ address: a.address, satoshis: 1.5 }] },
      { ...body, outputs: [{ address: a.address, script: '76', satoshis: 10 }] },
      { ...body, outputs: [{ address: `${a.address}\u0000`, satoshis: 10 }] },
      { ...body, description: 'x'.repeat(201) },
      { ...body, colour: 'gold' },
    ]) {
      const answer = await call('POST', url, shop.key, bad);
      expect([answer.statusCode, JSON.stringify(bad)]).toEqual([422, JSON.stringify(bad)]);
    }
    const joint = (await call('POST', url, shop.key, body)).json();
    for (const [id, payload, status] of [
      [joint.id, {}, 422],
      [joint.id, { transaction: 'not hex' }, 422],
      [joint.id, { transaction: joint.transaction }, 422],
      ['jtx_AAAAAAAAAAAAAAAAAAAAAAAA', { transaction: joint.transaction }, 404],
      ['jtx_short', { transaction: joint.transaction }, 422],
    ] as const) {
      const answer = await call('POST', `/api/v1/joint-transactions/${id}/signatures`, undefined, payload);
      expect([answer.statusCode, id, JSON.stringify(payload).slice(0, 40)]).toEqual([status, id, JSON.stringify(payload).slice(0, 40)]);
    }
    const stranger2 = await stack.newWallet(0);
    const notTheirs = await stack
      .walletCommand<{ transaction: string }>(stranger2.file, 'sign-transaction', '--partial', joint.transaction)
      .catch((error: Error) => error);
    expect(String(notTheirs)).toContain('No input of the transaction is locked to a key of this wallet');
    expect((await call('GET', `/api/v1/joint-transactions/${joint.id}%00`)).statusCode).toBe(422);
  });
});
