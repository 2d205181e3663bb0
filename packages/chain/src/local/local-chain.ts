import { LockingScript, P2PKH, PrivateKey, Transaction, Utils, type Beef } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import { p2pkhAddressHash } from '../address-bytes.js';
import { decodeTransaction } from '../tx-format.js';
import { ChainClock } from './clock.js';
import { cosignTransaction } from './cosigner.js';
import { GENESIS_PREV_HASH, merkleLevels, merkleRootOf, mineHeader } from './block.js';
import { ChainState, NULL_TXID, p2pkhHash, type Block, type TxRecord } from './chain-state.js';
import { coinbaseTransaction, GENESIS_SATOSHIS } from './coinbase.js';
import { faucetPayment } from './faucet.js';
import { reject, type Rejection } from './rejection.js';
import { findStablecoin, stablecoinDeploy, stablecoinPayment, type LocalStablecoin, type StablecoinKeys } from './stablecoin.js';
import type { ChainKeyName, ChainStore, StoredBlock } from './store.js';
import { validateTransaction, type Policy } from './validate-transaction.js';

export type LocalChainOptions = Policy & {
  store: ChainStore;
  /** The most one faucet request pays. */
  faucetMaxSatoshis: number;
  /** The most units of the stablecoin one stablecoin faucet request pays. */
  stablecoinFaucetMaxUnits: bigint;
};

/** A transaction's status in ARC's terms. */
export type ArcTxStatus = {
  txid: string;
  txStatus: 'SEEN_ON_NETWORK' | 'MINED';
  blockHash?: string;
  blockHeight?: number;
  /** BRC-74 merkle path, hex, once mined. */
  merklePath?: string;
  timestamp: string;
};

export type SubmitOutcome = { ok: true; status: ArcTxStatus } | { ok: false; rejection: Rejection };

export type FaucetPayment = { txid: string; vout: number; satoshis: number; rawTx: string };

export type StablecoinFaucetPayment = { txid: string; vout: number; amount: bigint; tokenId: string; rawTx: string };

/** The chain's clock, the tip's median time past (what a time lock is compared with) and its height. */
export type ClockReading = { now: number; medianTimePast: number; height: number };

/**
 * The local chain: validates and records transactions, mines blocks, pays from its faucet, runs the test
 * stablecoin's treasury and cosigner, and keeps it all in its store. Blocks take their time from its clock,
 * which a test moves forward (`advanceClock`). Synchronous where it touches state, so requests never
 * interleave inside a validation.
 */
export class LocalChain {
  readonly state = new ChainState();
  private faucetQueue: Promise<unknown> = Promise.resolve();
  private stablecoinInfo: LocalStablecoin | undefined;

  private constructor(
    private readonly options: LocalChainOptions,
    private readonly keys: StablecoinKeys,
    readonly clock: ChainClock,
  ) {}

  /**
   * Opens the chain in its store: replays its blocks and mempool, or mines the genesis blocks for new keys.
   * Block 1 pays the faucet and deploys the stablecoin to the treasury; a store from before the stablecoin
   * gets its deploy in the mempool.
   */
  static open(options: LocalChainOptions): LocalChain {
    const stored = options.store.load();
    const key = (name: ChainKeyName): PrivateKey => {
      const wif = stored.keys[name];
      if (wif) return PrivateKey.fromWif(wif);
      const created = PrivateKey.fromRandom();
      options.store.saveKey(name, created.toWif());
      return created;
    };
    const chain = new LocalChain(
      options,
      { faucet: key('faucet'), treasury: key('treasury'), cosigner: key('cosigner') },
      new ChainClock(stored.clockOffsetSeconds),
    );
    for (const block of stored.blocks) chain.replayBlock(block);
    for (const raw of stored.mempool) chain.replayMempool(raw);
    if (chain.state.height < 0) {
      // Height 0 is what WhatsOnChain reports for the mempool: the faucet's coins start at height 1.
      chain.mineBlock(0, LockingScript.fromASM(`OP_FALSE OP_RETURN ${Utils.toHex(Utils.toArray('ctk local chain genesis', 'utf8'))}`));
      chain.mineBlock(GENESIS_SATOSHIS, chain.faucetScript(), (coinbase) =>
        stablecoinDeploy(chain.state.coin(coinbase.id('hex'), 0)!, chain.keys, options.minFeeSatsPerKb),
      );
    }
    chain.stablecoinInfo = findStablecoin(chain.state, chain.keys) ?? chain.deployStablecoin();
    return chain;
  }

