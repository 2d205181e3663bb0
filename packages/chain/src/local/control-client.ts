import { AppError } from '@ctk/shared';

/** Calls to the local chain's own routes, for tests and scripts: `url` is the chain's base URL. */
async function call<T>(url: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
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

const post = <T>(url: string, path: string, body: unknown): Promise<T> => call<T>(url, path, body);

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

/**
 * The local chain's clock (`now`, unix seconds: real time plus however far it was moved), the tip's median
 * time past (`median_time_past`: what a time-locked transaction's lock time must be below) and the height.
 */
export type ChainClockReply = { now: number; median_time_past: number; height: number };

/** Reads the local chain's clock without moving it. */
export function chainClock(url: string): Promise<ChainClockReply> {
  return call(url, '/clock');
}

/**
 * Moves the local chain's clock `seconds` forward (an integer from 1 to ten years; it never goes back).
 * Blocks mined from now on carry the later time; the median time past follows once enough of them are mined
 * (six, when the last eleven blocks were all before it): `mineBlocks(url, 6)`.
 */
export function advanceClock(url: string, seconds: number): Promise<ChainClockReply> {
  return post(url, '/clock', { advance_seconds: seconds });
}
