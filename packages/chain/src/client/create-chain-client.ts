import { MerklePath, Transaction, Utils } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import { p2pkhAddressHash } from '../address-bytes.js';
import { isTokenId } from '../tokens/token-types.js';
import { decodeTransaction, hexToBytes } from '../tx-format.js';
import { ArcAdapter } from './arc-adapter.js';
import { ChainHttp } from './http.js';
import { LocalChainAdapter } from './local-chain-adapter.js';
import { configuredStablecoin, type StablecoinOptions } from './stablecoin-config.js';
import { TokenIndexerAdapter } from './token-indexer-adapter.js';
import { tscToMerklePath } from './tsc-proof.js';
import type {
  BroadcastInput,
  ChainClient,
  ChainNetwork,
  ChainTransaction,
  HistoryEntry,
  StablecoinInfo,
  TokenBalance,
  TokenHolder,
  TokenTxOutput,
  TokenUtxo,
  TxStatus,
} from './types.js';
import { WOC_BULK_ADDRESSES, WocAdapter, type WocHistory, type WocTx } from './woc-adapter.js';

export type ChainClientOptions = {
  network: ChainNetwork;
  /** ARC's base URL; by default TAAL's for main and test, the local chain's for local. */
  arcUrl?: string;
  /** The WhatsOnChain-compatible API's base URL, network included (…/v1/bsv/main). */
  wocUrl?: string;
  /** Where the local chain answers, for network `local`. */
  localUrl?: string;
  /** 1Sat's token indexer (`<url>/api/bsv20/...`); GorillaPool's for main and test, the local chain for local. */
  tokenIndexerUrl?: string;
  /** The stablecoin of main or test (main defaults to MNEE's id, symbol and decimals); local asks the local chain. */
  stablecoin?: StablecoinOptions;
  /** ARC's bearer token; sent only to ARC. */
  arcApiKey?: string;
  wocApiKey?: string;
  timeoutMs?: number;
  retries?: number;
  retryBaseMs?: number;
  fetch?: typeof fetch;
};

export const DEFAULT_LOCAL_CHAIN_URL = 'http://127.0.0.1:50070';
/** GorillaPool runs 1Sat's indexer for each network (its testnet one on its own host). */
const PUBLIC_URLS = {
  main: { arc: 'https://arc.taal.com', woc: 'https://api.whatsonchain.com/v1/bsv/main', tokenIndexer: 'https://ordinals.gorillapool.io' },
  test: {
    arc: 'https://arc-test.taal.com',
    woc: 'https://api.whatsonchain.com/v1/bsv/test',
    tokenIndexer: 'https://testnet.ordinals.gorillapool.io',
  },
} as const;

/** The base URLs the client talks to: given ones, else the network's public services, or the local chain. */
export function chainEndpoints(options: Pick<ChainClientOptions, 'network' | 'arcUrl' | 'wocUrl' | 'localUrl' | 'tokenIndexerUrl'>): {
  arc: string;
  woc: string;
  tokenIndexer: string;
  local: string;
} {
  const local = (options.localUrl ?? DEFAULT_LOCAL_CHAIN_URL).replace(/\/$/, '');
  const defaults =
    options.network === 'local' ? { arc: local, woc: `${local}/v1/bsv/local`, tokenIndexer: local } : PUBLIC_URLS[options.network];
  const trim = (url: string) => url.replace(/\/$/, '');
  return {
    arc: trim(options.arcUrl ?? defaults.arc),
    woc: trim(options.wocUrl ?? defaults.woc),
    tokenIndexer: trim(options.tokenIndexerUrl ?? defaults.tokenIndexer),
    local,
  };
}

export function createChainClient(options: ChainClientOptions): ChainClient {
  const endpoints = chainEndpoints(options);
  const settings = {
    timeoutMs: options.timeoutMs ?? 10_000,
    retries: options.retries ?? 3,
    retryBaseMs: options.retryBaseMs ?? 250,
    fetch: options.fetch ?? globalThis.fetch,
  };
  const arc = new ArcAdapter(
    new ChainHttp('ARC', endpoints.arc, settings, options.arcApiKey ? { authorization: `Bearer ${options.arcApiKey}` } : {}),
  );
  const woc = new WocAdapter(
    new ChainHttp('WhatsOnChain', endpoints.woc, settings, options.wocApiKey ? { authorization: options.wocApiKey } : {}),
  );
  const tokens = new TokenIndexerAdapter(new ChainHttp('token indexer', endpoints.tokenIndexer, settings, {}), options.network);
  const local = new LocalChainAdapter(new ChainHttp('local chain', endpoints.local, settings, {}));
  return new HttpChainClient(options.network, arc, woc, tokens, local, options.stablecoin);
}

const TXID = /^[0-9a-f]{64}$/;
/** `histories` takes at most this many addresses: what the lookup API answers in one request. */
export const HISTORIES_AT_ONCE = WOC_BULK_ADDRESSES;