  get faucetAddress(): string {
    return this.keys.faucet.toAddress('testnet');
  }

  /** The test stablecoin: its token id, symbol, decimals and the cosigner's public key. */
  get stablecoin(): LocalStablecoin {
    return this.stablecoinInfo!;
  }

  get treasuryAddress(): string {
    return this.keys.treasury.toAddress('testnet');
  }

  /** Takes a raw, EF or BEEF transaction; a transaction the chain already has answers with its status. */
  submit(bytes: Uint8Array): SubmitOutcome {
    let decoded;
    try {
      decoded = decodeTransaction(bytes);
    } catch (error) {
      return {
        ok: false,
        rejection: reject(463, `not a raw, EF or BEEF transaction: ${error instanceof Error ? error.message : String(error)}`),
      };
    }
    const added: TxRecord[] = [];
    const refusal =
      (decoded.beef && this.acceptBeefAncestors(decoded.beef, decoded.txid, added)) || this.accept(decoded.tx, decoded.txid, added);
    const rejection = this.settle(added, refusal);
    return rejection ? { ok: false, rejection } : { ok: true, status: this.status(decoded.txid)! };
  }

  status(txid: string): ArcTxStatus | undefined {
    const record = this.state.transaction(txid);
    if (!record) return undefined;
    const block = record.block && this.state.block(record.block.height);
    const timestamp = new Date(block ? block.time * 1000 : record.seenAt).toISOString();
    if (!block) return { txid, txStatus: 'SEEN_ON_NETWORK', timestamp };
    return {
      txid,
      txStatus: 'MINED',
      blockHash: block.hash,
      blockHeight: block.height,
      merklePath: this.state.merklePath(txid)!.toHex(),
      timestamp,
    };
  }

  /** The clock, the tip's median time past and its height, the clock unmoved. */
  clockReading(): ClockReading {
    return { now: this.clock.now(), medianTimePast: this.state.medianTimePast(), height: this.state.height };
  }

  /**
   * Moves the clock `seconds` forward (an integer from 1 to ten years; `validation_failed` otherwise) and
   * keeps its offset in the store. The median time past moves only as blocks are mined after it.
   */
  advanceClock(seconds: unknown): ClockReading {
    this.clock.advance(seconds);
    this.options.store.saveClockOffset(this.clock.offsetSeconds);
    return this.clockReading();
  }

  /** Mines `count` blocks, the first with every transaction in the mempool; each coinbase pays the fees to the faucet. */
  mine(count = 1): Block[] {
    return Array.from({ length: count }, () => this.mineBlock(0));
  }

  /** Pays `satoshis` to a P2PKH address from the faucet, through the same validation as any transaction. */
  faucet(address: string, satoshis: number): Promise<FaucetPayment> {
    const run = async (): Promise<FaucetPayment> => {
      if (!Number.isSafeInteger(satoshis) || satoshis < 1 || satoshis > this.options.faucetMaxSatoshis) {
        throw new AppError('validation_failed', `satoshis must be an integer from 1 to ${this.options.faucetMaxSatoshis}`);
      }
      const lockingScript = p2pkhLock(address);
      const tx = await faucetPayment({
        state: this.state,
        key: this.keys.faucet,
        lockingScript,
        satoshis,
        minFeeSatsPerKb: this.options.minFeeSatsPerKb,
      });
      if (!tx) throw new AppError('unavailable', 'The faucet has run dry.');
      const txid = tx.id('hex');
      const added: TxRecord[] = [];
      const rejection = this.settle(added, this.accept(tx, txid, added));
      if (rejection) throw new AppError('internal', `The chain refused the faucet's own payment: ${rejection.extraInfo}`);
      return { txid, vout: 0, satoshis, rawTx: tx.toHex() };
    };
    const result = this.faucetQueue.then(run, run);
    this.faucetQueue = result.catch(() => undefined);
    return result;
  }

