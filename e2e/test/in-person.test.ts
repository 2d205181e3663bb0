import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HD } from '@bsv/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, freePort, startInstance, stopInstance, wallet, type Instance, until } from './instance.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** Polls until `ready` holds of the answer, or fails with the last one. */

describe('in person, end to end through the gateway and the local chain: an order at the counter paid three ways', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-in-person-'));
  const running: Instance[] = [];
  let chainPort = 0;
  let cafe: Instance;
  let verifier: Instance;
  let key = '';
  const account = HD.fromRandom().derive("m/44'/236'/0'");
  const items: Record<string, Json> = {};
  const customer = join(dir, 'customer.json');

  beforeAll(async () => {
    chainPort = await freePort();
    cafe = await startInstance({ port: await freePort(), dataDir: join(dir, 'cafe'), chainPort });
    running.push(cafe);
    verifier = await startInstance({ port: await freePort(), dataDir: join(dir, 'verifier'), chainPort });
    running.push(verifier);

    const onboarded = await api(cafe.base, 'POST', '/api/v1/onboard', undefined, {
      name: 'Blue Bottle Cafe',
      jurisdiction: 'US-CA',
      paymail_alias: 'cafe',
    });
    expect(onboarded.status).toBe(201);
    key = onboarded.body.api_key.key;
    const registered = await api(cafe.base, 'PATCH', '/api/v1/organizations/blue-bottle-cafe', key, {
      wallet_xpub: account.toPublic().toString(),
    });
    expect(registered.status).toBe(200);
    for (const item of [
      { name: 'Flat white', price_cents: 450, currency: 'USD', modifiers: [{ name: 'Oat milk', price_cents: 50 }] },
      { name: 'Croissant', price_cents: 325, currency: 'USD' },
    ]) {
      const created = await api(cafe.base, 'POST', '/api/v1/orgs/blue-bottle-cafe/items', key, item);
      expect(created.status).toBe(201);
      items[item.name] = created.body;
    }
    await wallet(chainPort, customer, 'create');
    // About 0.31 BSV an order at the embedded default's demo rate; four orders are paid.
    for (let coin = 0; coin < 4; coin++) await wallet(chainPort, customer, 'faucet', '50000000');
  }, 120_000);

  afterAll(async () => {
    for (const instance of running.reverse()) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  /** Two flat whites with oat milk and a croissant, 10% tip, at the counter. */
  async function newOrder(): Promise<Json> {
    const flatWhite = items['Flat white']!;
    const created = await api(cafe.base, 'POST', '/api/pos/orders', key, {
      org_handle: 'blue-bottle-cafe',
      lines: [
        { item_id: flatWhite.id, quantity: 2, modifiers: [{ modifier_id: flatWhite.modifiers[0].id }] },
        { item_id: items['Croissant']!.id, quantity: 1 },
      ],
      tip_basis_points: 1000,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  }

  const readOrder = async (number: string) => (await api(cafe.base, 'GET', `/api/pos/orders/${number}`)).body;
  const mine = () => fetch(`http://127.0.0.1:${chainPort}/mine`, { method: 'POST' });

  /** The books' entry of a txid, once the event has travelled from pos's outbox. */
  async function entryOf(txid: string): Promise<Json> {
    const ledger = await until(
      () => api(cafe.base, 'GET', '/api/v1/orgs/blue-bottle-cafe/ledger', key),
      (answer) => answer.body.data?.some((entry: Json) => entry.txid === txid),
      `the ledger entry of ${txid}`,
    );
    return ledger.body.data.find((entry: Json) => entry.txid === txid);
  }

  it('prices the order: modifiers, tax per line at the jurisdiction rate, an untaxed tip, satoshis at a recorded rate, a fresh xpub address', async () => {
    const order = await newOrder();
    expect(order.status).toBe('open');
    expect(order.currency).toBe('USD');
    expect(order.lines.map((line: Json) => [line.name.startsWith('Flat white'), line.quantity, line.unit_price_minor])).toEqual([
      [true, 2, 500],
      [false, 1, 325],
    ]);
    // US-CA prices exclude tax: 7.25% per line, rounded half up: 1000 -> 72.5 -> 73; 325 -> 23.56 -> 24.
    expect(order.tax_minor).toBe(97);
    // 10% of what the lines cost before tax (1325), rounded half up: the counter's one tip rule (decision 0023).
    expect(order.tip_minor).toBe(133);
    expect(order.total_minor).toBe(1000 + 325 + 97 + 133);
    expect(order.exchange_rate).toMatch(/^\d+(\.\d+)?$/);
    expect(order.rate_source).toBeTruthy();
    expect(order.satoshis).toBeGreaterThan(0);
    const children = Array.from({ length: 25 }, (_, n) => account.derive(`m/0/${n}`).pubKey.toAddress('testnet'));
    const mainnet = Array.from({ length: 25 }, (_, n) => account.derive(`m/0/${n}`).pubKey.toAddress());
    expect([...children, ...mainnet]).toContain(order.address);
    expect(order.pay_uri).toBe(`pay:?r=${encodeURIComponent(order.payment_request_url)}`);
    expect(order.bip21_uri.startsWith(`bitcoin:${order.address}?`)).toBe(true);
    expect(JSON.stringify(order)).not.toContain(account.toPublic().toString());
  });

  it('BIP270: the wallet pays the pay: URI; the order turns paid, then confirmed; the ledger has money in, revenue, tax and tip; the receipt verifies on a second instance', async () => {
    const order = await newOrder();
    const paid = await wallet(chainPort, customer, 'pay', order.pay_uri);
    const txid = paid.txid as string;
    expect(txid).toMatch(/^[0-9a-f]{64}$/);
    const afterPay = await readOrder(order.order_number);
    expect(afterPay.status).toBe('paid'); // recorded when the payment request answered, before the wallet returned
    expect(afterPay.payments).toEqual([expect.objectContaining({ txid, via: 'payment_request', satoshis: order.satoshis })]);
    await mine();
    await until(
      () => readOrder(order.order_number),
      (o) => o.status === 'confirmed',
      'the order confirmed once mined',
    );

    const entry = await entryOf(txid);
    expect(entry.currency).toBe('USD');
    expect(entry.satoshis).toBe(order.satoshis);
    const byAccount = Object.fromEntries(entry.lines.map((line: Json) => [line.account_code, [line.debit_minor, line.credit_minor]]));
    expect(byAccount).toEqual({
      '1010': [order.total_minor, 0],
      '4000': [0, order.total_minor - order.tax_minor - order.tip_minor],
      '2100': [0, order.tax_minor],
      '2400': [0, order.tip_minor],
    });

    const receipt = await api(verifier.base, 'GET', `/api/v1/receipts/${txid}`);
    expect(receipt.status).toBe(200);
    expect(receipt.body).toMatchObject({ reference: order.order_number, verified: true });
  });

  it('BIP21: the wallet pays the address directly and the watcher finds it', async () => {
    const order = await newOrder();
    const bitcoinUri = order.bip21_uri.replace(/&r=[^&]*/, ''); // a wallet without BIP270 pays the address
    const paid = await wallet(chainPort, customer, 'pay', bitcoinUri);
    const seen = await until(
      () => readOrder(order.order_number),
      (o) => ['paid', 'confirmed'].includes(o.status),
      'the watcher seeing the payment',
    );
    expect(seen.payments).toEqual([expect.objectContaining({ txid: paid.txid, via: 'address' })]);
    const entry = await entryOf(paid.txid as string);
    expect(entry.lines.find((line: Json) => line.account_code === '1010')?.debit_minor).toBe(order.total_minor);
  });

  it('staff confirm by txid: verified on the chain; another transaction is refused', async () => {
    const order = await newOrder();
    const paid = await wallet(chainPort, customer, 'pay', `bitcoin:${order.address}?sv&amount=${order.satoshis / 1e8}`);
    const confirmed = await api(cafe.base, 'POST', `/api/pos/orders/${order.order_number}/confirm`, key, {
      org_handle: 'blue-bottle-cafe',
      txid: paid.txid,
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    // Paid; confirmed when the local chain mined a block since the payment (it mines on an interval).
    expect(['paid', 'confirmed']).toContain(confirmed.body.status);
    // One payment, whichever of the staff and the watcher recorded it first.
    expect(confirmed.body.payments.map((p: Json) => p.txid)).toEqual([paid.txid]);

    const other = await newOrder();
    const reused = await api(cafe.base, 'POST', `/api/pos/orders/${other.order_number}/confirm`, key, {
      org_handle: 'blue-bottle-cafe',
      txid: paid.txid,
    });
    expect(reused.status).toBeGreaterThanOrEqual(400);
    expect(reused.status).toBeLessThan(500);
    expect((await readOrder(other.order_number)).status).toBe('open');
  });
});
