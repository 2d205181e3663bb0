import { chainEndpoints, type ChainClient, type ChainConfig } from '@ctk/chain';
import type { ChainPassthroughRequest, ChainPassthroughResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError } from '@ctk/shared';
import { z } from 'zod';
import { broadcastTransaction } from './broadcast-transaction.js';
import { isAllowedRead, PASSTHROUGH_BROADCAST } from './passthrough-routes.js';
import { readUpstream } from './read-upstream.js';

export type PassthroughDeps = {
  chain: ChainClient;
  config: ChainConfig & { P2P_PASSTHROUGH_TIMEOUT_MS: number; P2P_PASSTHROUGH_MAX_BYTES: number };
};

const broadcastBody = z.object({ txhex: z.string().min(2) });

/**
 * `GET|POST /api/v1/bsv/*path`: one request to the network's fixed chain API. Reads on the allowlist go
 * to the WhatsOnChain-compatible base URL with the configured API key added here (never the caller's
 * headers, never a query string); `POST tx/raw` broadcasts through the chain client. Upstream answers
 * (2xx and 4xx) are passed on with their status; redirects, 5xx, timeouts and oversized answers are `chain_unavailable`.
 */
export async function chainPassthrough(deps: PassthroughDeps, request: ChainPassthroughRequest): Promise<ChainPassthroughResponse> {
  const path = request.path.replace(/^\/+/, '');
  if (request.method === 'POST' && path === PASSTHROUGH_BROADCAST) return broadcast(deps.chain, request.body);
  if (request.method !== 'GET' || !isAllowedRead(path)) {
    throw new AppError(
      'not_found',
      `${request.method} /api/v1/bsv/${path.slice(0, 120)} is not a chain API route this passthrough serves. Reads: chain/info, block/..., tx/hash/<txid>, tx/<txid>/hex, tx/<txid>/proof/tsc, address/<address>/unspent|history|balance; broadcast: POST tx/raw.`,
    );
  }
  const base = chainEndpoints({
    network: deps.config.CHAIN_NETWORK,
    localUrl: deps.config.CHAIN_LOCAL_URL,
    arcUrl: deps.config.CHAIN_ARC_URL,
    wocUrl: deps.config.CHAIN_WOC_URL,
  }).woc;
  return readUpstream({
    url: `${base}/${path}`,
    apiKey: deps.config.CHAIN_WOC_API_KEY,
    timeoutMs: deps.config.P2P_PASSTHROUGH_TIMEOUT_MS,
    maxBytes: deps.config.P2P_PASSTHROUGH_MAX_BYTES,
  });
}

async function broadcast(chain: ChainClient, body: Uint8Array): Promise<ChainPassthroughResponse> {
  let parsed: z.infer<typeof broadcastBody>;
  try {
    parsed = broadcastBody.parse(JSON.parse(Buffer.from(body).toString('utf8')));
  } catch {
    throw new AppError('validation_failed', 'POST tx/raw takes {"txhex": "<transaction hex>"}, as WhatsOnChain does.', { field: 'txhex' });
  }
  const { txid } = await broadcastTransaction(chain, parsed.txhex, 'txhex');
  return { status: 200, contentType: 'application/json', body: Buffer.from(JSON.stringify(txid)) };
}
