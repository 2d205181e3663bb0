import type { LockingScript, MerklePath, Transaction } from '@bsv/sdk';
import { merkleLevels, merklePathFor, type BlockHeader } from './block.js';
import { TokenIndex } from './token-index.js';

export type Coin = {
  txid: string;
  vout: number;
  satoshis: number;
  lockingScript: LockingScript;
  /** The transaction that spends it (in the mempool or mined), if any. */
  spentBy?: string;
};

export type TxRecord = {
  txid: string;
  tx: Transaction;
  raw: Uint8Array;
  /** When the chain first accepted it, in milliseconds. */
  seenAt: number;
  block?: { height: number; index: number };
};

export type Block = BlockHeader & { txids: string[] };

export const NULL_TXID = '0'.repeat(64);
/** How many blocks' times the median time past is taken over (BIP 113). */
export const MEDIAN_TIME_SPAN = 11;
const P2PKH_SCRIPT = /^76a914([0-9a-f]{40})88ac$/;

/** The public key hash a P2PKH locking script pays to: what an address stands for. */
export function p2pkhHash(lockingScript: LockingScript): string | undefined {
  return P2PKH_SCRIPT.exec(lockingScript.toHex())?.[1];
}

/**
 * Everything the local chain knows, in memory: transactions, every output and who spends it, the mempool
 * in arrival order, the blocks, and per address (P2PKH public key hash) its unspent outputs and history.
 * It records; deciding what may be recorded is `validateTransaction`'s job. Its `tokens` index follows every
 * transaction recorded or taken back, so a replayed chain has its tokens again.
 */
export class ChainState {
  readonly blocks: Block[] = [];
  readonly tokens = new TokenIndex();
  private readonly txs = new Map<string, TxRecord>();
  private readonly coins = new Map<string, Coin>();
  private readonly mempool = new Set<string>();
  private readonly blocksByHash = new Map<string, Block>();
  private readonly unspentByHash = new Map<string, Set<string>>();
  private readonly historyByHash = new Map<string, string[]>();
  private readonly levelsCache = new Map<number, number[][][]>();

  /** The tip's height; -1 before the genesis block. */
  get height(): number {
    return this.blocks.length - 1;
  }

  get tip(): Block | undefined {
    return this.blocks[this.blocks.length - 1];
  }

  transaction(txid: string): TxRecord | undefined {
    return this.txs.get(txid);
  }

  coin(txid: string, vout: number): Coin | undefined {
    return this.coins.get(`${txid}:${vout}`);
  }

  mempoolTxids(): string[] {
    return [...this.mempool];
  }

  block(heightOrHash: number | string): Block | undefined {
    return typeof heightOrHash === 'number' ? this.blocks[heightOrHash] : this.blocksByHash.get(heightOrHash);
  }

