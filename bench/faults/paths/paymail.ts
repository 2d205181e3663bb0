// A paymail P2P payment (README "Pay a merchant locally", decision 0007), as a customer's wallet makes it: it
// asks the merchant's paymail host for P2P payment destinations, signs a transaction paying every output, and
// sends it to receive-transaction; the 2xx with the txid is "paid". p2p posts it as `payment.received` with
// that txid (and the destination's reference as its source id).
import { randomBytes, randomUUID } from 'node:crypto';
import { BSM, LockingScript, P2PKH, Transaction, Utils } from '@bsv/sdk';
import { merchantKeys } from '../../../apps/gateway/test/wallet-http.js';
import { call, customerCoin, retried, type Accepted, type Bench, type Json, type PaymentPath } from '../path.js';

const MERCHANTS = 5;
const SATOSHIS = 1_000;
const FEE = 200;

type Merchant = { handle: string; key: string; paymail: string; destinationUrl: string; receiveUrl: string };
const merchants: Merchant[] = [];

/**
 * A capability's URL for `paymail`, on the bench's base: the document names the gateway by its public URL,
 * which the bench may reach through another address.
 */
function capabilityUrl(bench: Bench, capabilities: Json, id: string, paymail: string): string {
  const [alias, domain] = paymail.split('@') as [string, string];
  return (capabilities[id] as string)
    .replace(/^https?:\/\/[^/]+/, bench.base)
    .replace('{alias}', alias)
    .replace('{domain.tld}', domain);
}

export const path: PaymentPath = {
  name: 'paymail',

  async setup(bench) {
    const run = randomBytes(4).toString('hex');
    const capabilities = (
      await retried('the capability document', () => call('the capability document', 'GET', `${bench.base}/.well-known/bsvalias`))
    ).capabilities;
    for (let i = 0; i < MERCHANTS; i++) {
      // The merchant's wallet keeps its keys; the organisation gets its xpub, identity key and a paymail alias.
      const wallet = merchantKeys();
      const idempotencyKey = randomUUID();
      const onboarded = await retried('onboard', () =>
        call(
          'onboard',
          'POST',
          `${bench.base}/api/v1/onboard`,
          {
            name: `Paymail Fault Cafe ${run} ${i}`,
            jurisdiction: 'US-CA',
            paymail_alias: `pm${run}${i}`,
            wallet_xpub: wallet.xpub,
            identity_public_key: wallet.identity.toPublicKey().toString(),
          },
          { 'idempotency-key': idempotencyKey },
        ),
      );
      const paymail: string = onboarded.organization.paymail;
      merchants.push({
        handle: onboarded.organization.handle,
        key: onboarded.api_key.key,
        paymail,
        destinationUrl: capabilityUrl(bench, capabilities, '2a40af698840', paymail),
        receiveUrl: capabilityUrl(bench, capabilities, '5f1323cddf31', paymail),
      });
    }
  },

  async pay(bench, n): Promise<Accepted> {
    const merchant = merchants[n % merchants.length]!;
    const coin = await customerCoin(bench, SATOSHIS + FEE + 1_000);
    // A destination whose answer was lost is only held until it expires: asking again is what a wallet does.
    const asked: Json = await retried('P2P payment destination', () =>
      call('P2P payment destination', 'POST', merchant.destinationUrl, { satoshis: SATOSHIS }),
    );
    const tx = new Transaction();
    tx.addInput({ sourceTransaction: coin.source, sourceOutputIndex: coin.vout, unlockingScriptTemplate: new P2PKH().unlock(coin.key) });
    let paid = 0;
    for (const output of asked.outputs as Array<{ script: string; satoshis: number }>) {
      tx.addOutput({ lockingScript: LockingScript.fromHex(output.script), satoshis: output.satoshis });
      paid += output.satoshis;
    }
    tx.addOutput({
      lockingScript: new P2PKH().lock(coin.key.toAddress('testnet')),
      satoshis: coin.source.outputs[coin.vout]!.satoshis! - paid - FEE,
    });
    await tx.sign();
    const txid = tx.id('hex');
    // Signed once: a retry after a lost answer sends the same transaction for the same reference, which p2p
    // answers the same without recording it again.
    const body = {
      hex: tx.toHex(),
      reference: asked.reference,
      metadata: {
        sender: 'customer@wallet.example',
        pubkey: coin.key.toPublicKey().toString(),
        signature: BSM.sign(Utils.toArray(txid, 'utf8'), coin.key),
        note: `fault bench ${n}`,
      },
    };
    const answer: Json = await retried('P2P receive transaction', () => call('P2P receive transaction', 'POST', merchant.receiveUrl, body));
    if (answer.txid !== txid) throw new Error(`receive-transaction answered txid ${answer.txid}, not ${txid}`);
    return { path: 'paymail', org: merchant.handle, key: merchant.key, eventType: 'payment.received', txid, sourceId: asked.reference };
  },
};
