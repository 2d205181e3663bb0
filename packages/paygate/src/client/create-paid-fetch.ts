import type { PrivateKey } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import { CREDENTIAL_HEADER, PAYMENT_RESPONSE_HEADER } from '../headers.js';
import { pathOf } from '../match-resource.js';
import { memoryCredentialStore, storedCredential, type CredentialStore } from './credential-store.js';
import { paymentHeaders, type PayResult } from './payment-headers.js';
import { planBrc121, privateKeyOf } from './plan-brc121.js';
import { readOffer, type PaymentOffer } from './read-offer.js';

/** What the client asks `pay` for: a signed transaction paying `satoshis` to `lockingScript` (hex). */
export type PayRequest = {
  url: string;
  method: string;
  lockingScript: string;
  satoshis: number;
  scheme: PaymentOffer['scheme'];
  network?: string;
};

/** A payment handed to a server, told to `onPayment` once the server answered the paid retry. */
export type PaymentMade = {
  url: string;
  method: string;
  satoshis: number;
  scheme: PaymentOffer['scheme'];
  txid?: string;
  /** The paid retry's status: a 402 means the server refused the payment. */
  status: number;
  /** The server's `payment-response`, decoded (x402: `{success, transaction, network, payer}`). */
  paymentResponse?: unknown;
  /** Whether the answer carried a credential for later requests. */
  credential: boolean;
};

export type PaidFetchOptions = {
  /** Builds and signs the transaction (it is not broadcast: the gate does that once it accepts it). */
  pay: (request: PayRequest) => Promise<PayResult>;
  /** The most this client pays in all, in satoshis (prices only: a transaction's mining fee is not counted). */
  maxSatoshis: number;
  /**
   * The payer's identity key (WIF, hex or a PrivateKey): BRC-121 offers are then paid as `@bsv/402-pay` pays
   * them, to the BRC-42 child of `x-bsv-server` (BRC-29), with this key as `x-bsv-sender`. Without it, to
   * `x-bsv-server` itself, as the contract's gate takes them. x402 offers are paid the same either way.
   */
  identityKey?: string | PrivateKey;
  /** x402 networks this client pays on (`bsv:local`, ...); unset, any `bsv:` network. */
  networks?: readonly string[];
  credentials?: CredentialStore;
  fetch?: typeof fetch;
  onPayment?: (payment: PaymentMade) => void;
};

export type PaidFetch = ((input: string | URL | Request, init?: RequestInit) => Promise<Response>) & {
  /** Satoshis handed over so far (a payment the server then refused included: it holds a signed transaction). */
  readonly spent: number;
};

/**
 * A fetch that pays HTTP 402s. It sends the credential it holds for a URL's resource; on a 402 it reads the
 * offer (x402 first, else BRC-121), refuses when the price would take the total past `maxSatoshis`
 * (nothing is paid), has `pay` sign a transaction and retries once with it. A credential in the answer
 * is kept for that resource until a server refuses it. At most one payment per call.
 *
 * A request body is sent twice when a payment is made: strings, bytes, URLSearchParams and Blobs can be; a
 * stream cannot, and such a request that meets a 402 fails (pay first with a bodiless request, or buffer it).
 */
export function createPaidFetch(options: PaidFetchOptions): PaidFetch {
  if (!Number.isSafeInteger(options.maxSatoshis) || options.maxSatoshis < 0)
    throw new AppError('bad_request', 'maxSatoshis must be a whole number of satoshis, 0 or more.');
  const send = options.fetch ?? globalThis.fetch;
  const credentials = options.credentials ?? memoryCredentialStore();
  const identityKey = options.identityKey === undefined ? undefined : privateKeyOf(options.identityKey);
  let spent = 0;

  const paidFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const request = input instanceof Request ? input : undefined;
    const url = request ? request.url : String(input);
    const method = (init.method ?? request?.method ?? 'GET').toUpperCase();
    const { origin } = new URL(url);
    // A Request's body is a stream: keep a copy before the first send, in case a payment means sending it again.
    const spare = request?.body ? request.clone() : undefined;

    const held = credentials.find(origin, method, pathOf(new URL(url).pathname), Date.now() / 1000);
    const first = await send(request ?? url, withHeaders(init, request, held ? { [CREDENTIAL_HEADER]: held.token } : {}));
    if (first.status !== 402) return keepCredential(first, url);
    if (held) credentials.drop(held.token);

    const offer = readOffer(first.headers, await first.json().catch(() => undefined), options.networks);
    if (!offer)
      throw new AppError(
        'failed_precondition',
        `${method} ${url} answered 402 without a payment this client can read (no x402 nor BRC-121 offer).`,
      );
    if (!replayable(init.body) || (request?.body && !spare))
      throw new AppError(
        'bad_request',
        `${method} ${url} asks for a payment, and the request's body is a stream that cannot be sent again: give a string or bytes.`,
      );
    if (spent + offer.satoshis > options.maxSatoshis)
      throw new AppError(
        'payment_required',
        `${method} ${url} costs ${offer.satoshis} satoshis: with ${spent} already spent that is past the cap of ${options.maxSatoshis}. Nothing was paid.`,
        { satoshis: offer.satoshis, spent, max_satoshis: options.maxSatoshis },
      );

    // Counted before `pay` is awaited, so that concurrent calls cannot together pass the cap.
    spent += offer.satoshis;
    let paid: PayResult;
    let headers: Record<string, string>;
    try {
      const brc121 = offer.scheme === 'brc121' ? planBrc121(offer.serverKey as string, identityKey) : undefined;
      paid = await options.pay({
        url,
        method,
        lockingScript: brc121?.lockingScript ?? offer.lockingScript,
        satoshis: offer.satoshis,
        scheme: offer.scheme,
        network: offer.network,
      });
      headers = paymentHeaders(offer, paid, brc121?.remittance);
    } catch (error) {
      spent -= offer.satoshis;
      throw error;
    }
    const answer = await send(spare ?? url, withHeaders(init, spare, headers));
    const credential = answer.headers.has(CREDENTIAL_HEADER);
    keepCredential(answer, url);
    options.onPayment?.({
      url,
      method,
      satoshis: offer.satoshis,
      scheme: offer.scheme,
      ...(paid.txid ? { txid: paid.txid } : {}),
      status: answer.status,
      paymentResponse: decodePaymentResponse(answer.headers.get(PAYMENT_RESPONSE_HEADER)),
      credential,
    });
    return answer;
  };

  /** Keeps the credential an answer carries for the resource it covers. */
  const keepCredential = (response: Response, url: string): Response => {
    const token = response.headers.get(CREDENTIAL_HEADER);
    const credential = token ? storedCredential(token, url) : undefined;
    if (credential) credentials.save(credential);
    return response;
  };

  return Object.defineProperty(paidFetch, 'spent', { get: () => spent }) as PaidFetch;
}

/**
 * The caller's request with `extra` headers. A request that carries a credential or a payment follows no
 * redirect unless the caller chose to: a redirect must not carry them to another URL.
 */
function withHeaders(init: RequestInit, request: Request | undefined, extra: Record<string, string>): RequestInit {
  const headers = new Headers(init.headers ?? request?.headers);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  const secret = Object.keys(extra).length > 0;
  return { ...init, headers, ...(secret && init.redirect === undefined ? { redirect: 'manual' as const } : {}) };
}

function replayable(body: RequestInit['body']): boolean {
  return (
    body === null ||
    body === undefined ||
    typeof body === 'string' ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    body instanceof Blob
  );
}

function decodePaymentResponse(header: string | null): unknown {
  if (!header) return undefined;
  try {
    return JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
}
