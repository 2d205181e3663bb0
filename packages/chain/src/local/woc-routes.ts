import { Hash, P2PKH, Utils } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import { WOC_BULK_ADDRESSES } from '../client/woc-adapter.js';
import type { Block, ChainState, TxRecord } from './chain-state.js';
import { NULL_TXID } from './chain-state.js';
import { p2pkhHash, p2pkhLock } from './local-chain.js';
import { jsonBody, type Reply, type Route } from './router.js';

/** Where the WhatsOnChain-compatible API lives on the local chain: a WoC client needs only this base URL. */
export const WOC_BASE_PATH = '/v1/bsv/local';

const TXID = '([0-9a-f]{64})';
const ADDRESS = '([1-9A-HJ-NP-Za-km-z]{25,40})';
const route = (method: Route['method'], pattern: string, handle: Route['handle']): Route => ({
  method,
  path: new RegExp(`^${WOC_BASE_PATH}${pattern}$`),
  handle,
});
const notFound = (what: string): Reply => ({ status: 404, text: `${what} not found` });

/** The subset of WhatsOnChain's API the chain client uses, in WoC's shapes. */
export function wocRoutes(state: ChainState): Route[] {
  return [
    route('GET', '/chain/info', () => ({ status: 200, json: chainInfo(state) })),
    route('GET', '/block/headers', () => ({
      status: 200,
      json: state.blocks
        .slice(-10)
        .reverse()
        .map((block) => header(state, block)),
    })),
    route('GET', '/block/(\\d+|[0-9a-f]{64})/header', ({ params: [id] }) => withBlock(state, id!, (block) => header(state, block))),
    route('GET', '/block/height/(\\d+)', ({ params: [id] }) => withBlock(state, id!, (block) => blockWithTxids(state, block))),
    route('GET', `/block/hash/${TXID}`, ({ params: [id] }) => withBlock(state, id!, (block) => blockWithTxids(state, block))),
    route('GET', `/tx/hash/${TXID}`, ({ params: [txid] }) =>
      withTx(state, txid!, (record) => ({ status: 200, json: txDetails(state, record) })),
    ),
    route('GET', `/tx/${TXID}/hex`, ({ params: [txid] }) =>
      withTx(state, txid!, (record) => ({ status: 200, text: Utils.toHex(Array.from(record.raw)) })),
    ),
    route('GET', `/tx/${TXID}/proof/tsc`, ({ params: [txid] }) => withTx(state, txid!, (record) => tscProof(state, record))),
    route('GET', `/address/${ADDRESS}/unspent`, ({ params: [address] }) => ({ status: 200, json: unspent(state, address!) })),
    route('GET', `/address/${ADDRESS}/history`, ({ params: [address] }) => ({ status: 200, json: history(state, address!) })),
    route('POST', '/addresses/history/all', (request) => ({ status: 200, json: bulkHistory(state, jsonBody(request).addresses) })),
    route('GET', `/address/${ADDRESS}/balance`, ({ params: [address] }) => ({ status: 200, json: balance(state, address!) })),
  ];
}

function withBlock(state: ChainState, id: string, render: (block: Block) => unknown): Reply {
  const block = state.block(/^\d+$/.test(id) ? Number(id) : id);
  return block ? { status: 200, json: render(block) } : notFound('block');
}

function withTx(state: ChainState, txid: string, render: (record: TxRecord) => Reply): Reply {
  const record = state.transaction(txid);
  return record ? render(record) : notFound('transaction');
}

function chainInfo(state: ChainState) {
  const tip = state.tip!;
  return {
    chain: 'local',
    blocks: tip.height,
    headers: tip.height,
    bestblockhash: tip.hash,
    difficulty: 4.656542373906925e-10,
    mediantime: state.medianTimePast(),
    verificationprogress: 1,
    pruned: false,
    chainwork: (tip.height + 1).toString(16).padStart(64, '0'),
  };
}

function header(state: ChainState, block: Block) {
  return {
    hash: block.hash,
    confirmations: state.height - block.height + 1,
    height: block.height,
    version: 0x20000000,
    versionHex: '20000000',
    merkleroot: block.merkleRoot,
    time: block.time,
    mediantime: state.medianTimePast(block.height),
    nonce: block.nonce,
    bits: block.bits.toString(16).padStart(8, '0'),
    difficulty: 4.656542373906925e-10,
    previousblockhash: block.height > 0 ? block.prevHash : undefined,
    nextblockhash: state.block(block.height + 1)?.hash,
    nTx: block.txids.length,
  };
}

