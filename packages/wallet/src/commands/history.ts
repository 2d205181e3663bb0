import type { Transaction } from '@bsv/sdk';
import { HISTORIES_AT_ONCE, type ChainClient, type HistoryEntry } from '@ctk/chain';
import { AppError } from '@ctk/shared';
import { P2PKH } from '@bsv/sdk';
import { report } from '../io.js';
import { ownedAddresses } from '../wallet-coins.js';
import type { CommandContext } from './context.js';

/**
 * The transactions of the wallet's addresses (its own and, for an HD wallet, the xpub's used children m/0/n) on
 * chain, newest first, each with what it did to the balance and, for payments made here, to whom.
 */
export async function history({ io, options, chain, wallet }: CommandContext): Promise<void> {
  const opened = wallet();
  const limit = options.limit === undefined ? 20 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new AppError('bad_request', `--limit must be a whole number from 1 to 1000, not "${options.limit}".`);
  const addresses = await ownedAddresses(chain.client, opened);
  const histories: HistoryEntry[][] = [];
  for (let start = 0; start < addresses.length; start += HISTORIES_AT_ONCE) {
    const group = addresses.slice(start, start + HISTORIES_AT_ONCE).map((owned) => owned.address);
    const found = await chain.client.histories(group);
    histories.push(...group.map((address) => found.get(address) ?? []));
  }
  const all = newestFirst(histories);
  const ours = new Set(all.map((entry) => entry.txid));
  const load = loader(chain.client);
  const ownScripts = new Set(addresses.map((owned) => new P2PKH().lock(owned.address).toHex()));
  const paidToUs = (tx: Transaction | undefined, vout: number) => {
    const output = tx?.outputs[vout];
    return output && ownScripts.has(output.lockingScript.toHex()) ? (output.satoshis ?? 0) : 0;
  };

  const rows = [];
  for (const entry of all.slice(0, limit)) {
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

/** One list of several addresses' histories (each oldest first): unmined first, then by height, later arrivals first. */
function newestFirst(histories: HistoryEntry[][]): HistoryEntry[] {
  const seen = new Map<string, { txid: string; height?: number; order: number }>();
  histories.forEach((history) =>
    history.forEach((entry, order) => {
      if (!seen.has(entry.txid)) seen.set(entry.txid, { ...entry, order });
    }),
  );
  return [...seen.values()]
    .sort((a, b) => (b.height ?? Infinity) - (a.height ?? Infinity) || b.order - a.order)
    .map(({ txid, height }) => ({ txid, ...(height === undefined ? {} : { height }) }));
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
