import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, freePort, startInstance, stopInstance, until, wallet, type Instance } from './instance.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/**
 * A refund of part of a paid counter order (docs/decisions/0033-refunds.md), on a whole instance: the
 * customer pays with `pnpm wallet`, the merchant's admin refunds a line, the merchant's own `pnpm wallet`
 * (whose xpub the organisation registered, so the order's bitcoin is in it) pays the refund's URI, and the
 * customer's wallet gets the refund's satoshis back; the journal and the sales report show it with its tax.
 */
describe('a counter order refunded in part, paid back by the merchant’s wallet', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-refund-'));
  let instance: Instance | undefined;
  afterAll(async () => {
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  it('pays the customer back the line’s share, and books reverse its revenue, tax and tip', async () => {
    const chainPort = await freePort();
    instance = await startInstance({ port: await freePort(), dataDir: join(dir, 'data'), chainPort });
    const base = instance.base;

    // The merchant's wallet: the organisation registers its xpub, so each order is paid to a child of it.
    const merchantWallet = join(dir, 'merchant.json');
    await wallet(chainPort, merchantWallet, 'create');
    const { xpub } = (await wallet(chainPort, merchantWallet, 'xpub')) as { xpub: string };
    const onboarded = await api(base, 'POST', '/api/v1/onboard', undefined, { name: 'Refunding Cafe', wallet_xpub: xpub });
    expect(onboarded.status, JSON.stringify(onboarded.body)).toBe(201);
    const key = onboarded.body.api_key.key as string;
    const handle = onboarded.body.organization.handle as string;
    const taxed = await api(base, 'PATCH', `/api/v1/organizations/${handle}`, key, { jurisdiction: 'US-CA' });
    expect(taxed.status, JSON.stringify(taxed.body)).toBe(200);

    // A sale at the counter: two lattes and a croissant, with a tip.
    const created = await api(base, 'POST', '/api/pos/orders', key, {
      org_handle: handle,
      lines: [
        { name: 'Oat milk latte', quantity: 2, unit_price_minor: 575 },
        { name: 'Croissant', quantity: 1, unit_price_minor: 425 },
      ],
      tip_minor: 200,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const order = created.body as Json;
    expect(order.tax_minor).toBeGreaterThan(0);

    // The customer pays with the developer wallet, which gives its own address for a refund.
    const customerWallet = join(dir, 'customer.json');
    const { address: customerAddress } = (await wallet(chainPort, customerWallet, 'create')) as { address: string };
    await wallet(chainPort, customerWallet, 'faucet', String(Number(order.satoshis) + 100_000));
    const paid = await wallet(chainPort, customerWallet, 'pay', order.pay_uri);
    expect(paid.txid).toMatch(/^[0-9a-f]{64}$/);
    await until(
      async () => (await api(base, 'GET', `/api/pos/orders/${order.order_number}`)).body.status,
      (status) => status === 'paid' || status === 'confirmed',
      'the order paid',
    );
    const before = (await wallet(chainPort, customerWallet, 'balance')) as { satoshis: number };
    // The order's bitcoin is in the merchant's wallet, at a child of its xpub.
    expect(((await wallet(chainPort, merchantWallet, 'balance')) as { satoshis: number }).satoshis).toBe(order.satoshis);

    // The admin refunds one latte: its share of the line, of the tax and of the tip, to the customer's address.
    const refunded = await api(base, 'POST', `/api/pos/orders/${order.order_number}/refunds`, key, {
      org_handle: handle,
      lines: [{ line: 0, quantity: 1 }],
      reason: 'Wrong milk',
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(201);
    const refund = refunded.body as Json;
    expect(refund).toMatchObject({ status: 'pending', address: customerAddress, lines: [{ line: 0, quantity: 1 }] });
    expect(refund.amount_minor).toBeLessThan(order.total_minor);
    expect(refund.tax_minor).toBeGreaterThan(0);
    expect(refund.tip_minor).toBeGreaterThan(0);
    expect(refund.payment_uri).toMatch(/^pay:\?r=/);

    // The merchant's wallet pays the refund's URI: BIP270, acknowledged by pos, broadcast.
    const payback = await wallet(chainPort, merchantWallet, 'pay', refund.payment_uri);
    expect(payback).toMatchObject({ satoshis: refund.satoshis, via: expect.stringContaining('acknowledged') });
    const after = (await wallet(chainPort, customerWallet, 'balance')) as { satoshis: number };
    expect(after.satoshis - before.satoshis).toBe(refund.satoshis);

    const shown = (await api(base, 'GET', `/api/pos/orders/${order.order_number}`)).body;
    expect(shown).toMatchObject({
      refunded_minor: refund.amount_minor,
      refunded_paid_minor: refund.amount_minor,
      refunds: [{ id: refund.id, status: 'paid', txid: payback.txid }],
    });

    // The journal: payment.refunded, revenue, tax and tip taken back, money out of the wallet.
    const entry = await until(
      async () => ((await api(base, 'GET', `/api/v1/orgs/${handle}/ledger`, key)).body.data as Json[]).find((e) => e.txid === payback.txid),
      (found) => Boolean(found),
      'the journal entry of the refund',
      150,
      200,
    );
    expect(entry).toMatchObject({ event_type: 'payment.refunded' });
    expect(Object.fromEntries(entry!.lines.map((line: Json) => [line.account_code, [line.debit_minor, line.credit_minor]]))).toEqual({
      '4100': [refund.amount_minor - refund.tax_minor - refund.tip_minor, 0],
      '2100': [refund.tax_minor, 0],
      '2400': [refund.tip_minor, 0],
      '1010': [0, refund.amount_minor],
    });

    // The sales report shows it apart from sales, with its tax; the trial balance still balances.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const sales = (await api(base, 'GET', `/api/v1/orgs/${handle}/reports/sales?from=${day(-1)}&to=${day(1)}`, key)).body;
    expect(sales.data, JSON.stringify(sales)).toBeDefined();
    const today = (sales.data as Json[]).find((row) => row.refunds_minor > 0);
    expect(today).toMatchObject({
      refunds_minor: refund.amount_minor - refund.tip_minor,
      refunds_tax_minor: refund.tax_minor,
      refunds_tips_minor: refund.tip_minor,
    });
    const trial = (await api(base, 'GET', `/api/v1/orgs/${handle}/reports/trial-balance`, key)).body;
    const usd = (trial.data as Json[]).find((row) => row.currency === 'USD')!;
    expect(usd.total_debit_minor).toBe(usd.total_credit_minor);
  }, 300_000);
});
