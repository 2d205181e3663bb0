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

/** The stablecoin the chain's services pay in: MNEE on main (configured), the local chain's USDX on local. */
export type StablecoinInfo = {
  /** The BSV-21 token id, `<txid>_<vout>` of its deploy+mint. */
  tokenId: string;
  symbol: string;
  /** Where a wallet puts the point: 5 for MNEE and USDX, so 100,000 units are a dollar. */
  decimals: number;
  /** The compressed public key (hex) of the cosigner every transfer needs (MNEE's cosign template). */
  cosignerPublicKey: string;
};

/**
 * What an address holds of a token by the token indexer's reckoning, in whole units. `confirmed` is what the
 * indexer counts as settled (1Sat's indexer: validated; the local chain: valid and mined), `pending` the
 * rest (1Sat: not yet validated; the local chain: valid, in the mempool).
 */
export type TokenBalance = { tokenId: string; symbol?: string; decimals?: number; confirmed: bigint; pending: bigint };

/** A valid, unspent token output: what a wallet spends, with its locking script (hex) read and checked. */
export type TokenUtxo = {
  txid: string;
  vout: number;
  satoshis: number;
  tokenId: string;
  amount: bigint;
  /** The owner's P2PKH address, in the chain's network form. */
  owner: string;
  lockingScript: string;
  /** Set when the output is cosign-locked: the cosigner's public key. */
  cosignerPublicKey?: string;
};

/** An address holding a token and how many units its valid unspent outputs hold, as the indexer counts them. */
export type TokenHolder = { address: string; amount: bigint };

/** A token output of a transaction with the indexer's verdict: `invalid` outputs hold nothing. */
export type TokenTxOutput = {
  txid: string;
  vout: number;
  tokenId: string;
  op: 'deploy+mint' | 'transfer';
  amount: bigint;
  owner?: string;
  cosignerPublicKey?: string;
  status: 'valid' | 'invalid' | 'pending';
  /** Why it is invalid, in the indexer's words. */
  reason?: string;
};

/** One interface for every service: lookups through a WhatsOnChain-compatible API, broadcast and status through ARC. */
export interface ChainClient {
  readonly network: ChainNetwork;
  /** Block headers from the chain, for @bsv/sdk's `MerklePath.verify` and `Transaction.verify`. */
  readonly chainTracker: ChainTracker;
  /** The transaction and its status; null when the chain does not know it. */
  getTransaction(txid: string): Promise<ChainTransaction | null>;
  listUnspent(address: string): Promise<Utxo[]>;
  history(address: string): Promise<HistoryEntry[]>;
  /** The histories of up to HISTORIES_AT_ONCE addresses in one request to the chain API, by address. */
  histories(addresses: readonly string[]): Promise<Map<string, HistoryEntry[]>>;
  /** Resolves with the status ARC reports; a refusal is an AppError `chain_rejected` carrying ARC's answer. */
  broadcast(tx: BroadcastInput): Promise<TxStatus>;
  getStatus(txid: string): Promise<TxStatus>;
  /** Polls the status until it reaches `state` (`seen` is also reached by `mined`); AppError `timeout` otherwise. */
  waitForStatus(txid: string, state: 'seen' | 'mined', options?: { timeoutMs?: number; intervalMs?: number }): Promise<TxStatus>;
  /** Whether the merkle path leads from the txid to the merkle root of the chain's block at its height. */
  verifyMerkleProof(txid: string, merklePath: MerklePath | string): Promise<boolean>;
  chainInfo(): Promise<ChainInfo>;
  /**
   * The tip's median time past (the median of the last 11 blocks' times, unix seconds; the lookup API's
   * `/chain/info` `mediantime`): a transaction time-locked with an nLockTime at or above it, an input not
   * final, is refused until blocks carry the median past it (BIP 113).
   */
  medianTimePast(): Promise<number>;
  blockHeader(heightOrHash: number | string): Promise<BlockHeaderInfo | null>;
  /** The stablecoin: the local chain's USDX, or the configured one (MNEE on main); `failed_precondition` when none is configured. */
  stablecoin(): Promise<StablecoinInfo>;
  /** What an address (P2PKH) holds of a token, from the token indexer; zero when it holds none. */
  tokenBalance(address: string, tokenId: string): Promise<TokenBalance>;
  /** An address's valid unspent outputs of a token, from the token indexer, each script read and checked against its answer. */
  tokenUtxos(address: string, tokenId: string): Promise<TokenUtxo[]>;
  /** A transaction's BSV-21 token outputs with their validity; null when the indexer does not know the transaction. */
  tokenOutputs(txid: string): Promise<TokenTxOutput[] | null>;
  /**
   * The addresses holding a token, most units first, a page at a time (1Sat's `/id/{id}/holders`: `limit` 1 to
   * 100, `offset` from 0); an id the indexer does not know has none.
   */
  tokenHolders(tokenId: string, page?: { limit?: number; offset?: number }): Promise<TokenHolder[]>;
  /**
   * The stablecoin's cosigner's signature on every input it locks: the transaction back, ready to broadcast
   * (with the given Transaction's source transactions). The local chain's cosigner only; `not_implemented`
   * elsewhere. A refusal is `chain_rejected` with `details.reason`.
   */
  cosign(tx: BroadcastInput): Promise<Transaction>;
}
