// A request paid with HTTP 402 (README "Paid per request (HTTP 402)", decision 0021). This plays both sides of
// the merchant's API as examples/paid-api runs it: the middleware (@ctk/paygate's createPaygate) puts each
// request to the gate's POST /api/v1/402/check with the merchant's payment-gate key and its payment headers
// only, and the customer pays the 402 as @ctk/paygate's client does (x402: `payment-signature`, a BEEF of a
// signed, unbroadcast transaction). "Paid" is the check's outcome `paid` with a credential; p2p posts it as
// `payment.received` with the txid, and the gate payment's id as its source id.
import { randomBytes, randomUUID } from 'node:crypto';
import { LockingScript, P2PKH, Transaction } from '@bsv/sdk';
import { createChainClient, type ChainClient } from '@ctk/chain';
import { merchantKeys } from '../../../apps/gateway/test/wallet-http.js';
import { call, customerCoin, retried, type Accepted, type Bench, type Json, type PaymentPath } from '../path.js';

const MERCHANTS = 5;
const PRICE = 100;
const FEE = 200;

type Merchant = { handle: string; key: string; gateKey: string; api: string };
const merchants: Merchant[] = [];

/** One idempotent POST of setup: retried with the same Idempotency-Key, so a lost answer is replayed, not made twice. */
function create(what: string, url: string, body: unknown, key?: string): Promise<Json> {
  const headers: Record<string, string> = { 'idempotency-key': randomUUID(), ...(key ? { authorization: `Bearer ${key}` } : {}) };
  return retried(what, () => call(what, 'POST', url, body, headers));
}

/** What the merchant's middleware asks the gate about a request to its API: GET `url` with these payment headers. */
function check(bench: Bench, merchant: Merchant, url: string, headers: Record<string, string>): Promise<Json> {
  return retried('the gate check', () =>
    call(
      'the gate check',
      'POST',
      `${bench.base}/api/v1/402/check`,
      { method: 'GET', url, headers },
      { authorization: `Bearer ${merchant.gateKey}` },
    ),
  );
}

// The customer's wallet reads the chain as any wallet does; transactions never change, so one cache serves every payment.
let chain: ChainClient | undefined;
const transactions = new Map<string, Transaction>();

/**
 * Makes `tx` ready for BEEF as the wallet's `proveAncestry` does: each unmined ancestor with its own source
 * transactions, down to mined ones carrying their merkle paths (a faucet coin is unmined, as are the faucet's
 * change outputs it was paid from since the last block).
 */
async function proveAncestry(bench: Bench, tx: Transaction): Promise<void> {
  chain ??= createChainClient({ network: 'local', localUrl: bench.chainUrl });
  const client = chain;
  for (const input of tx.inputs) {
    const source = input.sourceTransaction!;
    if (source.merklePath) continue;
    const status = await retried('a transaction status', () => client.getStatus(source.id('hex')));
    if (status.state === 'mined' && status.merklePath) {
      source.merklePath = status.merklePath;
      continue;
    }
    for (const parent of source.inputs) {
      const txid = parent.sourceTXID!;
      let known = transactions.get(txid);
      if (!known) {
        const found = await retried('a transaction', () => client.getTransaction(txid));
        if (!found) throw new Error(`the chain does not have transaction ${txid}, an ancestor of a customer's coin`);
        known = found.tx;
        transactions.set(txid, known);
      }
      parent.sourceTransaction ??= known;
    }
    await proveAncestry(bench, source);
  }
}

/** The x402 offer of a 402 as @ctk/paygate's client reads it: the `payment-required` header, its `exact` BSV entry. */
function offerOf(required: Json): { paymentRequired: Json; accepted: Json; satoshis: number; lockingScript: string } {
  const paymentRequired = JSON.parse(Buffer.from(required.headers['payment-required'] as string, 'base64').toString('utf8'));
  const accepted = (paymentRequired.accepts as Json[]).find(
    (entry) => entry.scheme === 'exact' && String(entry.network).startsWith('bsv:') && entry.extra?.lockingScript,
  );
  if (!accepted) throw new Error(`the 402 offers no x402 BSV payment: ${JSON.stringify(paymentRequired).slice(0, 300)}`);
  return { paymentRequired, accepted, satoshis: Number(accepted.amount), lockingScript: accepted.extra.lockingScript };
}

export const path: PaymentPath = {
  name: 'paygate-402',

  async setup(bench) {
    const run = randomBytes(4).toString('hex');
    for (let i = 0; i < MERCHANTS; i++) {
      // Each 402 pays a fresh child of the organisation's xpub: the gate needs it.
      const onboarded = await create('onboard', `${bench.base}/api/v1/onboard`, {
        name: `Paygate Fault API ${run} ${i}`,
        jurisdiction: 'US-CA',
        wallet_xpub: merchantKeys().xpub,
      });
      const handle: string = onboarded.organization.handle;
      const key: string = onboarded.api_key.key;
      const gateKey: string = (
        await create('a payment-gate key', `${bench.base}/api/v1/orgs/${handle}/paygate-keys`, { name: 'Weather API' }, key)
      ).key;
      await create(
        'a priced route',
        `${bench.base}/api/v1/402/resources`,
        { method: 'GET', path: '/weather/*', price_satoshis: PRICE, grant: { kind: 'calls', calls: 10 } },
        gateKey,
      );
      merchants.push({ handle, key, gateKey, api: `https://weather-${run}-${i}.example` });
    }
  },

  async pay(bench, n): Promise<Accepted> {
    const merchant = merchants[n % merchants.length]!;
    const url = `${merchant.api}/weather/city-${n}`;
    const coin = await customerCoin(bench, PRICE + FEE + 1_000);
    // The bare request: a 402 with a new payment request (asking again after a lost answer only makes another).
    const required = await check(bench, merchant, url, {});
    if (required.outcome !== 'payment_required') throw new Error(`the bare request was ${required.outcome}, not payment_required`);
    const offer = offerOf(required);

    const tx = new Transaction();
    tx.addInput({ sourceTransaction: coin.source, sourceOutputIndex: coin.vout, unlockingScriptTemplate: new P2PKH().unlock(coin.key) });
    tx.addOutput({ lockingScript: LockingScript.fromHex(offer.lockingScript), satoshis: offer.satoshis });
    tx.addOutput({
      lockingScript: new P2PKH().lock(coin.key.toAddress('testnet')),
      satoshis: coin.source.outputs[coin.vout]!.satoshis! - offer.satoshis - FEE,
    });
    await tx.sign();
    await proveAncestry(bench, tx);
    const txid = tx.id('hex');
    const payment = {
      x402Version: 2,
      resource: offer.paymentRequired.resource,
      accepted: offer.accepted,
      payload: { transaction: Buffer.from(tx.toBEEF()).toString('base64'), vout: 0 },
    };
    // The paid retry, resent as it is after a lost answer: the same transaction for the same nonce.
    const paid = await check(bench, merchant, url, { 'payment-signature': Buffer.from(JSON.stringify(payment)).toString('base64') });
    if (paid.outcome !== 'paid' || !paid.credential?.token)
      throw new Error(
        `the paid request was ${paid.outcome}: ${paid.refusal ? `${paid.refusal.code}: ${paid.refusal.message}` : 'no credential'}`,
      );
    if (paid.payment?.txid !== txid) throw new Error(`the gate recorded txid ${paid.payment?.txid}, not ${txid}`);
    return { path: 'paygate-402', org: merchant.handle, key: merchant.key, eventType: 'payment.received', txid, sourceId: paid.payment.id };
  },
};
