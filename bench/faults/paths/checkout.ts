// A Buy-button checkout online (decision 0018): the shopper's browser opens a checkout with the merchant's
// commerce key, as checkout.js does (POST /api/v1/commerce/:merchant/checkout, an Idempotency-Key of its own),
// and the customer's wallet pays the order's BIP270 payment request (the checkout's pay: URI): it reads the
// request, signs a transaction paying its outputs (the merchant's and the receipt) and posts the Payment.
// Accepted on a PaymentACK without error, the wallet's "paid"; the checkout's status is not read (the page
// follows the order's stream and would read it only to confirm). pos posts payment.received with the txid.
import { randomUUID } from 'node:crypto';
import { LockingScript, P2PKH, Transaction } from '@bsv/sdk';
import { onboardCafe } from '../../support.js';
import { call, customerCoin, HttpError, retried, type Bench, type Json, type PaymentPath } from '../path.js';

/** Enough merchants that none holds many unpaid orders' addresses at once (each holds at most P2P_GAP_LIMIT). */
const MERCHANTS = 5;
/** What the wallet leaves the miners: the transaction is one input and three outputs. */
const FEE = 200;

type Merchant = { handle: string; key: string; commerceKey: string; itemId: string };
const merchants: Merchant[] = [];

/** A cafe that sells one latte online: onboarded with a wallet, and its publishable commerce key made. */
async function onboardMerchant(bench: Bench, n: number): Promise<Merchant> {
  const run = randomUUID().slice(0, 8);
  const { handle, owner, items } = await onboardCafe(bench.base, `Buy Button Cafe ${run} ${n}`, [
    { name: 'Oat milk latte', price_cents: 575, currency: 'USD' },
  ]);
  const made: Json = await call('the commerce key', 'POST', `${bench.base}/api/v1/orgs/${handle}/commerce-key`, {}, owner, 201);
  return { handle, key: owner.authorization.slice('Bearer '.length), commerceKey: made.commerce_public_key, itemId: items[0]!.id };
}

/** The wallet's transaction: the request's outputs as asked, its change back to the customer, whose address takes a refund. */
async function paymentTransaction(bench: Bench, request: Json): Promise<{ tx: Transaction; refundTo: string }> {
  const outputs: Array<{ script: string; amount: number }> = request.outputs;
  const asked = outputs.reduce((sum, output) => sum + output.amount, 0);
  const coin = await customerCoin(bench, asked + 10_000);
  const tx = new Transaction();
  tx.addInput({ sourceTransaction: coin.source, sourceOutputIndex: coin.vout, unlockingScriptTemplate: new P2PKH().unlock(coin.key) });
  for (const output of outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(output.script), satoshis: output.amount });
  tx.addOutput({ lockingScript: new P2PKH().lock(coin.key.toAddress('testnet')), satoshis: 10_000 - FEE });
  await tx.sign();
  return { tx, refundTo: coin.key.toAddress('testnet') };
}

export const path: PaymentPath = {
  name: 'checkout',

  async setup(bench) {
    for (let n = 0; n < MERCHANTS; n++) merchants.push(await onboardMerchant(bench, n));
  },

  async pay(bench, n) {
    const merchant = merchants[n % merchants.length]!;
    // checkout.js sends one random key per click: its retry gets the same checkout, not a second held output.
    const idempotencyKey = randomUUID();
    const checkout: Json = await retried('the checkout', () =>
      call(
        'the checkout',
        'POST',
        `${bench.base}/api/v1/commerce/${merchant.handle}/checkout`,
        { lines: [{ item_id: merchant.itemId, quantity: 1 }] },
        { 'x-commerce-key': merchant.commerceKey, 'idempotency-key': idempotencyKey },
        201,
      ),
    );
    // The wallet follows the pay: URI to the request, and the request to where its Payment goes.
    const requestUrl = new URLSearchParams(String(checkout.pay_uri).replace(/^pay:\??/, '')).get('r')!;
    const request: Json = await retried('the payment request', () => call('the payment request', 'GET', requestUrl));
    const { tx, refundTo } = await paymentTransaction(bench, request);
    const payment = { merchantData: request.merchantData, transaction: tx.toHex(), memo: request.memo, refundTo };
    // A retry sends the same signed transaction: pos acknowledges a txid it already recorded.
    const ack: Json = await retried('the BIP270 payment', () =>
      call('the BIP270 payment', 'POST', new URL(request.paymentUrl, requestUrl).toString(), payment),
    );
    if (ack.error) throw new HttpError('the BIP270 payment', 200, JSON.stringify(ack));
    return { path: 'checkout', org: merchant.handle, key: merchant.key, eventType: 'payment.received', txid: tx.id('hex') };
  },
};
