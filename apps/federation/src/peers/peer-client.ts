import { AppError } from '@ctk/shared';
import type { Config } from '../config.js';
import { peerFetch } from './peer-fetch.js';
import { peerUnavailable } from './peer-errors.js';

/** How this instance talks to its peers: its fetcher's bounds, from the configuration. */
export type PeerClient = {
  /** `field`: the input field the URL came from, named when it is refused (default "url"). */
  getJson(url: string, options?: { maxBytes?: number; field?: string }): Promise<unknown>;
  postJson(url: string, body: unknown): Promise<unknown>;
};

/** JSON from peers over the checked fetcher (peer-fetch.ts): a status other than 2xx or a body not JSON is the peer unavailable. */
export function createPeerClient(config: Config): PeerClient {
  const options = ({ maxBytes = 1024 * 1024, field = 'url' }: { maxBytes?: number; field?: string } = {}) => ({
    allowPrivate: config.FEDERATION_ALLOW_PRIVATE_PEERS,
    timeoutMs: config.FEDERATION_FETCH_TIMEOUT_MS,
    maxBytes,
    field,
  });
  const read = (url: string, response: { status: number; body: Buffer }) => {
    if (response.status < 200 || response.status > 299)
      throw peerUnavailable(url, `answered HTTP ${response.status}`, { status: response.status });
    try {
      return JSON.parse(response.body.toString('utf8')) as unknown;
    } catch {
      throw peerUnavailable(url, 'answered something that is not JSON');
    }
  };
  return {
    async getJson(url, given) {
      return read(url, await peerFetch(url, { method: 'GET' }, options(given)));
    },
    async postJson(url, body) {
      return read(url, await peerFetch(url, { method: 'POST', json: body }, options()));
    },
  };
}

/** An error's message as a peer's record keeps it (never a body: peerFetch's messages carry none). */
export function failureOf(error: unknown): string {
  return (AppError.is(error) || error instanceof Error ? error.message : String(error)).slice(0, 500);
}
