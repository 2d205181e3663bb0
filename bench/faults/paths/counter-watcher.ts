// A counter order paid without BIP270 (decision 0015): the customer's wallet reads the order's bitcoin: URI
// (its QR), pays the address what it asks and broadcasts the transaction to the chain itself (the local
// chain's ARC). pos's watcher asks p2p what paid the open orders' addresses every POS_WATCH_INTERVAL_MS
// (5 s), mempool included, and settles what it finds; no block and no staff confirmation needed. "Paid"
// is the order reading paid (its page or the till polls it). pos posts it as `payment.received` with the txid.
import { P2PKH, Transaction } from '@bsv/sdk';
import { call, customerCoin, HttpError, retried, transient, type Accepted, type Bench, type Json, type PaymentPath } from '../path.js';
import { FEE, onboardCafes, openCounterOrder, type Merchant } from './counter-bip270.js';

/** How long the order may take to read paid: a watcher round or two, more while a fault holds p2p or pos. */
const PAID_WITHIN_MS = 180_000;
const POLL_MS = 1_000;

const sleep = (ms: number) => new Promise((later) => setTimeout(later, ms));

/** The address and satoshis of a bitcoin: URI (BIP21: amount in BSV, read as a decimal string, no float). */
function bip21(uri: string): { address: string; satoshis: number } {
  const { pathname, searchParams } = new URL(uri);
  const [whole = '0', fraction = ''] = (searchParams.get('amount') ?? '0').split('.');
  return { address: pathname, satoshis: Number(whole) * 100_000_000 + Number(fraction.padEnd(8, '0')) };
}

/** The wallet's broadcast: the same transaction on every try (ARC answers a known one with its status). */
async function broadcast(bench: Bench, tx: Transaction): Promise<void> {
  const answer: Json = await retried('the broadcast', () =>
    call('the broadcast', 'POST', `${bench.chainUrl}/v1/tx`, { rawTx: tx.toHex() }),
  );
  // A refusal comes as a 200 with its txStatus: final, not to retry.
  if (answer.txStatus === 'REJECTED' || answer.txStatus === 'DOUBLE_SPEND_ATTEMPTED')
    throw new HttpError('the broadcast', 422, JSON.stringify(answer));
}

let merchants: Merchant[] = [];

export const path: PaymentPath = {
  name: 'counter-watcher',

  async setup(bench) {
    merchants = await onboardCafes(bench, 'Counter Watcher Cafe');
  },

  async pay(bench, n): Promise<Accepted> {
    const merchant = merchants[n % merchants.length]!;
    const order = await openCounterOrder(bench, merchants, 'counter-watcher', n);
    const { address, satoshis } = bip21(order.bip21_uri);
    const coin = await customerCoin(bench, satoshis + FEE);
    const tx = new Transaction();
    tx.addInput({ sourceTransaction: coin.source, sourceOutputIndex: coin.vout, unlockingScriptTemplate: new P2PKH().unlock(coin.key) });
    tx.addOutput({ lockingScript: new P2PKH().lock(address), satoshis });
    await tx.sign();
    await broadcast(bench, tx);
    const txid = tx.id('hex');
    // The till polls the public order; a read that fails for a moment (a fault, or the address's allowance of
    // public reads spent: 429) is read again.
    for (const until = Date.now() + PAID_WITHIN_MS; ; await sleep(POLL_MS)) {
      const read: Json = await call('read the order', 'GET', `${bench.base}/api/pos/orders/${order.order_number}`).catch(
        (error: unknown) => {
          if (!transient(error) && !(error instanceof HttpError && error.status === 429)) throw error;
          return undefined;
        },
      );
      if (read?.status === 'paid' || read?.status === 'confirmed') break;
      if (Date.now() > until)
        throw new Error(`order ${order.order_number} is still ${read?.status ?? 'unread'} after ${PAID_WITHIN_MS / 1000} s`);
    }
    return { path: 'counter-watcher', org: merchant.handle, key: merchant.key, eventType: 'payment.received', txid };
  },
};