  /**
   * Pays `amount` units of the stablecoin to a P2PKH address, cosign-locked, from the treasury (the fee from
   * the faucet), through the same validation as any transaction. Queued with the faucet: both spend its coins.
   */
  stablecoinFaucet(address: string, amount: bigint): Promise<StablecoinFaucetPayment> {
    const run = async (): Promise<StablecoinFaucetPayment> => {
      const max = this.options.stablecoinFaucetMaxUnits;
      if (amount < 1n || amount > max) throw new AppError('validation_failed', `amount must be a whole number of units from 1 to ${max}`);
      p2pkhLock(address);
      const tx = stablecoinPayment({
        state: this.state,
        stablecoin: this.stablecoin,
        keys: this.keys,
        address,
        amount,
        minFeeSatsPerKb: this.options.minFeeSatsPerKb,
      });
      if (!tx) throw new AppError('unavailable', 'The stablecoin faucet has run dry.');
      const txid = tx.id('hex');
      const added: TxRecord[] = [];
      const rejection = this.settle(added, this.accept(tx, txid, added));
      if (rejection) throw new AppError('internal', `The chain refused the stablecoin faucet's own payment: ${rejection.extraInfo}`);
      return { txid, vout: 0, amount, tokenId: this.stablecoin.tokenId, rawTx: tx.toHex() };
    };
    const result = this.faucetQueue.then(run, run);
    this.faucetQueue = result.catch(() => undefined);
    return result;
  }

  /**
   * The test cosigner's approval of a stablecoin transfer (raw, EF or BEEF bytes): the transaction with the
   * cosigner's signature in each input it locks, or an AppError `chain_rejected` whose `details.reason` says
   * why not (`cosignTransaction`). Nothing is broadcast.
   */
  cosign(bytes: Uint8Array): Transaction {
    let tx: Transaction;
    try {
      tx = decodeTransaction(bytes).tx;
    } catch (error) {
      throw new AppError(
        'validation_failed',
        `Not a raw, EF or BEEF transaction: ${error instanceof Error ? error.message : String(error)}`,
        {
          field: 'rawtx',
        },
      );
    }
    return cosignTransaction({ state: this.state, tx, stablecoin: this.stablecoin, cosignerKey: this.keys.cosigner });
  }

  /** Validates a transaction and records it in the mempool (in `added`); one the chain has already is fine as it is. */
  private accept(tx: Transaction, txid: string, added: TxRecord[]): Rejection | undefined {
    if (this.state.transaction(txid)) return undefined;
    const raw = tx.toUint8Array();
    const rejection = validateTransaction(this.state, tx, txid, raw.length, this.options);
    if (rejection) return rejection;
    const record = { txid, tx, raw, seenAt: this.clock.nowMs() };
    this.state.add(record);
    added.push(record);
    return undefined;
  }

  /**
   * A submission is taken whole or not at all: after a refusal (of a BEEF's subject, say) the transactions
   * recorded before it are taken back out; otherwise they are kept in the store.
   */
  private settle(added: TxRecord[], rejection: Rejection | undefined): Rejection | undefined {
    if (rejection) {
      for (const record of [...added].reverse()) this.state.remove(record.txid);
      return rejection;
    }
    for (const record of added) this.options.store.appendMempool(Utils.toHex(Array.from(record.raw)));
    return undefined;
  }

  /**
   * BEEF carries the transaction's unmined ancestors (accepted first, like any transaction) and merkle paths
   * for mined ones, which must lead to the merkle root of this chain's block at that height.
   */
  private acceptBeefAncestors(beef: Beef, subject: string, added: TxRecord[]): Rejection | undefined {
    beef.sortTxs();
    for (const beefTx of beef.txs) {
      if (beefTx.txid === subject || beefTx.isTxidOnly) continue;
      if (beefTx.bumpIndex !== undefined) {
        const bump = beef.bumps[beefTx.bumpIndex]!;
        let root: string;
        try {
          root = bump.computeRoot(beefTx.txid);
        } catch (error) {
          return reject(468, `merkle path of ${beefTx.txid}: ${error instanceof Error ? error.message : String(error)}`, subject);
        }
        if (this.state.block(bump.blockHeight)?.merkleRoot !== root) {
          return reject(469, `the merkle path of ${beefTx.txid} does not lead to the merkle root of block ${bump.blockHeight}`, subject);
        }
        continue;
      }
      const rejection = beefTx.tx
        ? this.accept(beefTx.tx, beefTx.txid, added)
        : reject(467, `${beefTx.txid} has neither a merkle path nor a transaction`, subject);
      if (rejection) return rejection;
    }
    return undefined;
  }

