import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HD, LockingScript, P2PKH, PrivateKey, ProtoWallet, PublicKey, Random, Transaction, Utils } from '@bsv/sdk';
import { createChainClient } from '@ctk/chain';
import { mineBlocks, requestFaucet } from '@ctk/chain/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, freePort, ROOT, startInstance, stopInstance, until, wallet, type Instance } from './instance.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/**
 * examples/paid-api/README.md, step by step, against a running instance: an organisation with a wallet xpub,
 * a payment-gate key, a priced resource, the example server behind @ctk/paygate's plugin, and the developer
 * wallet paying it with `fetch`; then the credential it bought passes without a payment.
 */
describe('a paid API behind the payment gate, as examples/paid-api runs it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-paid-api-'));
  const customer = join(dir, 'customer.json');
  let instance: Instance;
  let server: ChildProcess | undefined;
  let chainPort = 0;
  let paygateKey = '';
  let api402 = '';
  let apiKey = '';
  /** The merchant's identity key, which the example server holds to take BRC-121 payments made as @bsv/402-pay makes them. */
  const merchantIdentity = PrivateKey.fromRandom();

  beforeAll(async () => {
    chainPort = await freePort();
    instance = await startInstance({ port: await freePort(), dataDir: join(dir, 'instance'), chainPort });
    const xpub = HD.fromRandom().derive("m/44'/236'/0'").toPublic().toString();
    const onboarded = await api(instance.base, 'POST', '/api/v1/onboard', undefined, { name: 'Blue Bottle Cafe', wallet_xpub: xpub });
    expect(onboarded.status).toBe(201);
    apiKey = onboarded.body.api_key.key;
    const created = await api(instance.base, 'POST', '/api/v1/orgs/blue-bottle-cafe/paygate-keys', onboarded.body.api_key.key, {
      name: 'Weather API',
    });
    expect(created.status).toBe(201);
    paygateKey = created.body.key;
    const priced = await api(instance.base, 'POST', '/api/v1/402/resources', paygateKey, {
      method: 'GET',
      path: '/weather/*',
      price_satoshis: 1,
      grant: { kind: 'calls', calls: 10 },
      description: 'Weather by city',
    });
    expect(priced.status).toBe(201);

    const port = await freePort();
    server = spawn(process.execPath, [join(ROOT, 'examples/paid-api/src/server.mjs')], {
      env: {
        PATH: process.env.PATH,
        CTK_GATEWAY: instance.base,
        PAYGATE_KEY: paygateKey,
        PAYGATE_ACCOUNT: created.body.account_id,
        PAYGATE_IDENTITY_KEY: merchantIdentity.toWif(),
        PAID_API_PORT: String(port),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((ready, fail) => {
      server!.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('Paid API on') && ready());
      server!.once('exit', (code) => fail(new Error(`the paid API exited with ${code}`)));
    });
    api402 = `http://127.0.0.1:${port}`;
    await wallet(chainPort, customer, 'create');
    await wallet(chainPort, customer, 'faucet', '100000');
  });

  afterAll(async () => {
    server?.kill('SIGTERM');
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers a bare request 402 with the gate's x402 and BRC-121 offer, and the free route without it", async () => {
    expect((await fetch(`${api402}/health`)).status).toBe(200);
    const bare = await fetch(`${api402}/weather/lisbon`);
    expect(bare.status).toBe(402);
    expect(bare.headers.get('x-bsv-sats')).toBe('1');
    const body = (await bare.json()) as Json;
    expect(body).toMatchObject({
      x402Version: 2,
      resource: { url: `${api402}/weather/lisbon`, description: 'Weather by city' },
      accepts: [{ scheme: 'exact', network: 'bsv:local', amount: '1' }],
    });
    // BRC-121's x-bsv-server is the merchant's identity key (the server holds it); x402 pays a fresh child of the xpub.
    expect(bare.headers.get('x-bsv-server')).toBe(merchantIdentity.toPublicKey().toString());
    expect(JSON.parse(Buffer.from(bare.headers.get('payment-required')!, 'base64').toString('utf8'))).toEqual(body);
  });

  it('is paid by `pnpm wallet fetch` within --max-sats, and the credential bought passes the next request without paying', async () => {
    const paid = await wallet(chainPort, customer, 'fetch', `${api402}/weather/lisbon`, '--max-sats', '10');
    expect(paid).toMatchObject({
      status: 200,
      paid: { satoshis: 1, scheme: 'x402' },
      headers: { 'payment-response': { success: true, network: 'bsv:local' } },
      body: { city: 'lisbon' },
    });
    const { txid } = (paid as Json).paid;
    expect((paid as Json).headers['payment-response'].transaction).toBe(txid);

    const again = await wallet(chainPort, customer, 'fetch', `${api402}/weather/porto`, '--max-sats', '10');
    expect(again).toMatchObject({ status: 200, paid: null, body: { city: 'porto' } });

    const payments = await api(instance.base, 'GET', '/api/v1/402/payments', paygateKey);
    expect(payments.body.data).toEqual([
      expect.objectContaining({ txid, satoshis: 1, protocol: 'x402', calls: 10, calls_used: 1, path: '/weather/*' }),
    ]);
  });

  const chain = () => createChainClient({ network: 'local', localUrl: `http://127.0.0.1:${chainPort}`, retries: 1 });

  /** A payer's coin from the faucet, mined, so that its transaction carries a merkle path into the BEEF. */
  async function minedCoin(key: PrivateKey) {
    const funding = await requestFaucet(`http://127.0.0.1:${chainPort}`, key.toAddress('testnet'), 10_000);
    await mineBlocks(`http://127.0.0.1:${chainPort}`);
    const source = Transaction.fromHex(funding.raw_tx);
    source.merklePath = (await chain().getStatus(source.id('hex'))).merklePath;
    return { source, vout: funding.vout };
  }

  /** A transaction paying `satoshis` to `script` (output 0), change back to the payer; the BEEF in base64. */
  async function payment(script: string, satoshis: number) {
    const key = PrivateKey.fromRandom();
    const coin = await minedCoin(key);
    const tx = new Transaction();
    tx.addInput({ sourceTransaction: coin.source, sourceOutputIndex: coin.vout, unlockingScriptTemplate: new P2PKH().unlock(key) });
    tx.addOutput({ lockingScript: LockingScript.fromHex(script), satoshis });
    tx.addOutput({ lockingScript: new P2PKH().lock(key.toAddress('testnet')), satoshis: 10_000 - satoshis - 50 });
    await tx.sign();
    return { txid: tx.id('hex'), beef: Buffer.from(tx.toBEEF()).toString('base64') };
  }

  /** What a client written against x402 sends: PAYMENT-SIGNATURE, base64 of the PaymentPayload for the offer it accepted. */
  function x402Signature(accepted: Json, beef: string) {
    return Buffer.from(JSON.stringify({ x402Version: 2, accepted, payload: { transaction: beef, vout: 0 } })).toString('base64');
  }

  async function offer(city: string): Promise<Json> {
    const answer = await fetch(`${api402}/weather/${city}`);
    expect(answer.status).toBe(402);
    return ((await answer.json()) as Json).accepts[0];
  }

  async function paidWith(city: string, headers: Record<string, string>) {
    const answer = await fetch(`${api402}/weather/${city}`, { headers });
    return { status: answer.status, body: (await answer.json()) as Json, headers: answer.headers };
  }

  it('refuses a replayed transaction, a stale nonce, an underpayment and a payment to the wrong output, each with a 402 saying why', async () => {
    const first = await offer('oslo');
    const paid = await payment(first.extra.lockingScript, 1);
    const accepted = await paidWith('oslo', { 'payment-signature': x402Signature(first, paid.beef) });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.headers.get('x-ctk-credential')).toBeTruthy();

    const replayed = await paidWith('oslo', { 'payment-signature': x402Signature(await offer('oslo'), paid.beef) });
    expect(replayed.status).toBe(402);
    expect(replayed.body.error).toMatch(/^txid_already_used: Transaction [0-9a-f]{64} already paid/);

    const stale = await payment(first.extra.lockingScript, 1);
    const staleAnswer = await paidWith('oslo', { 'payment-signature': x402Signature(first, stale.beef) });
    expect(staleAnswer.status).toBe(402);
    expect(staleAnswer.body.error).toMatch(/^payment_expired: This payment request was already paid/);

    const fresh = await offer('oslo');
    const under = await payment(fresh.extra.lockingScript, 0);
    const underAnswer = await paidWith('oslo', { 'payment-signature': x402Signature(fresh, under.beef) });
    expect(underAnswer.status).toBe(402);
    expect(underAnswer.body.error).toMatch(/^payment_underpaid: Output 0 pays 0 satoshis; the price is 1/);

    const elsewhere = await payment(new P2PKH().lock(PrivateKey.fromRandom().toAddress('testnet')).toHex(), 1);
    const elsewhereAnswer = await paidWith('oslo', { 'payment-signature': x402Signature(fresh, elsewhere.beef) });
    expect(elsewhereAnswer.status).toBe(402);
    expect(elsewhereAnswer.body.error).toMatch(/^payment_wrong_output: /);

    // Nothing refused was broadcast; each refusal came with a new payment request to pay instead.
    expect(await chain().getTransaction(under.txid)).toBeNull();
    expect(await chain().getTransaction(elsewhere.txid)).toBeNull();
    expect(underAnswer.body.accepts[0].extra.nonce).not.toBe(fresh.extra.nonce);
  });

  it('is paid by a client written as @bsv/402-pay writes it: BRC-121 headers, a BRC-42 key of x-bsv-server', async () => {
    const bare = await fetch(`${api402}/weather/bergen`);
    const satoshis = Number(bare.headers.get('x-bsv-sats'));
    const serverKey = bare.headers.get('x-bsv-server')!;
    // constructPaymentHeaders of @bsv/402-pay's client: a random nonce, the time, BRC-29's protocol, counterparty the server.
    const client = new ProtoWallet(PrivateKey.fromRandom());
    const nonce = Utils.toBase64(Random(8));
    const time = String(Date.now());
    const { publicKey: derived } = await client.getPublicKey({
      protocolID: [2, '3241645161d8'],
      keyID: `${nonce} ${Utils.toBase64(Utils.toArray(time, 'utf8'))}`,
      counterparty: serverKey,
    });
    const { publicKey: sender } = await client.getPublicKey({ identityKey: true });
    const paid = await payment(new P2PKH().lock(PublicKey.fromString(derived).toHash() as number[]).toHex(), satoshis);
    const answer = await paidWith('bergen', {
      'x-bsv-beef': paid.beef,
      'x-bsv-sender': sender,
      'x-bsv-nonce': nonce,
      'x-bsv-time': time,
      'x-bsv-vout': '0',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ city: 'bergen' });
    const payments = await api(instance.base, 'GET', '/api/v1/402/payments', paygateKey);
    expect(payments.body.data.find((row: Json) => row.txid === paid.txid)).toMatchObject({
      protocol: 'brc121',
      payer: sender,
      derivation_prefix: nonce,
    });
  });

  it('books every payment like any other: BSV in at 1010 against revenue, and the trial balance balances', async () => {
    const payments = (await api(instance.base, 'GET', '/api/v1/402/payments', paygateKey)).body.data as Json[];
    expect(payments.length).toBe(3);
    const ledger = await until(
      () => api(instance.base, 'GET', '/api/v1/orgs/blue-bottle-cafe/ledger', apiKey),
      (answer) => payments.every((payment) => answer.body.data?.some((entry: Json) => entry.txid === payment.txid)),
      'the ledger entries of the gate payments',
    );
    const entry = ledger.body.data.find((row: Json) => row.txid === payments[0]!.txid);
    expect(entry.currency).toBe('BSV');
    expect(entry.lines.find((line: Json) => line.account_code === '1010')).toMatchObject({ debit_minor: payments[0]!.satoshis });
    const trial = (await api(instance.base, 'GET', '/api/v1/orgs/blue-bottle-cafe/reports/trial-balance', apiKey)).body;
    for (const row of trial.data) expect(Number(row.total_debit_minor), row.currency).toBe(Number(row.total_credit_minor));
  });
});