function blockWithTxids(state: ChainState, block: Block) {
  return { ...header(state, block), tx: block.txids };
}

function txDetails(state: ChainState, record: TxRecord) {
  const { tx, txid } = record;
  const block = record.block && state.block(record.block.height);
  return {
    txid,
    hash: txid,
    version: tx.version,
    size: record.raw.length,
    locktime: tx.lockTime,
    vin: tx.inputs.map((input) =>
      input.sourceTXID === NULL_TXID
        ? { coinbase: input.unlockingScript!.toHex(), sequence: input.sequence }
        : {
            txid: input.sourceTXID,
            vout: input.sourceOutputIndex,
            scriptSig: { asm: input.unlockingScript!.toASM(), hex: input.unlockingScript!.toHex() },
            sequence: input.sequence,
          },
    ),
    vout: tx.outputs.map((output, n) => {
      const hash = p2pkhHash(output.lockingScript);
      return {
        value: (output.satoshis ?? 0) / 1e8,
        n,
        scriptPubKey: {
          asm: output.lockingScript.toASM(),
          hex: output.lockingScript.toHex(),
          type: hash ? 'pubkeyhash' : output.lockingScript.toHex().startsWith('006a') ? 'nulldata' : 'nonstandard',
          addresses: hash ? [Utils.toBase58Check(Utils.toArray(hash, 'hex'), [0x6f])] : [],
        },
      };
    }),
    blockhash: block?.hash,
    blockheight: block?.height,
    confirmations: block ? state.height - block.height + 1 : 0,
    time: block?.time,
    blocktime: block?.time,
  };
}

/** WhatsOnChain's TSC proof: the index, the block hash as target and the sibling at every level ("*" for a duplicate). */
function tscProof(state: ChainState, record: TxRecord): Reply {
  const path = state.merklePath(record.txid);
  if (!path || !record.block) return notFound('merkle proof');
  // A block of one transaction has a path of no siblings: its txid is the merkle root, and nodes is [].
  const nodes = path.path.flatMap((level, height) => {
    const sibling = level.find((leaf) => leaf.offset === ((record.block!.index >> height) ^ 1));
    if (!sibling) return [];
    return [sibling.duplicate ? '*' : sibling.hash!];
  });
  return { status: 200, json: [{ index: record.block.index, txOrId: record.txid, target: state.block(record.block.height)!.hash, nodes }] };
}

function addressHash(address: string): string {
  const hash = p2pkhHash(p2pkhLock(address));
  if (!hash) throw new AppError('validation_failed', `${address} is not a P2PKH address`);
  return hash;
}

const heightOf = (state: ChainState, txid: string) => state.transaction(txid)?.block?.height ?? 0;

function unspent(state: ChainState, address: string) {
  return state
    .unspent(addressHash(address))
    .map((coin) => ({ height: heightOf(state, coin.txid), tx_pos: coin.vout, tx_hash: coin.txid, value: coin.satoshis }))
    .sort((a, b) => (a.height || Infinity) - (b.height || Infinity));
}

function history(state: ChainState, address: string) {
  return state.history(addressHash(address)).map((txid) => ({ tx_hash: txid, height: heightOf(state, txid) }));
}

/** WoC's bulk history: at most WOC_BULK_ADDRESSES addresses, each with its confirmed and unconfirmed transactions apart. */
function bulkHistory(state: ChainState, addresses: unknown) {
  const most = WOC_BULK_ADDRESSES;
  if (!Array.isArray(addresses) || addresses.length === 0 || addresses.length > most || addresses.some((a) => typeof a !== 'string'))
    throw new AppError('validation_failed', `addresses must be a list of 1 to ${most} addresses.`);
  return (addresses as string[]).map((address) => {
    const hash = addressHash(address);
    const entries = state.history(hash).map((txid) => ({ tx_hash: txid, height: heightOf(state, txid) }));
    return {
      address,
      script: Utils.toHex(Hash.sha256(new P2PKH().lock(Utils.toArray(hash, 'hex')).toBinary()).reverse()),
      unconfirmed: { result: entries.filter((e) => e.height === 0).map(({ tx_hash }) => ({ tx_hash })), error: '' },
      confirmed: { result: entries.filter((e) => e.height > 0), error: '' },
    };
  });
}

function balance(state: ChainState, address: string) {
  const coins = unspent(state, address);
  const sum = (list: typeof coins) => list.reduce((total, coin) => total + coin.value, 0);
  return { confirmed: sum(coins.filter((coin) => coin.height > 0)), unconfirmed: sum(coins.filter((coin) => coin.height === 0)) };
}
