import { LockingScript, P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { createChainClient } from '@ctk/chain';
import { requestFaucet } from '@ctk/chain/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, onboard, startTestGateway, type Onboarded, type Gateway } from './harness.js';
import { startOrderStack } from './order-harness.js';
import { expectError, SERVICES_DOWN, uniqueName } from './support.js';

let stack: Awaited<ReturnType<typeof startOrderStack>>;
let gateway: Gateway;
beforeAll(async () => {
  // A window wide enough for twenty anonymous orders of one organisation at once (decision 0022 keeps 5 for staff).
  stack = await startOrderStack({ p2pEnv: { P2P_GAP_LIMIT: '40' } });
  gateway = stack.gateway;
}, 180_000);
afterAll(() => stack?.close());

const invoice = { currency: 'USD', amount_minor: 18_500, memo: 'Invoice 1042: office catering', max_uses: 1 };

const send = (method: 'GET' | 'POST' | 'PATCH', url: string, key?: string, payload?: object) =>
  gateway.app.inject({ method, url, ...(key ? { headers: bearer(key) } : {}), ...(payload ? { payload } : {}) });
const createLink = (org: Onboarded, payload: object = invoice, key = org.key) =>
  send('POST', `/api/v1/orgs/${org.handle}/pay-links`, key, payload);

/** An organisation with a wallet (an xpub: each order gets a fresh output). */
const merchant = (label: string): Promise<Onboarded> => stack.walletOrg(label);

describe('pay links for staff', () => {
  it('staff make a link and list it with its uses; each member role may, another organisation may not', async () => {
    const org = await merchant('Blue Bottle');
    const staff = await addMember(gateway, org, 'staff');
    const created = await createLink(org, invoice, staff.key);
    expect(created.statusCode).toBe(201);
    const link = created.json();
    expect(link).toMatchObject({
      terms: {
        merchant_handle: org.handle,
        currency: 'USD',
        amount_minor: 18_500,
        min_minor: null,
        max_minor: null,
        memo: invoice.memo,
        expires_at: null,
      },
      status: 'active',
      max_uses: 1,
      uses_paid: 0,
      uses_held: 0,
      created_by: staff.userId,
      disabled_at: null,
    });
    expect(link.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(link.page_url).toMatch(new RegExp(`/l/${link.terms.id}$`));
    expect(link.qr_url).toMatch(new RegExp(`/api/v1/pay-links/${link.terms.id}/qr$`));
    const listed = await send('GET', `/api/v1/orgs/${org.handle}/pay-links`, org.key);
    expect(listed.json()).toEqual({ data: [link], next_cursor: null });

    const outsider = await onboard(gateway, uniqueName('Other Cafe'));
    expectError(await createLink(org, invoice, outsider.key), 403, 'forbidden');
    expectError(await send('GET', `/api/v1/orgs/${org.handle}/pay-links`, outsider.key), 403, 'forbidden');
    expectError(await send('POST', `/api/v1/orgs/${org.handle}/pay-links/${link.terms.id}/disable`, outsider.key), 403, 'forbidden');
    expectError(await send('POST', `/api/v1/orgs/${org.handle}/pay-links`, undefined, invoice), 401, 'unauthenticated');
    // Its own organisation cannot reach another's link by id either.
    expectError(await send('POST', `/api/v1/orgs/${outsider.handle}/pay-links/${link.terms.id}/disable`, outsider.key), 404, 'not_found');
    expect((await send('GET', `/api/v1/pay-links/${link.terms.id}`)).json().status).toBe('active');
  });

  it('refuses bad input with 422 naming the field: the gateway the shape, pos the rules', async () => {
    const org = await merchant('Rules Cafe');
    for (const [payload, field] of [
      [{ ...invoice, amount_minor: '185.00' }, 'amount_minor'],
      [{ ...invoice, amount_minor: 1.5 }, 'amount_minor'],
      [{ ...invoice, price: 1 }, 'price'],
      [{ ...invoice, memo: 'm'.repeat(201) }, 'memo'],
      [{ ...invoice, min_minor: 100, max_minor: 900 }, 'amount_minor'],
      [{ currency: 'USD', memo: 'Tip jar', min_minor: 900, max_minor: 100 }, 'max_minor'],
      [{ ...invoice, currency: 'usd' }, 'currency'],
      [{ ...invoice, memo: 'Invoice\u0007 1042' }, 'memo'],
      [{ ...invoice, expires_at: '2020-01-01T00:00:00Z' }, 'expires_at'],
      [{ ...invoice, expires_at: 'next week' }, 'expires_at'],
      [{ ...invoice, max_uses: -1 }, 'max_uses'],
    ] as const) {
      const response = await createLink(org, payload);
      expect({ payload, status: response.statusCode, code: response.json().error?.code }).toMatchObject({
        status: 422,
        code: 'validation_failed',
      });
      expect(JSON.stringify(response.json().error)).toContain(field);
    }
    expectError(await createLink(org, { ...invoice, memo: 'Invoice\u0000 1042' }), 422, 'validation_failed');
    expect((await send('GET', `/api/v1/orgs/${org.handle}/pay-links`, org.key)).json().data).toEqual([]);
    expectError(await send('POST', `/api/v1/orgs/${org.handle}/pay-links/not-a-link/disable`, org.key), 422, 'validation_failed');
  });
});

describe('pay links for payers', () => {
  it('anyone reads the signed terms and nothing private: no organisation id, creator or uses', async () => {
    const org = await merchant('Public Cafe');
    const link = (await createLink(org)).json();
    const response = await send('GET', `/api/v1/pay-links/${link.terms.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      terms: link.terms,
      signature: link.signature,
      status: 'active',
      page_url: link.page_url,
      qr_url: link.qr_url,
    });
    for (const secret of [org.orgId, org.userId, 'uses_', 'created_by', 'organization_id', 'max_uses'])
      expect(response.body).not.toContain(secret);
    expectError(await send('GET', '/api/v1/pay-links/6d1b7c4e-8f0a-4b8e-9a51-3f3c1a2b9e77'), 404, 'not_found');
    expectError(await send('GET', '/api/v1/pay-links/..%2F..%2Fme'), 422, 'validation_failed');
  });

  it('a payer opens an order at the signed amount; nothing the payer sends changes it; a used-up or disabled link refuses', async () => {
    const org = await merchant('Invoice Cafe');
    const link = (await createLink(org, { ...invoice, max_uses: 0 })).json();
    const url = `/api/v1/pay-links/${link.terms.id}/orders`;
    const opened = await send('POST', url, undefined, {});
    expect(opened.statusCode).toBe(201);
    const order = opened.json();
    expect(order).toMatchObject({ status: 'open', currency: 'USD', total_minor: 18_500, merchant_handle: org.handle });
    expect(order.lines).toEqual([expect.objectContaining({ name: invoice.memo, quantity: 1, unit_price_minor: 18_500 })]);
    expect(order.pay_uri).toMatch(/^pay:\?r=/);
    expect(opened.body).not.toContain(org.orgId);
    // The order is the customer page's, by number.
    expect((await send('GET', `/api/pos/orders/${order.order_number}`)).json().total_minor).toBe(18_500);

    expectError(await send('POST', url, undefined, { amount_minor: 1 }), 422, 'validation_failed');
    expectError(await send('POST', url, undefined, { total_minor: 1 }), 422, 'validation_failed');
    expectError(await send('POST', url, undefined, { amount_minor: -1 }), 422, 'validation_failed');

    expect((await send('POST', `/api/v1/orgs/${org.handle}/pay-links/${link.terms.id}/disable`, org.key)).json().status).toBe('disabled');
    const refused = await send('POST', url, undefined, {});
    expectError(refused, 410, 'pay_link_closed');
    expect(refused.json().error.message).toMatch(/disabled/);
    expect((await send('GET', `/api/v1/pay-links/${link.terms.id}`)).json().status).toBe('disabled');
  });

  it("a payer chooses within the link's bounds; outside them is 422", async () => {
    const org = await merchant('Tip Jar Cafe');
    const link = (await createLink(org, { currency: 'USD', min_minor: 100, max_minor: 2_000, memo: 'Tip jar' })).json();
    expect(link.terms).toMatchObject({ amount_minor: null, min_minor: 100, max_minor: 2_000 });
    const url = `/api/v1/pay-links/${link.terms.id}/orders`;
    for (const amount_minor of [99, 2_001]) expectError(await send('POST', url, undefined, { amount_minor }), 422, 'validation_failed');
    expectError(await send('POST', url, undefined, {}), 422, 'validation_failed');
    expect((await send('POST', url, undefined, { amount_minor: 750 })).json()).toMatchObject({
      total_minor: 750,
      lines: [{ name: 'Tip jar' }],
    });
  });

  it("answers a payer's retry with the same Idempotency-Key with the same order, holding no second use", async () => {
    const org = await merchant('Retry Cafe');
    const link = (await createLink(org)).json();
    const open = () =>
      gateway.app.inject({
        method: 'POST',
        url: `/api/v1/pay-links/${link.terms.id}/orders`,
        headers: { 'idempotency-key': 'payer-7f3a:18500' },
        payload: {},
      });
    const [first, again] = [await open(), await open()];
    expect([first.statusCode, again.statusCode]).toEqual([201, 201]);
    expect(again.json().order_number).toBe(first.json().order_number);
    expect((await send('GET', `/api/v1/orgs/${org.handle}/pay-links`, org.key)).json().data[0]).toMatchObject({ uses_held: 1 });
  });

  it('draws the page URL as SVG and PNG, anonymously', async () => {
    const org = await merchant('QR Cafe');
    const link = (await createLink(org)).json();
    const svg = await send('GET', `/api/v1/pay-links/${link.terms.id}/qr`);
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(svg.body).toMatch(/^<svg/);
    const png = await send('GET', `/api/v1/pay-links/${link.terms.id}/qr?format=png`);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(1, 4).toString('latin1')).toBe('PNG');
    expectError(await send('GET', `/api/v1/pay-links/${link.terms.id}/qr?format=gif`), 422, 'validation_failed');
  });

  it('limits each public route per client address', async () => {
    const limited = await startTestGateway({ ...SERVICES_DOWN, POS_GRPC_URL: stack.posUrl, CTK_PAY_LINK_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const org = await merchant('Busy Cafe');
      const link = (await createLink(org)).json();
      const read = (remoteAddress: string) =>
        limited.app.inject({ method: 'GET', url: `/api/v1/pay-links/${link.terms.id}`, remoteAddress });
      for (let i = 0; i < 3; i++) expect((await read('203.0.113.7')).statusCode).toBe(200);
      expectError(await read('203.0.113.7'), 429, 'rate_limited');
      expect((await read('203.0.113.8')).statusCode).toBe(200);
      const open = await limited.app.inject({
        method: 'POST',
        url: `/api/v1/pay-links/${link.terms.id}/orders`,
        payload: {},
        remoteAddress: '203.0.113.7',
      });
      // Opening has its own allowance, not spent by the reads (404 here: this second gateway's database has no such organisation).
      expectError(open, 404, 'not_found');
    } finally {
      await limited.close();
    }
  });
});

describe('one-use links: opens do not block, the first payment takes the use (decision 0024)', () => {
  // Small enough for the local chain's faucet coin (1,850 cents at 100 satoshis a cent).
  const oneUse = { ...invoice, amount_minor: 1_850 };
  /** An anonymous open of the link from one client address. */
  const openFrom = (linkId: string, remoteAddress: string) =>
    gateway.app.inject({ method: 'POST', url: `/api/v1/pay-links/${linkId}/orders`, payload: {}, remoteAddress });
  const read = async (orderNumber: string) => (await send('GET', `/api/pos/orders/${orderNumber}`)).json();

  /** What the order's BIP270 request asks for: the Payment URL, merchantData and the outputs. */
  async function toPay(orderNumber: string) {
    const request = (await send('GET', `/api/pos/orders/${orderNumber}/payment-request`)).json();
    const outputs = request.outputs.map((output: { script: string; amount: number }) => ({
      script: output.script,
      satoshis: output.amount,
    }));
    return { url: new URL(request.paymentUrl).pathname, merchantData: request.merchantData as string, outputs };
  }
  async function pay(orderNumber: string) {
    const { url, merchantData, outputs } = await toPay(orderNumber);
    const tx = await stack.paying(outputs);
    return { tx, answer: await gateway.app.inject({ method: 'POST', url, payload: { transaction: tx.toHex(), merchantData } }) };
  }

  /** A wallet paying `outputs` by address: a transaction spending a mined faucet coin, broadcast by the wallet itself. */
  async function broadcastPaying(outputs: { script: string; satoshis: number }[]): Promise<Transaction> {
    const chain = createChainClient({ network: 'local', localUrl: stack.chainUrl, retries: 1, retryBaseMs: 20 });
    const key = PrivateKey.fromRandom();
    const funded = await requestFaucet(stack.chainUrl, key.toAddress('testnet'), 1_000_000);
    await stack.mine();
    const source = Transaction.fromHex(funded.raw_tx);
    source.merklePath = (await chain.getStatus(source.id('hex'))).merklePath;
    const tx = new Transaction();
    tx.addInput({ sourceTransaction: source, sourceOutputIndex: funded.vout, unlockingScriptTemplate: new P2PKH().unlock(key) });
    for (const output of outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(output.script), satoshis: output.satoshis });
    const spent = outputs.reduce((sum, output) => sum + output.satoshis, 0);
    tx.addOutput({ lockingScript: new P2PKH().lock(key.toAddress('testnet')), satoshis: 1_000_000 - spent - 500 });
    await tx.sign();
    expect((await chain.broadcast(tx.toBEEF())).state).not.toBe('rejected');
    return tx;
  }

  it("one caller's unpaid open does not stop another from opening and paying; then the link is closed (410), the other orders are cancelled, a BIP270 payment of one is refused before broadcast, and a payment by address to one is kept for a refund that staff see", async () => {
    const org = await merchant('One Use Cafe');
    const link = (await createLink(org, oneUse)).json();
    const id = link.terms.id;
    // The first payer opens the order and walks away without paying; a second and a third open their own.
    const idle = await openFrom(id, '198.51.100.1');
    expect(idle.statusCode).toBe(201);
    const payer = await openFrom(id, '198.51.100.2');
    expect(payer.statusCode).toBe(201);
    const late = (await openFrom(id, '198.51.100.3')).json();
    // What the idle payer's and the third payer's wallets were given while their orders were open.
    const idleRequest = await toPay(idle.json().order_number);
    const lateRequest = await toPay(late.order_number);
    const orders = [idle.json(), payer.json(), late];
    expect(new Set(orders.map((order) => order.payment_request_url.split('/').at(-2))).size).toBe(3);
    expect(new Set(orders.map((order) => order.bip21_uri.split('?')[0])).size).toBe(3);
    expect((await send('GET', `/api/v1/orgs/${org.handle}/pay-links`, org.key)).json().data[0]).toMatchObject({
      uses_held: 3,
      uses_paid: 0,
    });

    const paid = await pay(payer.json().order_number);
    expect(paid.answer.statusCode).toBe(200);
    expect(await read(payer.json().order_number)).toMatchObject({ status: 'paid', flags: [] });
    for (const other of [idle.json(), late]) expect(await read(other.order_number)).toMatchObject({ status: 'cancelled', flags: [] });
    expectError(await openFrom(id, '198.51.100.4'), 410, 'pay_link_closed');
    expect((await send('GET', `/api/v1/pay-links/${id}`)).json().status).toBe('used_up');
    expect((await send('GET', `/api/v1/orgs/${org.handle}/pay-links`, org.key)).json().data[0]).toMatchObject({
      uses_held: 0,
      uses_paid: 1,
    });

    // The idle payer comes back and pays by BIP270: refused, and nothing reaches the chain.
    const refusedTx = await stack.paying(idleRequest.outputs);
    const refused = await gateway.app.inject({
      method: 'POST',
      url: idleRequest.url,
      payload: { transaction: refusedTx.toHex(), merchantData: idleRequest.merchantData },
    });
    expectError(refused, 409, 'failed_precondition');
    expect(refused.json().error.message).toMatch(/cancelled/);
    expect(await stack.onChain(refusedTx.id('hex'))).toBe(false);

    // A wallet that paid the cancelled order's address anyway: staff record it, kept and flagged for a refund, no second use.
    const direct = await broadcastPaying([{ script: lateRequest.outputs[0].script, satoshis: late.satoshis }]);
    const confirmed = await send('POST', `/api/pos/orders/${late.order_number}/confirm`, org.key, {
      org_handle: org.handle,
      txid: direct.id('hex'),
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({
      status: 'cancelled',
      paid_satoshis: late.satoshis,
      flags: ['refund_due'],
      payments: [{ txid: direct.id('hex'), via: 'staff' }],
    });
    expect((await send('GET', `/api/v1/orgs/${org.handle}/pay-links`, org.key)).json().data[0]).toMatchObject({ uses_paid: 1 });
  });

  it('one client address holds at most 2 unpaid opens of a one-use link: the third is 429 with a retry hint; another address still opens', async () => {
    const org = await merchant('Greedy Cafe');
    const link = (await createLink(org, oneUse)).json();
    for (let i = 0; i < 2; i++) expect((await openFrom(link.terms.id, '203.0.113.50')).statusCode).toBe(201);
    const third = await openFrom(link.terms.id, '203.0.113.50');
    expectError(third, 429, 'rate_limited');
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect(third.json().error.message).toMatch(/2/);
    expect((await openFrom(link.terms.id, '203.0.113.51')).statusCode).toBe(201);
  });

  it(
    '20 concurrent payments of 20 different open orders of one one-use link: exactly one takes the use, the others are refused and never broadcast',
    { tags: ['concurrency'] },
    async () => {
      const org = await merchant('Crowd Cafe');
      const link = (await createLink(org, oneUse)).json();
      const orders = [];
      for (let i = 0; i < 20; i++) {
        const opened = await openFrom(link.terms.id, `192.0.2.${i + 1}`);
        expect(opened.statusCode).toBe(201);
        orders.push(opened.json());
      }
      const payments = await Promise.all(
        orders.map(async (order) => {
          const { url, merchantData, outputs } = await toPay(order.order_number);
          return { url, merchantData, tx: await stack.paying(outputs) };
        }),
      );
      const answers = await Promise.all(
        payments.map(({ url, merchantData, tx }) =>
          gateway.app.inject({ method: 'POST', url, payload: { transaction: tx.toHex(), merchantData } }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, ...Array<number>(19).fill(409)]);
      for (const refused of answers.filter((answer) => answer.statusCode !== 200)) expectError(refused, 409, 'failed_precondition');
      const winner = answers.findIndex((answer) => answer.statusCode === 200);
      const onChain = await Promise.all(payments.map(({ tx }) => stack.onChain(tx.id('hex'))));
      expect(onChain.filter(Boolean)).toHaveLength(1);
      expect(onChain[winner]).toBe(true);
      const states = await Promise.all(orders.map((order) => read(order.order_number)));
      expect(states.map((order) => order.status).sort()).toEqual([...Array<string>(19).fill('cancelled'), 'paid']);
      expect((await send('GET', `/api/v1/orgs/${org.handle}/pay-links`, org.key)).json().data[0]).toMatchObject({
        uses_paid: 1,
        uses_held: 0,
      });
      expectError(await openFrom(link.terms.id, '192.0.2.99'), 410, 'pay_link_closed');
    },
  );
});
