import type { ChainTracker } from '@bsv/sdk';
import { z } from 'zod';
import { parseJson, type ChainHttp, type HttpResponse } from './http.js';
import type { TscProof } from './tsc-proof.js';

export type WocTx = { txid: string; blockhash?: string; blockheight?: number; confirmations?: number; time?: number };
export type WocUnspent = { height: number; tx_pos: number; tx_hash: string; value: number };
export type WocHistory = { tx_hash: string; height: number };
/** `mediantime` is the tip's median time past (a node's `getblockchaininfo`), unix seconds. */
export type WocChainInfo = { chain: string; blocks: number; bestblockhash: string; mediantime?: number };
export type WocHeader = {
  hash: string;
  height: number;
  merkleroot: string;
  previousblockhash?: string;
  time: number;
  bits: string;
  nonce: number;
};

/** WhatsOnChain's bulk history (`POST /addresses/history/all`) takes at most this many addresses a request. */
export const WOC_BULK_ADDRESSES = 20;

/** One address's part of a bulk history answer; an address with more than one page, or an error, is asked alone. */
const bulkPart = z.object({
  result: z.array(z.object({ tx_hash: z.string(), height: z.number().int().optional() })),
  error: z.string().optional(),
  nextPageToken: z.string().optional(),
});
const bulkHistory = z.array(z.object({ address: z.string(), confirmed: bulkPart.optional(), unconfirmed: bulkPart.optional() }));

const ROOT_TTL_MS = 60_000;
const MAX_ROOTS = 1_000;

/**
 * Lookups through a WhatsOnChain-compatible API (`<base>` is e.g. https://api.whatsonchain.com/v1/bsv/main).
 * A 404 is null; it is also @bsv/sdk's ChainTracker, reading block headers from the same API.
 */
export class WocAdapter implements ChainTracker {
  /** Merkle roots of blocks by height, as read (SPV asks for the same few blocks again and again); bounded, and forgotten after ROOT_TTL_MS so a reorganisation is seen. */
  private readonly roots = new Map<number, { root: string; at: number }>();

  constructor(private readonly http: ChainHttp) {}

  rawTransaction(txid: string): Promise<string | null> {
    return this.read(`/tx/${txid}/hex`, (response) => response.body.trim());
  }

  transaction(txid: string): Promise<WocTx | null> {
    return this.readJson(`/tx/hash/${txid}`);
  }

  async tscProof(txid: string): Promise<TscProof | null> {
    const proofs = await this.readJson<TscProof | TscProof[]>(`/tx/${txid}/proof/tsc`);
    const proof = Array.isArray(proofs) ? proofs[0] : proofs;
    return proof ?? null;
  }

  async unspent(address: string): Promise<WocUnspent[]> {
    return (await this.readJson<WocUnspent[]>(`/address/${address}/unspent`)) ?? [];
  }

  async history(address: string): Promise<WocHistory[]> {
    return (await this.readJson<WocHistory[]>(`/address/${address}/history`)) ?? [];
  }

  /**
   * The histories of up to WOC_BULK_ADDRESSES addresses in one request, mempool included (a transaction both
   * answers name is kept with its height). An address the answer leaves out, pages or fails is read alone.
   */
  async histories(addresses: readonly string[]): Promise<Map<string, WocHistory[]>> {
    if (addresses.length > WOC_BULK_ADDRESSES) throw new RangeError(`at most ${WOC_BULK_ADDRESSES} addresses a request`);
    const path = '/addresses/history/all';
    const response = await this.http.post(path, new TextEncoder().encode(JSON.stringify({ addresses })), 'application/json');
    if (response.status !== 200) throw this.http.unavailable(`answered ${response.status} to ${path}`, { status: response.status });
    const answer = bulkHistory.safeParse(parseJson<unknown>(this.http, response));
    if (!answer.success) throw this.http.unavailable(`answered ${path} with something other than histories`);
    const found = new Map<string, WocHistory[]>();
    for (const { address, confirmed, unconfirmed } of answer.data) {
      if (!addresses.includes(address) || !confirmed || !unconfirmed) continue;
      if ([confirmed, unconfirmed].some((part) => part.error || part.nextPageToken)) continue;
      const byTxid = new Map<string, WocHistory>();
      for (const entry of unconfirmed.result) byTxid.set(entry.tx_hash, { tx_hash: entry.tx_hash, height: 0 });
      for (const entry of confirmed.result) byTxid.set(entry.tx_hash, { tx_hash: entry.tx_hash, height: entry.height ?? 0 });
      found.set(address, [...byTxid.values()]);
    }
    for (const address of addresses) if (!found.has(address)) found.set(address, await this.history(address));
    return found;
  }

  async chainInfo(): Promise<WocChainInfo> {
    const info = await this.readJson<WocChainInfo>('/chain/info');
    if (!info) throw this.http.unavailable('has no chain info (404)');
    return info;
  }

  /** The tip's median time past from `/chain/info`; `chain_unavailable` when the answer has none. */
  async medianTimePast(): Promise<number> {
    const { mediantime } = await this.chainInfo();
    if (typeof mediantime !== 'number' || !Number.isSafeInteger(mediantime) || mediantime < 0)
      throw this.http.unavailable('answered /chain/info without a median time (mediantime)');
    return mediantime;
  }

  header(heightOrHash: number | string): Promise<WocHeader | null> {
    return this.readJson(`/block/${heightOrHash}/header`);
  }

  async isValidRootForHeight(root: string, height: number): Promise<boolean> {
    const known = this.roots.get(height);
    if (known && Date.now() - known.at < ROOT_TTL_MS) return known.root === root;
    const header = await this.header(height);
    if (!header) return false;
    if (this.roots.size >= MAX_ROOTS) this.roots.delete(this.roots.keys().next().value!);
    this.roots.set(height, { root: header.merkleroot, at: Date.now() });
    return header.merkleroot === root;
  }

  async currentHeight(): Promise<number> {
    return (await this.chainInfo()).blocks;
  }

  private readJson<T>(path: string): Promise<T | null> {
    return this.read(path, (response) => parseJson<T>(this.http, response));
  }

  private async read<T>(path: string, parse: (response: HttpResponse) => T): Promise<T | null> {
    const response = await this.http.get(path);
    if (response.status === 404) return null;
    if (response.status !== 200)
      throw this.http.unavailable(`answered ${response.status} to ${path.split('/').slice(0, 2).join('/')}`, { status: response.status });
    return parse(response);
  }
}