class HttpChainClient implements ChainClient {
  /** The stablecoin's facts never change for a chain: asked once (a failed ask is asked again). */
  private stablecoinFacts: Promise<StablecoinInfo> | undefined;

  constructor(
    readonly network: ChainNetwork,
    private readonly arc: ArcAdapter,
    private readonly woc: WocAdapter,
    private readonly tokens: TokenIndexerAdapter,
    private readonly local: LocalChainAdapter,
    private readonly stablecoinOptions: StablecoinOptions | undefined,
  ) {}

  get chainTracker() {
    return this.woc;
  }

  async getTransaction(txid: string): Promise<ChainTransaction | null> {
    checkTxid(txid);
    const rawHex = await this.woc.rawTransaction(txid);
    if (rawHex === null) return null;
    const tx = Transaction.fromHex(rawHex);
    if (tx.id('hex') !== txid) throw new AppError('chain_unavailable', `The chain answered with another transaction than ${txid}.`);
    const details = await this.woc.transaction(txid);
    return { txid, tx, rawHex, status: await this.statusFromLookup(txid, details) };
  }

  async listUnspent(address: string) {
    const utxos = await this.woc.unspent(checkAddress(address));
    return utxos.map((utxo) => ({
      txid: utxo.tx_hash,
      vout: utxo.tx_pos,
      satoshis: utxo.value,
      height: utxo.height > 0 ? utxo.height : undefined,
    }));
  }

  async history(address: string) {
    return historyEntries(await this.woc.history(checkAddress(address)));
  }

  async histories(addresses: readonly string[]) {
    if (addresses.length > HISTORIES_AT_ONCE)
      throw new AppError('validation_failed', `At most ${HISTORIES_AT_ONCE} addresses at once; got ${addresses.length}.`);
    const found = await this.woc.histories([...new Set(addresses.map(checkAddress))]);
    return new Map([...found].map(([address, entries]) => [address, historyEntries(entries)]));
  }

  async broadcast(input: BroadcastInput): Promise<TxStatus> {
    const bytes = toBytes(input);
    let txid: string | undefined;
    try {
      txid = input instanceof Transaction ? input.id('hex') : decodeTransaction(bytes).txid;
    } catch {
      // Not a transaction we can parse: ARC refuses it with its own reason.
    }
    return this.arc.broadcast(bytes, txid);
  }

  /** ARC knows what was broadcast through it; for anything else the lookup API answers. */
  async getStatus(txid: string): Promise<TxStatus> {
    checkTxid(txid);
    const status = await this.arc.status(txid);
    if (status.state !== 'unknown') return status;
    return this.statusFromLookup(txid, await this.woc.transaction(txid));
  }

