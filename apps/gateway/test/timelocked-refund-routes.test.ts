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
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString();

describe('a time-locked refund through the API', () => {
  it('staff agree it; the buyer funds it only once both signed the refund, then it is active until its date', async () => {
    const shop = await stack.merchant('Cake Deposits');
    const staff = await addMember(stack.gateway, shop, 'staff');
    const buyer = await stack.newWallet(100_000);
    const created = await call('POST', `/api/v1/orgs/${shop.handle}/timelocked-refunds`, staff.key, {
      buyer_public_key: buyer.public_key,
      satoshis: 30_000,
      refund_after: tomorrow(),
      description: 'Deposit',
    });
    expect(created.statusCode, created.body).toBe(201);
    const agreed = created.json();
    expect(agreed).toMatchObject({ status: 'awaiting_funding', seller_public_key: shop.wallet.public_key, refund_address: buyer.address });
    const [coin] = await stack.chain.listUnspent(buyer.address);
    const funding = (
      await call('POST', `/api/v1/timelocked-refunds/${agreed.id}/funding`, undefined, {
        inputs: [{ txid: coin!.txid, vout: coin!.vout }],
        change_address: buyer.address,
      })
    ).json();
    expect((await handIn(buyer, funding.funding)).status).toBe('signed');
    const signing = (await call('GET', `/api/v1/timelocked-refunds/${agreed.id}`)).json();
    expect(signing.status).toBe('signing_refund');
    await handIn(buyer, signing.refund);
    await handIn(shop.wallet, signing.refund);
    const active = (await call('GET', `/api/v1/timelocked-refunds/${agreed.id}`)).json();
    expect(active).toMatchObject({ status: 'active', funding: { status: 'broadcast' }, refund: { status: 'signed' } });
    expect((await call('GET', `/api/v1/orgs/${shop.handle}/timelocked-refunds`, staff.key)).json().data).toEqual([active]);
  });

  it('needs the shop’s staff to agree and list, and refuses bad input with a 4xx, never a 500', async () => {
    const shop = await stack.merchant('Refund Guard');
    const stranger = await onboard(stack.gateway, uniqueName('Elsewhere'));
    const buyer = await stack.newWallet(0);
    const body = { buyer_public_key: buyer.public_key, satoshis: 30_000, refund_after: tomorrow() };
    const url = `/api/v1/orgs/${shop.handle}/timelocked-refunds`;
    expect((await call('POST', url, undefined, body)).statusCode).toBe(401);
    expect((await call('POST', url, stranger.key, body)).statusCode).toBe(403);
    expect((await call('GET', url, stranger.key)).statusCode).toBe(403);
    for (const bad of [
      {},
      { ...body, refund_after: 'soon' },
      { ...body, refund_after: new Date().toISOString() },
      { ...body, satoshis: 5 },
      { ...body, buyer_public_key: shop.wallet.public_key },
      { ...body, description: '\u0000' },
    ]) {
      const answer = await call('POST', url, shop.key, bad);
      expect([answer.statusCode, JSON.stringify(bad)]).toEqual([422, JSON.stringify(bad)]);
    }
    const agreed = (await call('POST', url, shop.key, body)).json();
    const early = await call('POST', `/api/v1/timelocked-refunds/${agreed.id}/settlement`, undefined, { outcome: 'cancel' });
    expect([early.statusCode, early.json().error.code]).toEqual([409, 'failed_precondition']);
    expect((await call('POST', `/api/v1/timelocked-refunds/${agreed.id}/settlement`, undefined, { outcome: 'steal' })).statusCode).toBe(
      422,
    );
    expect((await call('GET', '/api/v1/timelocked-refunds/tlr_AAAAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(404);
  });
});
