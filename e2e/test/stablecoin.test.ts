import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HD } from '@bsv/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, freePort, startInstance, stopInstance, until, wallet, type Instance } from './instance.js';

/**
 * A stablecoin payment from outside, as a newcomer would make one (decision 0036): a running instance on its
 * local chain, a shop asking $12.50 in USDX, and a customer paying it with the developer wallet
 * (`pnpm wallet stablecoin-faucet`, `send-token`), then telling the shop the txid. The books show it.
 */
describe('a $12.50 stablecoin payment, paid from the developer wallet', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-stablecoin-'));
  let instance: Instance;
  let chainPort = 0;
  let key = '';
  let handle = '';
  beforeAll(async () => {
    chainPort = await freePort();
    instance = await startInstance({ port: await freePort(), dataDir: join(dir, 'data'), chainPort });
    const xpub = HD.fromRandom().derive("m/44'/236'/0'").toPublic().toString();
    const onboarded = await api(instance.base, 'POST', '/api/v1/onboard', undefined, {
      name: 'Stablecoin Bakery',
      wallet_xpub: xpub,
      jurisdiction: 'US-CA',
      prices_include_tax: true,
    });
    expect(onboarded.status).toBe(201);
    key = onboarded.body.api_key.key as string;
    handle = onboarded.body.organization.handle as string;
  }, 240_000);
  afterAll(async () => {
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  it('succeeds once, posts the stablecoin, revenue and tax to the ledger, and refuses a short and an unapproved transfer', async () => {
    const created = await api(instance.base, 'POST', '/api/v1/stablecoin/intents', key, {
      org_handle: handle,
      amount_cents: 1250,
      description: 'Birthday cake deposit',
    });
    expect(created.status).toBe(201);
    const intent = created.body;
    expect(intent).toMatchObject({ status: 'requires_payment', amount_cents: 1250, payment: { symbol: 'USDX', token_amount: '1250000' } });

    const customer = join(dir, 'customer.json');
    await wallet(chainPort, customer, 'create');
    await wallet(chainPort, customer, 'faucet', '100000');
    await wallet(chainPort, customer, 'stablecoin-faucet', '5000000');
    const to = intent.payment.address as string;

    // Too little, and a transfer the cosigner never saw: each refused by its code, nothing recorded.
    const short = await wallet(chainPort, customer, 'send-token', '--token', 'stablecoin', '--to', to, '--amount', '1000000', '--print');
    const refusedShort = await api(instance.base, 'POST', `/api/v1/stablecoin/intents/${intent.id}/settle`, undefined, {
      transaction: short.rawtx,
    });
    expect([refusedShort.status, refusedShort.body.error?.code]).toEqual([422, 'payment_underpaid']);
    const unapproved = await wallet(
      chainPort,
      customer,
      'send-token',
      '--token',
      'stablecoin',
      '--to',
      to,
      '--amount',
      '1250000',
      '--no-cosign',
    );
    const refusedUnapproved = await api(instance.base, 'POST', `/api/v1/stablecoin/intents/${intent.id}/settle`, undefined, {
      transaction: unapproved.rawtx,
    });
    expect([refusedUnapproved.status, refusedUnapproved.body.error?.code]).toEqual([422, 'stablecoin_not_approved']);

    // The customer pays, and tells the shop the txid.
    const sent = await wallet(chainPort, customer, 'send-token', '--token', 'stablecoin', '--to', to, '--amount', '1250000');
    const txid = sent.txid as string;
    const settled = await api(instance.base, 'POST', `/api/v1/stablecoin/intents/${intent.id}/settle`, undefined, { txid });
    expect(settled.status).toBe(200);
    expect(settled.body).toMatchObject({ status: 'succeeded', transfers: [{ txid, token_amount: '1250000', outcome: 'accepted' }] });
    const again = await api(instance.base, 'POST', `/api/v1/stablecoin/intents/${intent.id}/settle`, undefined, { txid });
    expect(again.body).toEqual(settled.body);

    // The ledger: the stablecoin asset for the whole, revenue and sales tax for its parts, in one entry.
    const ledger = await until(
      () => api(instance.base, 'GET', `/api/v1/orgs/${handle}/ledger`, key),
      (answer) => (answer.body.data ?? []).length === 1,
      'the ledger',
    );
    const [entry] = ledger.body.data as { txid: string; lines: { account_code: string; debit_minor: number; credit_minor: number }[] }[];
    expect(entry!.txid).toBe(txid);
    const amounts = Object.fromEntries(entry!.lines.map((line) => [line.account_code, line.debit_minor || -line.credit_minor]));
    expect(amounts['1030']).toBe(1250);
    expect(amounts['2100']).toBe(-intent.tax_cents);
    expect(amounts['4000']).toBe(-(1250 - intent.tax_cents));
    expect(intent.tax_cents).toBeGreaterThan(0);

    const tokens = await wallet(chainPort, customer, 'tokens');
    expect(JSON.stringify(tokens)).toContain('3750000');
  });
});
