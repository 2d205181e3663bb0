import { LockingScript, MerklePath, P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import Fastify, { type FastifyInstance } from 'fastify';
import { paygateFastify, type PaygateOptions } from '../src/server/index.js';
import type { FakeGate } from '../src/testing/index.js';

/**
 * A signed transaction paying `satoshis` to `lockingScript` from a coin of its own (a made-up mined
 * parent with a merkle path), as BEEF: what a wallet hands over. Each call spends a new coin.
 */
export async function signedPayment(lockingScript: string, satoshis: number, key = PrivateKey.fromRandom()) {
  const parent = new Transaction(
    1,
    [],
    [{ lockingScript: new P2PKH().lock(key.toPublicKey().toHash() as number[]), satoshis: 100_000 + Math.floor(Math.random() * 100_000) }],
  );
  parent.merklePath = MerklePath.fromCoinbaseTxidAndHeight(parent.id('hex'), 1);
  const tx = new Transaction();
  tx.addInput({ sourceTransaction: parent, sourceOutputIndex: 0, unlockingScriptTemplate: new P2PKH().unlock(key) });
  tx.addOutput({ lockingScript: LockingScript.fromHex(lockingScript), satoshis });
  tx.addOutput({ lockingScript: new P2PKH().lock(key.toPublicKey().toHash() as number[]), change: true });
  await tx.fee(1);
  await tx.sign();
  return { beef: tx.toBEEF(), vout: 0, txid: tx.id('hex'), sender: key.toPublicKey().toString() };
}

/** The x402 `payment-signature` a payer sends for a 402's `payment-required` (built here, apart from the client's code). */
export async function x402Payment(response: Response): Promise<{ header: string; txid: string }> {
  const required = JSON.parse(Buffer.from(response.headers.get('payment-required') ?? '', 'base64').toString()) as {
    resource: unknown;
    accepts: Array<{ amount: string; extra: { lockingScript: string } }>;
  };
  const accepted = required.accepts[0]!;
  const paid = await signedPayment(accepted.extra.lockingScript, Number(accepted.amount));
  const payment = {
    x402Version: 2,
    resource: required.resource,
    accepted,
    payload: { transaction: Buffer.from(paid.beef).toString('base64'), vout: 0 },
  };
  return { header: Buffer.from(JSON.stringify(payment)).toString('base64'), txid: paid.txid };
}

/** A fastify app with the plugin in front of `/weather/*` and `/news` (what the gate prices), and `/health`, on 127.0.0.1:0. */
export async function fastifyApp(gate: FakeGate, options: Partial<PaygateOptions> = {}): Promise<{ app: FastifyInstance; base: string }> {
  const app = Fastify();
  await app.register(paygateFastify, { gateUrl: gate.url, key: gate.key, account: gate.account, onError: () => undefined, ...options });
  app.get('/weather/:day', { paygate: true }, async (request) => ({ day: (request.params as { day: string }).day, forecast: 'sunny' }));
  app.post('/weather/report', { paygate: true }, async (request) => ({ received: request.body }));
  app.get('/news', { paygate: true }, async () => ({ news: 'none' }));
  app.get('/health', async () => ({ ok: true }));
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, base };
}

/** `payment-response` decoded. */
export function paymentResponse(response: Response): Record<string, unknown> {
  return JSON.parse(Buffer.from(response.headers.get('payment-response') ?? '', 'base64').toString()) as Record<string, unknown>;
}
