import { Utils } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import type { ChainState } from './chain-state.js';
import { p2pkhHash, p2pkhLock } from './local-chain.js';
import type { Reply, Route } from './router.js';
import type { IndexedTokenOutput } from './token-index.js';

/** Where 1Sat's indexer serves BSV-20/21 tokens (`https://ordinals.gorillapool.io/api/bsv20`). */
export const TOKEN_INDEXER_BASE_PATH = '/api/bsv20';

const ADDRESS = '([1-9A-HJ-NP-Za-km-z]{25,40})';
const TOKEN_ID = '([0-9a-f]{64}_\\d{1,10})';
const route = (pattern: string, handle: Route['handle']): Route => ({
  method: 'GET',
  path: new RegExp(`^${TOKEN_INDEXER_BASE_PATH}${pattern}$`),
  handle,
});

/**
 * The subset of 1Sat's token indexer API (GorillaPool's `/api/bsv20`) the chain client reads, in its shapes:
 * an address's balances (`/{address}/balance`), its unspent outputs of a token (`/{address}/id/{id}`,
 * `/{address}/unspent?id=`), a token's holders (`/id/{id}/holders?limit=&offset=`: `[{address, amt}]`, most
 * first, as 1Sat's server sums its valid unspent outputs by owner) and a transaction's token outputs with their
 * validity (`/txid/{txid}`). Only valid
 * outputs count in balances and unspent lists, as there; `confirmed` is what is mined, `pending` what is in
 * the mempool (1Sat's `pending` is what it has not yet validated: here nothing waits).
 */
export function tokenIndexerRoutes(state: ChainState): Route[] {
  return [
    route(`/${ADDRESS}/balance`, ({ params: [address] }) => ({ status: 200, json: balances(state, address!) })),
    route(`/${ADDRESS}/id/${TOKEN_ID}`, ({ params: [address, tokenId] }) => ({
      status: 200,
      json: state.tokens.unspent(ownerPkh(address!), tokenId).map((output) => txo(state, output)),
    })),
    route(`/${ADDRESS}/unspent`, ({ params: [address], query }) => ({
      status: 200,
      json: state.tokens.unspent(ownerPkh(address!), query.get('id') ?? undefined).map((output) => txo(state, output)),
    })),
    route(`/id/${TOKEN_ID}/holders`, ({ params: [tokenId], query }) => {
      const { limit, offset } = holdersPage(query);
      const holders = state.tokens.holders(tokenId!).slice(offset, offset + limit);
      return { status: 200, json: holders.map((holder) => ({ address: addressOf(holder.ownerPkh), amt: holder.amount.toString() })) };
    }),
    route('/txid/([0-9a-f]{64})', ({ params: [txid] }): Reply => {
      if (!state.transaction(txid!))
        return { status: 404, json: { error: { code: 'not_found', message: `transaction ${txid} not found` } } };
      return { status: 200, json: state.tokens.outputsOf(txid!).map((output) => txo(state, output)) };
    }),
  ];
}

/** 1Sat's page of holders: `limit` (default 10, as its server has it) and `offset` (default 0), whole numbers. */
function holdersPage(query: URLSearchParams): { limit: number; offset: number } {
  const read = (name: string, fallback: number) => {
    const value = query.get(name);
    if (value === null) return fallback;
    if (!/^\d{1,9}$/.test(value)) throw new AppError('validation_failed', `${name} must be a whole number`);
    return Number(value);
  };
  return { limit: read('limit', 10), offset: read('offset', 0) };
}

function ownerPkh(address: string): string {
  const hash = p2pkhHash(p2pkhLock(address));
  if (!hash) throw new AppError('validation_failed', `${address} is not a P2PKH address`);
  return hash;
}

const addressOf = (pkh: string) => Utils.toBase58Check(Utils.toArray(pkh, 'hex'), [0x6f]);

/** An output as 1Sat's indexer lists one (its `BSV20Txo`), with `cosigner` added for a cosign-locked one. */
function txo(state: ChainState, output: IndexedTokenOutput) {
  const block = state.transaction(output.txid)?.block;
  const deploy = state.tokens.deploy(output.tokenId);
  return {
    txid: output.txid,
    vout: output.vout,
    outpoint: `${output.txid}_${output.vout}`,
    owner: addressOf(output.ownerPkh),
    satoshis: output.satoshis,
    script: Utils.toBase64(output.lockingScript.toBinary()),
    height: block?.height ?? null,
    idx: block?.index ?? 0,
    op: output.op,
    id: output.tokenId,
    sym: deploy?.symbol ?? null,
    dec: deploy?.decimals ?? null,
    amt: output.amount.toString(),
    status: output.valid ? 1 : -1,
    reason: output.reason ?? null,
    listing: false,
    spend: output.spentBy ?? '',
    ...(output.cosignerPublicKey ? { cosigner: output.cosignerPublicKey } : {}),
  };
}

/** 1Sat's `/{address}/balance`: per token, what the address's valid unspent outputs hold, mined and not. */
function balances(state: ChainState, address: string) {
  const totals = new Map<string, { confirmed: bigint; pending: bigint }>();
  for (const output of state.tokens.unspent(ownerPkh(address))) {
    const total = totals.get(output.tokenId) ?? { confirmed: 0n, pending: 0n };
    if (state.transaction(output.txid)?.block) total.confirmed += output.amount;
    else total.pending += output.amount;
    totals.set(output.tokenId, total);
  }
  return [...totals].map(([id, total]) => {
    const deploy = state.tokens.deploy(id);
    return {
      id,
      sym: deploy?.symbol ?? null,
      dec: deploy?.decimals ?? 0,
      all: { confirmed: total.confirmed.toString(), pending: total.pending.toString() },
      listed: { confirmed: '0', pending: '0' },
    };
  });
}
