// A counter order paid by BIP270 (decision 0015; bench/pos-orders.ts's path): the merchant's staff open an
// order with the owner's key, the customer's wallet reads the order's payment request and posts the signed
// Payment to its paymentUrl. The PaymentACK without error is "paid": pos has had p2p verify, broadcast and
// record the transaction. pos posts it as `payment.received` with that txid (and the order's id, which no
// answer shows, as its source id). The counter paths (counter-watcher.ts, card-use.ts) share its merchants,
// orders and wallet.
import { randomBytes } from 'node:crypto';
import { LockingScript, P2PKH, Transaction } from '@bsv/sdk';
import { merchantKeys } from '../../../apps/gateway/test/wallet-http.js';
import { call, customerCoin, retried, type Accepted, type Bench, type Json, type PaymentPath } from '../path.js';

/** A merchant's unpaid orders hold at most P2P_GAP_LIMIT receiving addresses: the orders spread over several. */
const MERCHANTS = 5;
export const FEE = 200;

/** A cafe of the counter paths: its owner's key (the staff at the till) and its items. */
export type Merchant = { handle: string; key: string; items: Json[] };

const ITEMS = [
  { name: 'Flat white', price_cents: 450, currency: 'USD' },
  { name: 'Croissant', price_cents: 325, currency: 'USD' },
];

export const bearer = (merchant: Merchant) => ({ authorization: `Bearer ${merchant.key}` });

/** Cafes in California (prices exclude tax) with their wallet's xpub and two items, onboarded before any fault. */
export async function onboardCafes(bench: Bench, name: string): Promise<Merchant[]> {
  const run = randomBytes(4).toString('hex');
  const merchants: Merchant[] = [];
  for (let i = 0; i < MERCHANTS; i++) {
    const onboarded: Json = await retried('onboard', () =>
      call(
        'onboard',
        'POST',
        `${bench.base}/api/v1/onboard`,
        { name: `${name} ${run} ${i}`, jurisdiction: 'US-CA', wallet_xpub: merchantKeys().xpub },
        { 'idempotency-key': `onboard-${run}-${i}` },
      ),
    );
    const merchant: Merchant = { handle: onboarded.organization.handle, key: onboarded.api_key.key, items: [] };
    for (const [j, item] of ITEMS.entries())
      merchant.items.push(
        await retried('an item', () =>
          call('an item', 'POST', `${bench.base}/api/v1/orgs/${merchant.handle}/items`, item, {
            ...bearer(merchant),
            'idempotency-key': `item-${run}-${i}-${j}`,
          }),
        ),
      );
    merchants.push(merchant);
  }
  return merchants;
}

/**
 * Staff open an order of `lines` (item ids and quantities). One Idempotency-Key for all its tries (`key`, the
 * payment's own): a retry after a lost answer gets the order the first try opened, never a second one.
 */
export async function openOrder(bench: Bench, merchant: Merchant, lines: Json[], key: string): Promise<Json> {
  return retried('open the order', () =>
    call(
      'open the order',
      'POST',
      `${bench.base}/api/pos/orders`,
      { org_handle: merchant.handle, lines },
      { ...bearer(merchant), 'idempotency-key': key },
      201,
    ),
  );
}

/** The n-th counter order of a flat white and a croissant, at merchant n (of `merchants`), under the Idempotency-Key `<path>-<n>`. */
export function openCounterOrder(bench: Bench, merchants: Merchant[], path: string, n: number): Promise<Json> {
  const merchant = merchants[n % merchants.length]!;
  const [flatWhite, croissant] = merchant.items;
  return openOrder(
    bench,
    merchant,
    [
      { item_id: flatWhite.id, quantity: 1 },
      { item_id: croissant.id, quantity: 1 },
    ],
    `${path}-${n}`,
  );
}

/** `url` on the bench's base: answers name the gateway by its public URL, which the bench may reach through another address. */
export const onBench = (bench: Bench, url: string) => url.replace(/^https?:\/\/[^/]+/, bench.base);

/**
 * The customer's wallet pays the BIP270 payment request at `url` (every output, the receipt's included) from a
 * faucet coin of its own; its txid once the PaymentACK answers without error. Signed once: a retry posts the
 * same Payment, which pos acknowledges without recording it again.
 */
export async function payRequest(bench: Bench, url: string): Promise<string> {
  const request: Json = await retried('the payment request', () => call('the payment request', 'GET', onBench(bench, url)));
  const outputs = request.outputs as Array<{ script: string; amount: number }>;
  const paying = outputs.reduce((sum, output) => sum + output.amount, 0);
  const coin = await customerCoin(bench, paying + FEE);
  const tx = new Transaction();
  tx.addInput({ sourceTransaction: coin.source, sourceOutputIndex: coin.vout, unlockingScriptTemplate: new P2PKH().unlock(coin.key) });
  for (const output of outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(output.script), satoshis: output.amount });
  await tx.sign();
  const payment = { transaction: tx.toHex(), merchantData: request.merchantData, memo: request.memo };
  const ack: Json = await retried('the BIP270 payment', () =>
    call('the BIP270 payment', 'POST', onBench(bench, request.paymentUrl), payment),
  );
  if (ack.error) throw new Error(`the PaymentACK refused the payment: ${JSON.stringify(ack).slice(0, 300)}`);
  return tx.id('hex');
}

let merchants: Merchant[] = [];

export const path: PaymentPath = {
  name: 'counter-bip270',

  async setup(bench) {
    merchants = await onboardCafes(bench, 'Counter BIP270 Cafe');
  },

  async pay(bench, n): Promise<Accepted> {
    const merchant = merchants[n % merchants.length]!;
    const order = await openCounterOrder(bench, merchants, 'counter-bip270', n);
    const txid = await payRequest(bench, order.payment_request_url);
    return { path: 'counter-bip270', org: merchant.handle, key: merchant.key, eventType: 'payment.received', txid };
  },
};
