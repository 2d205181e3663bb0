import { AppError } from '@ctk/shared';

/** Calls to the local chain's own routes, for tests and scripts: `url` is the chain's base URL. */
async function post<T>(url: string, path: string, body: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const cause = error instanceof Error ? ((error.cause as { code?: string } | undefined)?.code ?? error.message) : String(error);
    throw new AppError('chain_unavailable', `The local chain at ${new URL(url).host} is unreachable (${cause}).`);
  }
  const json = (await response.json()) as T & { error?: { code: string; message: string } };
  if (!response.ok)
    throw new AppError('chain_rejected', json.error?.message ?? `The local chain answered ${response.status}.`, {
      status: response.status,
    });
  return json;
}

export type FaucetReply = { txid: string; vout: number; satoshis: number; address: string; raw_tx: string };

/** Pays `satoshis` from the local chain's faucet to a P2PKH address (in the mempool until mined). */
export function requestFaucet(url: string, address: string, satoshis: number): Promise<FaucetReply> {
  return post(url, '/faucet', { address, satoshis });
}

/** Mines `blocks` blocks now; the first takes the whole mempool. */
export function mineBlocks(
  url: string,
  blocks = 1,
): Promise<{ height: number; blocks: Array<{ height: number; hash: string; tx_count: number }> }> {
  return post(url, '/mine', { blocks });
}

export type StablecoinFaucetReply = { txid: string; vout: number; amount: string; address: string; token_id: string; rawtx: string };

/** Pays `amount` units of the local chain's test stablecoin (USDX) to a P2PKH address, cosign-locked (in the mempool until mined). */
export function requestStablecoinFaucet(url: string, address: string, amount: bigint): Promise<StablecoinFaucetReply> {
  return post(url, '/v1/bsv/local/stablecoin/faucet', { address, amount: amount.toString() });
}
