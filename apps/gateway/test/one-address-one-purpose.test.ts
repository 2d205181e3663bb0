import { LockingScript, P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { addressOfScript, createChainClient } from '@ctk/chain';
import { mineBlocks, requestFaucet } from '@ctk/chain/local';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, type Onboarded } from './harness.js';
import { startOrderStack } from './order-harness.js';
import { createPaygateKey } from './paygate-harness.js';
import { expectError, uniqueClientAddress } from './support.js';

/*
 * One address, one purpose, from outside (decision 0022): an organisation with an xpub makes 25 unpaid
 * 402 checks, 25 anonymous pay-link orders and 5 counter orders, and no address is handed to two of them;
 * past the anonymous cap a 402 offers the resource's open payment request again (one payment pays it),
 * the pay-link orders are refused clearly, and every counter order is made. A customer's
 * payment of an order, offered to the gate for a 402 nonce, is refused, and the order is paid by it; a
 * transaction paying two orders' outputs pays both.
 */

let stack: Awaited<ReturnType<typeof startOrderStack>>;
beforeAll(async () => {
  stack = await startOrderStack({ commerce: true });
}, 180_000);
afterAll(() => stack?.close());

const inject = (options: InjectOptions) => stack.gateway.app.inject(options);
const LINE = { name: 'Flat white', quantity: 2, unit_price_minor: 450 };

/** A customer's transaction spending a mined faucet coin (its BEEF proves itself) to `outputs`, signed, broadcast as a wallet paying a QR would. */
async function customerPays(outputs: { script: string; satoshis: number }[], broadcast = true): Promise<Transaction> {
  const chain = createChainClient({ network: 'local', localUrl: stack.chainUrl, retries: 1, retryBaseMs: 20 });
  const key = PrivateKey.fromRandom();
  const funded = await requestFaucet(stack.chainUrl, key.toAddress('testnet'), 1_000_000);
  await mineBlocks(stack.chainUrl);
  const source = Transaction.fromHex(funded.raw_tx);
  source.merklePath = (await chain.getStatus(source.id('hex'))).merklePath;
  const tx = new Transaction();
  tx.addInput({ sourceTransaction: source, sourceOutputIndex: funded.vout, unlockingScriptTemplate: new P2PKH().unlock(key) });
  for (const output of outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(output.script), satoshis: output.satoshis });
  const spent = outputs.reduce((sum, output) => sum + output.satoshis, 0);
  tx.addOutput({ lockingScript: new P2PKH().lock(key.toAddress('testnet')), satoshis: 1_000_000 - spent - 500 });
  await tx.sign();
  if (broadcast) expect((await chain.broadcast(tx.toBEEF())).state).not.toBe('rejected');
  return tx;
}

