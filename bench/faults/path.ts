// What each money path of the fault bench (bench/faults.ts) gives: a way to set up its merchants, and one
// payment driven from HTTP as a customer (and the merchant's staff) would, retried as a real client retries.
import { PrivateKey, Transaction } from '@bsv/sdk';
import { requestFaucet } from '@ctk/chain/local';
import { http, type HttpAnswer } from '../../apps/gateway/test/wallet-http.js';

export type Json = HttpAnswer['json'];

/** What a path works against: the gateway's public URL and the local chain's. */
export type Bench = { base: string; chainUrl: string };

/**
 * A payment the API accepted (answered 2xx), and what the books must then hold for it: exactly one journal
 * entry of `org` with `eventType` and, as the ledger API shows them, this `txid` and/or `sourceId`.
 */
export type Accepted = {
  path: string;
  /** The merchant's organisation handle (its ledger and trial balance are read at the end). */
  org: string;
  /** The API key of one of the organisation's owners (reads its ledger). */
  key: string;
  eventType: string;
  txid?: string;
  sourceId?: string;
};

export type PaymentPath = {
  name: string;
  /** Onboards what the path's payments need (merchants, items, cards, keys); runs once, before any fault. */
  setup(bench: Bench): Promise<void>;
  /**
   * The n-th payment, from the customer's first request to the API's acceptance. Resolves with what the books
   * must hold once it was accepted; rejects when it was not (a refusal, or still failing after its retries:
   * counted as refused, never as lost).
   */
  pay(bench: Bench, n: number): Promise<Accepted>;
};

/** A customer's coin: a faucet payment to a fresh key, unconfirmed (the local chain accepts spends of it). */
export async function customerCoin(bench: Bench, satoshis: number): Promise<{ key: PrivateKey; source: Transaction; vout: number }> {
  const key = PrivateKey.fromRandom();
  const paid = await retried('faucet', () => requestFaucet(bench.chainUrl, key.toAddress('testnet'), satoshis));
  return { key, source: Transaction.fromHex(paid.raw_tx), vout: paid.vout };
}

const sleep = (ms: number) => new Promise((later) => setTimeout(later, ms));

/**
 * A failure worth retrying: no answer (a process killed, a connection reset), a 5xx, a 409 conflict of a lost
 * race, or a 429 (a client waits and retries).
 */
export function transient(error: unknown): boolean {
  if (error instanceof HttpError) return error.status >= 500 || error.status === 409 || error.status === 429;
  return true;
}

export class HttpError extends Error {
  constructor(
    readonly what: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${what}: ${status} ${body.slice(0, 300)}`);
  }
}

/**
 * `work` until it succeeds, retrying what is transient (see transient) with a growing pause, for up to
 * `patienceMs` (faults last seconds: a process restarts, NATS or PostgreSQL comes back): as a wallet or a
 * till retries. Two minutes: a request whose gateway died holds its Idempotency-Key for a minute before a
 * retry may run it again (apps/gateway/src/plugins/idempotency.ts). The last error when it never succeeds.
 */
export async function retried<T>(what: string, work: () => Promise<T>, patienceMs = 120_000): Promise<T> {
  const until = Date.now() + patienceMs;
  for (let pause = 100; ; pause = Math.min(pause * 2, 2_000)) {
    try {
      return await work();
    } catch (error) {
      if (!transient(error) || Date.now() + pause > until) throw error;
      await sleep(pause);
    }
  }
}

/** One JSON request; its answer's JSON when the status is the expected one (any 2xx by default), else an HttpError. */
export async function call(
  what: string,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
  expected?: number,
): Promise<Json> {
  const answer = await http(method, url, body, headers);
  const ok = expected === undefined ? answer.status >= 200 && answer.status < 300 : answer.status === expected;
  if (!ok) throw new HttpError(what, answer.status, answer.text);
  return answer.json;
}
