import type { ChainTracker, MerklePath, Transaction } from '@bsv/sdk';

export type ChainNetwork = 'main' | 'test' | 'local';

/**
 * Where a transaction stands: `pending` (the broadcaster has it, the network not yet), `seen` (in the
 * mempool), `mined`, `rejected`, `double_spend` (another transaction spends the same output), `unknown`.
 */
export type TxState = 'pending' | 'seen' | 'mined' | 'rejected' | 'double_spend' | 'unknown';

export type TxStatus = {
  txid: string;
  state: TxState;
  /** ARC's own txStatus (e.g. SEEN_ON_NETWORK, MINED), when ARC answered. */
  arcStatus?: string;
  blockHash?: string;
  blockHeight?: number;
  confirmations?: number;
  /** Once mined: the proof that the transaction is in the block. */
  merklePath?: MerklePath;
  competingTxs?: string[];
  extraInfo?: string;
};

export type ChainTransaction = { txid: string; tx: Transaction; rawHex: string; status: TxStatus };

/** An unspent output; `height` is absent while its transaction is in the mempool. */
export type Utxo = { txid: string; vout: number; satoshis: number; height?: number };

export type HistoryEntry = { txid: string; height?: number };

export type ChainInfo = { network: ChainNetwork; height: number; bestBlockHash: string };

export type BlockHeaderInfo = {
  hash: string;
  height: number;
  merkleRoot: string;
  prevHash?: string;
  time: number;
  bits: string;
  nonce: number;
};

/** A transaction to broadcast: an @bsv/sdk Transaction (sent as EF when its inputs carry their source transactions), or raw, EF or BEEF bytes or hex. */
export type BroadcastInput = Transaction | Uint8Array | number[] | string;

/** One interface for every service: lookups through a WhatsOnChain-compatible API, broadcast and status through ARC. */
export interface ChainClient {
  readonly network: ChainNetwork;
  /** Block headers from the chain, for @bsv/sdk's `MerklePath.verify` and `Transaction.verify`. */
  readonly chainTracker: ChainTracker;
  /** The transaction and its status; null when the chain does not know it. */
  getTransaction(txid: string): Promise<ChainTransaction | null>;
  listUnspent(address: string): Promise<Utxo[]>;
  history(address: string): Promise<HistoryEntry[]>;
  /** Resolves with the status ARC reports; a refusal is an AppError `chain_rejected` carrying ARC's answer. */
  broadcast(tx: BroadcastInput): Promise<TxStatus>;
  getStatus(txid: string): Promise<TxStatus>;
  /** Polls the status until it reaches `state` (`seen` is also reached by `mined`); AppError `timeout` otherwise. */
  waitForStatus(txid: string, state: 'seen' | 'mined', options?: { timeoutMs?: number; intervalMs?: number }): Promise<TxStatus>;
  /** Whether the merkle path leads from the txid to the merkle root of the chain's block at its height. */
  verifyMerkleProof(txid: string, merklePath: MerklePath | string): Promise<boolean>;
  chainInfo(): Promise<ChainInfo>;
  blockHeader(heightOrHash: number | string): Promise<BlockHeaderInfo | null>;
}