describe('one address, one purpose, from outside', () => {
  let cafe: Onboarded;
  let staffKey: string;
  let paygateKey: string;
  beforeAll(async () => {
    cafe = await stack.walletOrg('Blue Bottle Cafe');
    staffKey = (await addMember(stack.gateway, cafe, 'staff')).key;
    paygateKey = (await createPaygateKey(cafe, stack.gateway)).key;
    const priced = await inject({
      method: 'POST',
      url: '/api/v1/402/resources',
      headers: bearer(paygateKey),
      payload: { method: 'GET', path: '/menu/*', price_satoshis: 500, grant: { kind: 'calls', calls: 10 } },
    });
    expect(priced.statusCode, priced.body).toBe(201);
  }, 60_000);

  it('25 unpaid 402 checks, 25 anonymous pay-link orders and 5 counter orders never share an address; the anonymous ones past the cap are refused, every counter order is made; the customer’s payment of an order is no 402 payment, and pays the order', async () => {
    const given: { what: string; address: string }[] = [];
    const offers: { nonce: string; address: string }[] = [];
    const refusals: { status: number; code: string; retryAfter: string | undefined; message: string }[] = [];
    const refused = (response: Awaited<ReturnType<typeof inject>>) => {
      expectError(response, 503, 'unavailable');
      refusals.push({
        status: response.statusCode,
        code: response.json().error.code,
        retryAfter: response.headers['retry-after'] as string | undefined,
        message: response.json().error.message,
      });
    };

    for (let i = 0; i < 25; i++) {
      const answer = await inject({
        method: 'POST',
        url: '/api/v1/402/check',
        headers: bearer(paygateKey),
        payload: { method: 'GET', url: `/menu/${i}`, headers: {} },
      });
      expect(answer.statusCode, answer.body).toBe(200);
      const offer = answer.json().body.accepts[0];
      offers.push({ nonce: offer.extra.nonce, address: offer.payTo });
      // A payment request by its nonce: the same one offered again is still one thing to pay.
      given.push({ what: `402 ${offer.extra.nonce}`, address: offer.payTo });
    }

    const link = await inject({
      method: 'POST',
      url: `/api/v1/orgs/${cafe.handle}/pay-links`,
      headers: bearer(cafe.key),
      payload: { currency: 'USD', amount_minor: 1_250, memo: 'Catering deposit', max_uses: 0 },
    });
    expect(link.statusCode, link.body).toBe(201);
    for (let i = 0; i < 25; i++) {
      const opened = await inject({ method: 'POST', url: `/api/v1/pay-links/${link.json().terms.id}/orders`, payload: {} });
      if (opened.statusCode === 201) given.push({ what: `pay link ${i}`, address: opened.json().address });
      else refused(opened);
    }

    const counter = [];
    for (let i = 0; i < 5; i++) {
      const created = await inject({
        method: 'POST',
        url: '/api/pos/orders',
        headers: bearer(staffKey),
        payload: { org_handle: cafe.handle, lines: [LINE], note: `Table ${i + 1}` },
      });
      expect(created.statusCode, created.body).toBe(201);
      counter.push(created.json());
      given.push({ what: `counter ${i}`, address: created.json().address });
    }

    // No address is handed to two of them.
    const byAddress = new Map<string, Set<string>>();
    for (const { what, address } of given) byAddress.set(address, new Set([...(byAddress.get(address) ?? []), what]));
    expect([...byAddress.values()].filter((holders) => holders.size > 1)).toEqual([]);
    // Anonymous opens hold at most the gap limit (20) less the 5 kept for staff: 15 payment requests. The
    // other 10 checks are offered an open request of the resource again; every pay-link order is refused
    // with when to come back.
    expect(new Set(offers.map((offer) => offer.nonce)).size).toBe(15);
    expect(byAddress.size - counter.length).toBe(15);
    expect(refusals).toHaveLength(25);
    for (const refusal of refusals) {
      expect(Number(refusal.retryAfter)).toBeGreaterThan(0);
      expect(refusal.message).toMatch(/held for payments anyone may open .* try again after/);
    }

    // The customer pays the first counter order from their wallet; the same transaction, offered to the gate
    // for an open 402's nonce, buys nothing: it pays no output of that request.
    const order = counter[0]!;
    const tx = await customerPays([{ script: new P2PKH().lock(order.address).toHex(), satoshis: order.due_satoshis }]);
    const beef = Buffer.from(tx.toBEEF()).toString('base64');
    for (const payload of [
      { transaction: beef, nonce: offers[0]!.nonce, vout: 0 },
      { transaction: beef, nonce: offers[0]!.nonce, vout: 1 },
    ]) {
      const verified = await inject({ method: 'POST', url: '/api/v1/402/verify', headers: bearer(paygateKey), payload });
      expectError(verified, 422, 'payment_wrong_output');
    }
    const payments = await inject({ method: 'GET', url: '/api/v1/402/payments', headers: bearer(paygateKey) });
    expect(payments.json().data).toEqual([]);
    // Staff confirm the order by its txid: it is paid by that payment.
    const confirmed = await inject({
      method: 'POST',
      url: `/api/pos/orders/${order.order_number}/confirm`,
      headers: bearer(staffKey),
      payload: { org_handle: cafe.handle, txid: tx.id('hex') },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ status: 'paid', due_satoshis: 0, payments: [{ txid: tx.id('hex'), via: 'staff' }] });

    // A wallet batching two orders' outputs in one transaction pays both, each by its own output.
    const [second, third] = [counter[1]!, counter[2]!];
    const batch = await customerPays([
      { script: new P2PKH().lock(second.address).toHex(), satoshis: second.due_satoshis },
      { script: new P2PKH().lock(third.address).toHex(), satoshis: third.due_satoshis },
    ]);
    for (const paid of [second, third]) {
      const answer = await inject({
        method: 'POST',
        url: `/api/pos/orders/${paid.order_number}/confirm`,
        headers: bearer(staffKey),
        payload: { org_handle: cafe.handle, txid: batch.id('hex') },
      });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toMatchObject({ status: 'paid', paid_satoshis: paid.due_satoshis, payments: [{ txid: batch.id('hex') }] });
    }
    // A 402 paid more than its price keeps what was paid and says so, as an order is flagged overpaid.
    const over = await customerPays([{ script: new P2PKH().lock(offers[1]!.address).toHex(), satoshis: 1_200 }], false);
    const paidOver = await inject({
      method: 'POST',
      url: '/api/v1/402/verify',
      headers: bearer(paygateKey),
      payload: { transaction: Buffer.from(over.toBEEF()).toString('base64'), nonce: offers[1]!.nonce, vout: 0 },
    });
    expect(paidOver.statusCode, paidOver.body).toBe(200);
    const listed = await inject({ method: 'GET', url: '/api/v1/402/payments', headers: bearer(paygateKey) });
    expect(listed.json().data).toMatchObject([{ txid: over.id('hex'), satoshis: 1_200, price_satoshis: 500, overpaid: true }]);

    // The first order's output does not pay the fourth: its address is its own.
    const fourth = counter[3]!;
    expectError(
      await inject({
        method: 'POST',
        url: `/api/pos/orders/${fourth.order_number}/confirm`,
        headers: bearer(staffKey),
        payload: { org_handle: cafe.handle, txid: tx.id('hex') },
      }),
      422,
      'payment_wrong_output',
    );
  }, 120_000);
});