  /**
   * The median time past of the block at `height` (the tip by default), as a node reckons it: the median of
   * the times of that block and the ten before it (fewer near genesis; the upper middle of an even count).
   * A time-locked transaction enters the next block only once its lock time is below the tip's (BIP 113),
   * and a block's time must be above its parent's median time past. 0 before the genesis block.
   */
  medianTimePast(height = this.height): number {
    if (height < 0 || height > this.height) return 0;
    const times = this.blocks
      .slice(Math.max(0, height - MEDIAN_TIME_SPAN + 1), height + 1)
      .map((block) => block.time)
      .sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)]!;
  }

  /** Records an accepted transaction in the mempool: spends its inputs' coins and adds its outputs. */
  add(record: TxRecord): void {
    const { txid, tx } = record;
    this.txs.set(txid, record);
    this.mempool.add(txid);
    for (const input of tx.inputs) {
      if (input.sourceTXID === NULL_TXID) continue;
      const coin = this.coin(input.sourceTXID!, input.sourceOutputIndex);
      if (!coin) throw new Error(`Input ${input.sourceTXID}:${input.sourceOutputIndex} of ${txid} is unknown.`);
      coin.spentBy = txid;
      const hash = p2pkhHash(coin.lockingScript);
      if (hash) {
        this.unspentByHash.get(hash)?.delete(`${coin.txid}:${coin.vout}`);
        this.addHistory(hash, txid);
      }
    }
    tx.outputs.forEach((output, vout) => {
      const coin: Coin = { txid, vout, satoshis: output.satoshis ?? 0, lockingScript: output.lockingScript };
      this.coins.set(`${txid}:${vout}`, coin);
      const hash = p2pkhHash(output.lockingScript);
      if (hash) {
        const unspent = this.unspentByHash.get(hash) ?? new Set<string>();
        unspent.add(`${txid}:${vout}`);
        this.unspentByHash.set(hash, unspent);
        this.addHistory(hash, txid);
      }
    });
    this.tokens.add(txid, tx);
  }

  /**
   * Takes back `add` of a transaction still in the mempool that nothing spends: its outputs go and the coins
   * it spent are unspent again. Undoing several, the last added goes first.
   */
  remove(txid: string): void {
    const record = this.txs.get(txid);
    if (!record || record.block) throw new Error(`${txid} is not in the mempool.`);
    record.tx.outputs.forEach((output, vout) => {
      const outpoint = `${txid}:${vout}`;
      if (this.coins.get(outpoint)?.spentBy) throw new Error(`${outpoint} is spent: remove its spender first.`);
      this.coins.delete(outpoint);
      const hash = p2pkhHash(output.lockingScript);
      if (hash) {
        this.unspentByHash.get(hash)?.delete(outpoint);
        this.dropHistory(hash, txid);
      }
    });
    for (const input of record.tx.inputs) {
      const coin = this.coin(input.sourceTXID!, input.sourceOutputIndex);
      if (coin?.spentBy !== txid) continue;
      delete coin.spentBy;
      const hash = p2pkhHash(coin.lockingScript);
      if (hash) {
        this.unspentByHash.get(hash)?.add(`${coin.txid}:${coin.vout}`);
        this.dropHistory(hash, txid);
      }
    }
    this.tokens.remove(txid, record.tx);
    this.mempool.delete(txid);
    this.txs.delete(txid);
  }

  /** Records a mined block whose transactions are all known (the coinbase first): they leave the mempool. */
  connect(block: Block): void {
    if (block.height !== this.blocks.length) throw new Error(`Block ${block.height} does not follow the tip ${this.height}.`);
    block.txids.forEach((txid, index) => {
      const record = this.txs.get(txid);
      if (!record) throw new Error(`Block ${block.height} holds an unknown transaction ${txid}.`);
      record.block = { height: block.height, index };
      this.mempool.delete(txid);
    });
    this.blocks.push(block);
    this.blocksByHash.set(block.hash, block);
  }

  merklePath(txid: string): MerklePath | undefined {
    const where = this.txs.get(txid)?.block;
    if (!where) return undefined;
    let levels = this.levelsCache.get(where.height);
    if (!levels) {
      levels = merkleLevels(this.blocks[where.height]!.txids);
      this.levelsCache.set(where.height, levels);
    }
    return merklePathFor(levels, where.index, where.height);
  }

  unspent(hash: string): Coin[] {
    return [...(this.unspentByHash.get(hash) ?? [])].map((outpoint) => this.coins.get(outpoint)!);
  }

  history(hash: string): string[] {
    return [...(this.historyByHash.get(hash) ?? [])];
  }

  private dropHistory(hash: string, txid: string): void {
    const history = this.historyByHash.get(hash);
    if (history?.[history.length - 1] === txid) history.pop();
  }

  private addHistory(hash: string, txid: string): void {
    const history = this.historyByHash.get(hash) ?? [];
    if (history[history.length - 1] !== txid) history.push(txid);
    this.historyByHash.set(hash, history);
  }
}