  /**
   * `alsoMine` adds a transaction of the chain's own after the mempool's, built once the coinbase exists (the
   * genesis block's stablecoin deploy spends it). Its fee is not in the coinbase, which was made first: burned.
   */
  private mineBlock(
    subsidy: number,
    payTo: LockingScript = this.faucetScript(),
    alsoMine?: (coinbase: Transaction) => Transaction | undefined,
  ): Block {
    const height = this.state.height + 1;
    const txids = this.state.mempoolTxids();
    const fees = txids.reduce((sum, txid) => sum + this.feeOf(this.state.transaction(txid)!.tx), 0);
    const coinbase = coinbaseTransaction(height, subsidy + fees, payTo);
    const coinbaseTxid = coinbase.id('hex');
    const seenAt = this.clock.nowMs();
    this.state.add({ txid: coinbaseTxid, tx: coinbase, raw: coinbase.toUint8Array(), seenAt });
    const own = alsoMine?.(coinbase);
    if (own) this.state.add({ txid: own.id('hex'), tx: own, raw: own.toUint8Array(), seenAt });
    const allTxids = [coinbaseTxid, ...txids, ...(own ? [own.id('hex')] : [])];
    const prev = this.state.tip;
    const header = mineHeader({
      height,
      prevHash: prev?.hash ?? GENESIS_PREV_HASH,
      merkleRoot: merkleRootOf(merkleLevels(allTxids)),
      time: this.blockTime(),
    });
    const block: Block = { ...header, txids: allTxids };
    this.state.connect(block);
    const txs = allTxids.map((txid) => Utils.toHex(Array.from(this.state.transaction(txid)!.raw)));
    this.options.store.appendBlock({ ...header, txs });
    this.options.store.clearMempool();
    return block;
  }

  /**
   * The next block's time: the clock's, but above the tip's median time past as consensus requires and never
   * before the tip's own time. Blocks mined faster than one a second run ahead of the clock: once the
   * median of the last eleven has caught up with the tip's time, the next takes the second after it.
   */
  private blockTime(): number {
    const prev = this.state.tip;
    return prev ? Math.max(this.clock.now(), prev.time, this.state.medianTimePast() + 1) : this.clock.now();
  }

  private feeOf(tx: Transaction): number {
    const inputs = tx.inputs.reduce((sum, input) => sum + (this.state.coin(input.sourceTXID!, input.sourceOutputIndex)?.satoshis ?? 0), 0);
    return inputs - tx.outputs.reduce((sum, output) => sum + (output.satoshis ?? 0), 0);
  }

  private faucetScript() {
    return new P2PKH().lock(this.keys.faucet.toPublicKey().toHash() as number[]);
  }

  /** A chain opened from a store made before the stablecoin deploys it now, into the mempool, from the faucet's largest coin. */
  private deployStablecoin(): LocalStablecoin {
    const coin = this.state
      .unspent(p2pkhHash(this.faucetScript())!)
      .filter((candidate) => !candidate.spentBy)
      .sort((a, b) => b.satoshis - a.satoshis)[0];
    const tx = coin && stablecoinDeploy(coin, this.keys, this.options.minFeeSatsPerKb);
    if (!tx) throw new Error('The faucet cannot pay for the stablecoin deploy.');
    const added: TxRecord[] = [];
    const rejection = this.settle(added, this.accept(tx, tx.id('hex'), added));
    if (rejection) throw new Error(`The chain refused its own stablecoin deploy: ${rejection.extraInfo}`);
    return findStablecoin(this.state, this.keys)!;
  }

  /** Blocks in the store were validated when they were made: they are recorded as they are. */
  private replayBlock(stored: StoredBlock): void {
    const { txs, ...header } = stored;
    const txids = txs.map((hex) => {
      const tx = Transaction.fromHex(hex);
      const txid = tx.id('hex');
      if (!this.state.transaction(txid)) this.state.add({ txid, tx, raw: tx.toUint8Array(), seenAt: header.time * 1000 });
      return txid;
    });
    this.state.connect({ ...header, txids });
  }

  /** The stored mempool is validated again: a line the chain can no longer accept is dropped. */
  private replayMempool(hex: string): void {
    try {
      const tx = Transaction.fromHex(hex);
      const txid = tx.id('hex');
      if (this.state.transaction(txid) || tx.inputs.some((input) => input.sourceTXID === NULL_TXID)) return;
      const rejection = validateTransaction(this.state, tx, txid, hex.length / 2, {
        minFeeSatsPerKb: 0,
        scriptChecks: this.options.scriptChecks,
      });
      if (!rejection) this.state.add({ txid, tx, raw: tx.toUint8Array(), seenAt: this.clock.nowMs() });
    } catch {
      // a line cut short by a crash
    }
  }
}

/** The P2PKH locking script of a mainnet or testnet address; a validation error otherwise. */
export function p2pkhLock(address: string) {
  const hash = p2pkhAddressHash(address);
  if (!hash) throw new AppError('validation_failed', `${JSON.stringify(address)} is not a P2PKH address`);
  return new P2PKH().lock(Array.from(hash));
}

export { p2pkhHash };