describe('an order settled otherwise gives its address back (decision 0022)', () => {
  it('more than 20 counter orders paid wholly by a gift card or cancelled, one after another, and counter orders still get addresses no open order holds', async () => {
    const shop = await stack.walletOrg('Corner Bakery');
    const post = (url: string, payload: object, key: string | null = shop.key) =>
      inject({ method: 'POST', url, ...(key ? { headers: bearer(key) } : {}), payload });
    const counterOrder = async () => {
      const created = await post('/api/pos/orders', {
        org_handle: shop.handle,
        lines: [{ name: 'Espresso', quantity: 1, unit_price_minor: 300 }],
      });
      expect(created.statusCode, created.body).toBe(201);
      return created.json() as { order_number: string; address: string };
    };
    // A gift card the shop sold, its order paid by BIP270: 3,600 buys twelve espressos.
    const issued = await post('/api/pos/prepaid-cards', { org_handle: shop.handle, amount_minor: 3600, currency: 'USD' });
    expect(issued.statusCode, issued.body).toBe(201);
    const { card, order: cardOrder } = issued.json();
    const request = (await inject({ method: 'GET', url: `/api/pos/orders/${cardOrder.order_number}/payment-request` })).json();
    const tx = await stack.paying(
      request.outputs.map((output: { script: string; amount: number }) => ({ script: output.script, satoshis: output.amount })),
    );
    const ack = await post(
      `/api/pos/orders/${cardOrder.order_number}/payment`,
      { transaction: tx.toHex(), merchantData: request.merchantData },
      null,
    );
    expect(ack.json()).toMatchObject({ error: 0 });

    // 24 orders, each settled before the next: by the gift card in full, or cancelled. Each held its address
    // for its expiry and the late window (75 minutes) before: the 21st was refused, 409, no address free.
    for (let i = 0; i < 24; i++) {
      const order = await counterOrder();
      const settled =
        i % 2 === 0
          ? await post(`/api/pos/prepaid-cards/${card.id}/use`, {
              org_handle: shop.handle,
              identifier: card.identifier,
              order_number: order.order_number,
            })
          : await post(`/api/pos/orders/${order.order_number}/cancel`, { org_handle: shop.handle });
      expect(settled.statusCode, settled.body).toBe(200);
    }
    // Open orders after them: each gets an address no other open order holds.
    const open = [];
    for (let i = 0; i < 5; i++) open.push(await counterOrder());
    expect(new Set(open.map((order) => order.address)).size).toBe(open.length);
  }, 120_000);
});