  async waitForStatus(txid: string, state: 'seen' | 'mined', options: { timeoutMs?: number; intervalMs?: number } = {}): Promise<TxStatus> {
    const deadline = Date.now() + (options.timeoutMs ?? 60_000);
    for (;;) {
      const status = await this.getStatus(txid);
      if (status.state === 'mined' || (state === 'seen' && status.state === 'seen')) return status;
      if (status.state === 'rejected' || status.state === 'double_spend') {
        throw new AppError('chain_rejected', `Transaction ${txid} will not be mined: ${status.arcStatus ?? status.state}`, {
          tx_status: status.arcStatus,
          competing_txs: status.competingTxs ?? [],
          txid,
        });
      }
      if (Date.now() >= deadline)
        throw new AppError('timeout', `Transaction ${txid} is ${status.state}, not ${state}, after ${options.timeoutMs ?? 60_000} ms.`);
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 1_000));
    }
  }

  async verifyMerkleProof(txid: string, merklePath: MerklePath | string): Promise<boolean> {
    let path: MerklePath;
    try {
      path = typeof merklePath === 'string' ? MerklePath.fromHex(merklePath) : merklePath;
      path.computeRoot(txid);
    } catch {
      return false;
    }
    return path.verify(txid, this.woc);
  }

  async chainInfo() {
    const info = await this.woc.chainInfo();
    return { network: this.network, height: info.blocks, bestBlockHash: info.bestblockhash };
  }

  medianTimePast(): Promise<number> {
    return this.woc.medianTimePast();
  }

  async blockHeader(heightOrHash: number | string) {
    const header = await this.woc.header(heightOrHash);
    if (!header) return null;
    return {
      hash: header.hash,
      height: header.height,
      merkleRoot: header.merkleroot,
      prevHash: header.previousblockhash,
      time: header.time,
      bits: header.bits,
      nonce: header.nonce,
    };
  }

  async stablecoin(): Promise<StablecoinInfo> {
    if (this.network !== 'local') return configuredStablecoin(this.network, this.stablecoinOptions);
    this.stablecoinFacts ??= this.local.stablecoin().catch((error: unknown) => {
      this.stablecoinFacts = undefined;
      throw error;
    });
    return this.stablecoinFacts;
  }

  async tokenBalance(address: string, tokenId: string): Promise<TokenBalance> {
    return this.tokens.balance(checkAddress(address), checkTokenId(tokenId));
  }

  async tokenUtxos(address: string, tokenId: string): Promise<TokenUtxo[]> {
    return this.tokens.unspent(checkAddress(address), checkTokenId(tokenId));
  }

  async tokenOutputs(txid: string): Promise<TokenTxOutput[] | null> {
    checkTxid(txid);
    return this.tokens.txOutputs(txid);
  }

  async tokenHolders(tokenId: string, page: { limit?: number; offset?: number } = {}): Promise<TokenHolder[]> {
    const limit = page.limit ?? 100;
    const offset = page.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100 || !Number.isInteger(offset) || offset < 0)
      throw new AppError('validation_failed', 'A page of holders is a limit from 1 to 100 and an offset from 0.', { field: 'limit' });
    return this.tokens.holders(checkTokenId(tokenId), limit, offset);
  }

  /**
   * The cosigner signs inputs and changes nothing else: an answer that differs from the transaction sent in
   * anything but unlocking scripts is not taken. The given Transaction's source transactions are kept, so the
   * result can go as EF.
   */
  async cosign(input: BroadcastInput): Promise<Transaction> {
    if (this.network !== 'local')
      throw new AppError(
        'not_implemented',
        `Cosigning on ${this.network} is MNEE's cosigner service (its transfer API, which cosigns and broadcasts), which this client does not call.`,
      );
    const bytes = toBytes(input);
    let sent: Transaction;
    try {
      sent = input instanceof Transaction ? input : decodeTransaction(bytes).tx;
    } catch {
      throw new AppError('validation_failed', 'Only a transaction (raw or EF) can be cosigned.', { field: 'transaction' });
    }
    const cosigned = await this.local.cosign(Utils.toHex(Array.from(bytes)));
    if (!sameButUnlocking(sent, cosigned))
      throw new AppError('chain_unavailable', 'The cosigner answered another transaction than the one sent.');
    cosigned.inputs.forEach((txInput, index) => {
      txInput.sourceTransaction ??= sent.inputs[index]!.sourceTransaction;
    });
    return cosigned;
  }

  private async statusFromLookup(txid: string, details: WocTx | null): Promise<TxStatus> {
    if (!details) return { txid, state: 'unknown' };
    if (!details.blockhash || details.blockheight === undefined) return { txid, state: 'seen', confirmations: 0 };
    const proof = await this.woc.tscProof(txid);
    return {
      txid,
      state: 'mined',
      blockHash: details.blockhash,
      blockHeight: details.blockheight,
      confirmations: details.confirmations,
      merklePath: proof ? tscToMerklePath(txid, proof, details.blockheight) : undefined,
    };
  }
}

function toBytes(input: BroadcastInput): Uint8Array {
  if (input instanceof Transaction) {
    const ef = input.inputs.every((txInput) => txInput.sourceTransaction);
    return Uint8Array.from(ef ? input.toEF() : input.toBinary());
  }
  if (typeof input === 'string') {
    try {
      return hexToBytes(input.trim());
    } catch {
      throw new AppError('validation_failed', 'A transaction given as a string must be hex.');
    }
  }
  return Uint8Array.from(input);
}

function checkTokenId(tokenId: string): string {
  if (!isTokenId(tokenId))
    throw new AppError('validation_failed', `${JSON.stringify(tokenId)} is not a token id (<txid>_<vout>).`, { field: 'token_id' });
  return tokenId;
}

/** Everything but the unlocking scripts: version, lock time, each input's outpoint and sequence, each output. */
function sameButUnlocking(a: Transaction, b: Transaction): boolean {
  const outpoints = (tx: Transaction) =>
    tx.inputs.map(
      (txInput) =>
        `${txInput.sourceTXID ?? txInput.sourceTransaction?.id('hex')}:${txInput.sourceOutputIndex}:${txInput.sequence ?? 0xffffffff}`,
    );
  const outputs = (tx: Transaction) => tx.outputs.map((output) => `${output.satoshis}:${output.lockingScript.toHex()}`);
  return (
    a.version === b.version &&
    a.lockTime === b.lockTime &&
    outpoints(a).join() === outpoints(b).join() &&
    outputs(a).join() === outputs(b).join()
  );
}

function historyEntries(entries: WocHistory[]): HistoryEntry[] {
  return entries.map((entry) => ({ txid: entry.tx_hash, height: entry.height > 0 ? entry.height : undefined }));
}

function checkTxid(txid: string): void {
  if (!TXID.test(txid)) throw new AppError('validation_failed', `${JSON.stringify(txid)} is not a txid (64 lowercase hex characters).`);
}

/** Only P2PKH addresses (mainnet or testnet) are looked up; anything else is refused before a request is sent. */
function checkAddress(address: string): string {
  if (p2pkhAddressHash(address)) return address;
  throw new AppError('validation_failed', `${JSON.stringify(address)} is not a P2PKH address.`);
}
