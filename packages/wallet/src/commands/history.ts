import type { Transaction } from '@bsv/sdk';
import type { ChainClient } from '@ctk/chain';
import { AppError } from '@ctk/shared';
import { report } from '../io.js';
import type { CommandContext } from './context.js';

/** The address's transactions on chain, newest first, each with what it did to the balance and, for payments made here, to whom. */
export async function history({ io, options, chain, wallet }: CommandContext): Promise<void> {
  const opened = wallet();
  const limit = options.limit === undefined ? 20 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new AppError('bad_request', `--limit must be a whole number from 1 to 1000, not "${options.limit}".`);
  const all = await chain.client.history(opened.address);
  const ours = new Set(all.map((entry) => entry.txid));
  const load = loader(chain.client);
  const ownScript = `76a914${opened.key.toPublicKey().toHash('hex') as string}88ac`;
  const paidToUs = (tx: Transaction | undefined, vout: number) =>
    tx?.outputs[vout]?.lockingScript.toHex() === ownScript ? (tx.outputs[vout]?.satoshis ?? 0) : 0;

  const rows = [];
  for (const entry of [...all].reverse().slice(0, limit)) {
    const tx = await load(entry.txid);
    let net = 0;
    for (const [vout] of (tx?.outputs ?? []).entries()) net += paidToUs(tx, vout);
    // Only a transaction in the address's history can have created a coin it spends.
    for (const input of tx?.inputs ?? [])
      if (ours.has(input.sourceTXID as string)) net -= paidToUs(await load(input.sourceTXID as string), input.sourceOutputIndex);
    const payment = opened.payments.find((p) => p.txid === entry.txid);
    rows.push({
      txid: entry.txid,
      height: entry.height ?? null,
      net_satoshis: net,
      ...(payment ? { to: payment.to, reference: payment.reference ?? null } : {}),
    });
  }
  report(
    io,
    options.json,
    { address: opened.address, transactions: rows },
    rows.length === 0
      ? ['No transactions yet.']
      : rows.map(
          (row) =>
            `${row.height === null ? 'mempool' : `block ${row.height}`}  ${row.txid}  ${row.net_satoshis > 0 ? '+' : ''}${row.net_satoshis}${row.to ? `  to ${row.to}` : ''}${row.reference ? ` (${row.reference})` : ''}`,
        ),
  );
}

function loader(chain: ChainClient): (txid: string) => Promise<Transaction | undefined> {
  const cache = new Map<string, Promise<Transaction | undefined>>();
  return (txid) => {
    if (!cache.has(txid))
      cache.set(
        txid,
        chain.getTransaction(txid).then((found) => found?.tx),
      );
    return cache.get(txid) as Promise<Transaction | undefined>;
  };
}