describe('one caller cannot block online sales (decision 0022)', () => {
  it('one client address holds at most 5 addresses: its pay-link orders and checkouts past that are 429 with Retry-After, its paymail destinations share one of its own, and other shoppers and staff still buy', async () => {
    const alias = `corner${Math.floor(Math.random() * 1e6)}`;
    const shop = await stack.walletOrg('Corner Store', { paymail_alias: alias });
    const staffKey = (await addMember(stack.gateway, shop, 'staff')).key;
    const link = await inject({
      method: 'POST',
      url: `/api/v1/orgs/${shop.handle}/pay-links`,
      headers: bearer(shop.key),
      payload: { currency: 'USD', amount_minor: 500, memo: 'Donation', max_uses: 0 },
    });
    expect(link.statusCode, link.body).toBe(201);
    const item = await inject({
      method: 'POST',
      url: `/api/v1/orgs/${shop.handle}/items`,
      headers: bearer(shop.key),
      payload: { name: 'Loaf', price_cents: 600 },
    });
    expect(item.statusCode, item.body).toBe(201);
    const commerceKey = (
      await inject({ method: 'POST', url: `/api/v1/orgs/${shop.handle}/commerce-key`, headers: bearer(shop.key) })
    ).json().commerce_public_key;

    const payLinkOrder = (remoteAddress: string) =>
      inject({ method: 'POST', url: `/api/v1/pay-links/${link.json().terms.id}/orders`, payload: {}, remoteAddress });
    const checkout = (remoteAddress: string) =>
      inject({
        method: 'POST',
        url: `/api/v1/commerce/${shop.handle}/checkout`,
        headers: { 'x-commerce-key': commerceKey },
        payload: { lines: [{ item_id: item.json().id }] },
        remoteAddress,
      });
    const p2pDestination = (remoteAddress: string) =>
      inject({
        method: 'POST',
        url: `/api/v1/bsvalias/p2p-payment-destination/${alias}@localhost`,
        payload: { satoshis: 1_000 },
        remoteAddress,
      });

    // The greedy client takes its five: three pay-link orders, two checkouts.
    const greedy = uniqueClientAddress();
    const held: string[] = [];
    for (const open of [payLinkOrder, payLinkOrder, payLinkOrder, checkout, checkout]) {
      const answer = await open(greedy);
      expect(answer.statusCode, answer.body).toBe(201);
      held.push(answer.json().address);
    }
    expect(new Set(held).size).toBe(5);
    for (const refused of [await payLinkOrder(greedy), await checkout(greedy)]) {
      expectError(refused, 429, 'rate_limited');
      expect(refused.json().error.message).toMatch(/already holds 5 of the merchant's receiving addresses/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json().error.details).toMatchObject({ held: 5, per_client: 5, retry_after_seconds: expect.any(Number) });
    }

    // A paymail server asking past its share: its destinations share one of its own, each told apart by its reference.
    const server = uniqueClientAddress();
    const destinations = [];
    for (let i = 0; i < 7; i++) {
      const answer = await p2pDestination(server);
      expect(answer.statusCode, answer.body).toBe(200);
      destinations.push(answer.json());
    }
    const scripts = destinations.map((destination) => destination.outputs[0].script);
    expect(new Set(scripts).size).toBe(5);
    expect(new Set(destinations.map((destination) => destination.reference)).size).toBe(7);

    // Everyone else still buys, and staff still sell at the counter; no address is given twice.
    const others = [
      await payLinkOrder(uniqueClientAddress()),
      await checkout(uniqueClientAddress()),
      await inject({
        method: 'POST',
        url: '/api/pos/orders',
        headers: bearer(staffKey),
        payload: { org_handle: shop.handle, lines: [LINE] },
      }),
    ];
    for (const answer of others) expect(answer.statusCode, answer.body).toBe(201);
    const addresses = [...held, ...others.map((answer) => answer.json().address)];
    expect(new Set(addresses).size).toBe(addresses.length);
    const paymailAddresses = new Set(scripts.map((script) => addressOfScript(script, 'local')));
    for (const address of addresses) expect(paymailAddresses.has(address)).toBe(false);
  }, 120_000);
});
