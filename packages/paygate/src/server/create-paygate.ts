import { AppError, hasDotSegment, type ErrorCode } from '@ctk/shared';
import { decodeToken } from '../credential-token.js';
import { CREDENTIAL_HEADER } from '../headers.js';
import { pathOf } from '../match-resource.js';
import { askGate, type CheckAnswer } from './ask-gate.js';
import { credentialCheck, type CredentialRefusal } from './check-credential.js';
import { merchantIdentity } from './derive-payee-key.js';
import { fetchPriceList, type PriceList } from './price-list.js';
import { UseCounter } from './count-uses.js';
import { paygateSettings, type PaygateOptions } from './paygate-options.js';
import { headerValue, pickPaymentHeaders, type RequestHeaders } from './pick-payment-headers.js';
import { sameKeys } from './published-document.js';
import { refreshDocument } from './refresh-document.js';

/** What the middleware needs of a request, whatever the framework. */
export type PaygateRequest = {
  method: string;
  /** The request target as received: path and query (`/weather/today?x=1`). */
  url: string;
  headers: RequestHeaders;
  /** The origin of the URL told to the gate when `publicUrl` is unset (`http://<Host header>`); called only when the gate is asked. */
  origin?: () => string;
};

/** Pass the request on (adding `headers` to its answer), or answer it now. */
export type PaygateDecision =
  | { pass: true; headers: Readonly<Record<string, string>> }
  | { pass: false; status: number; headers: Record<string, string>; body: unknown };

/** The framework-free core: the adapters (`paygateFastify`, `paygateExpress`) call `check` for each priced request. */
export type PaygateCore = {
  /** Synchronous when a credential is accepted locally (no network); a promise when the gate is asked. */
  check(request: PaygateRequest): PaygateDecision | Promise<PaygateDecision>;
  /** Resolves once the published document is loaded; rejects if the first fetch failed (it keeps trying). */
  ready(): Promise<void>;
  /** Stops the background refresh. */
  close(): void;
};

const PASS: PaygateDecision = Object.freeze({ pass: true, headers: Object.freeze({}) });
/** Only these of the gate's answer headers reach the client. */
const GATE_HEADER = /^(?:x-bsv-|payment-|x-ctk-)/;

const REFUSAL_TEXT: Record<CredentialRefusal, string> = {
  malformed: 'it is not a credential',
  bad_signature: 'its signature does not verify',
  wrong_issuer: 'another gate issued it',
  other_account: 'it was bought from another account',
  expired: 'it has expired',
  wrong_method: 'it does not cover this method',
  wrong_path: 'it does not cover this path',
  other_price: 'another price covers this path',
  revoked_resource: 'its resource was withdrawn',
  revoked_credential: 'it was revoked',
  calls_used_up: 'every call it paid for is used',
};

/**
 * The payment gate's middleware, framework-free: a request with a credential this process accepts passes
 * with no network hop; any other request is put to the gate's `/check` with its payment headers only,
 * and answered as the gate says (free, 402, or paid). An unreachable gate is a 503, never a free pass.
 */
export function createPaygate(options: PaygateOptions): PaygateCore {
  const settings = paygateSettings(options);
  const base = settings.gateUrl.replace(/\/+$/, '');
  const checkUrl = `${base}/api/v1/402/check`;
  const publicOrigin = settings.publicUrl ? new URL(settings.publicUrl).origin : undefined;
  let account = settings.account;
  const identity = settings.identityKey === undefined ? undefined : merchantIdentity(settings.identityKey);
  const uses = new UseCounter(settings.countedCredentials);
  const credentials = credentialCheck({ cacheSize: settings.cacheSize, uses, account: () => account });
  // The account's priced resources, read again with each published document: a credential pays only where its resource prices.
  let prices: PriceList | undefined;
  let pricesLoading: Promise<void> | undefined;
  const loadPrices = () =>
    (pricesLoading ??= fetchPriceList(base, settings.key, settings.documentTimeoutMs)
      .then(
        (list) => void (prices = list),
        (error: Error) => settings.onError(error),
      )
      .finally(() => (pricesLoading = undefined)));
  const documents = refreshDocument({
    url: `${base}/.well-known/ctk-paygate.json`,
    timeoutMs: settings.documentTimeoutMs,
    onChange(previous, next) {
      if (previous && !sameKeys(previous, next)) credentials.clear();
      uses.pruneExpired(Date.now() / 1000);
      void loadPrices();
    },
    onError: settings.onError,
  });

  /** What the gate's `paid` means here: the paid request (or one the gate counted) is a use of the credential. */
  const remember = (answer: CheckAnswer, forwarded: string | undefined) => {
    const token = answer.credential?.token ?? forwarded;
    const decoded = token === undefined ? undefined : decodeToken(token);
    if (!decoded) return;
    if (answer.credential && account === undefined) account = decoded.claims.sub;
    else if (answer.credential && account !== decoded.claims.sub)
      settings.onError(
        new AppError(
          'failed_precondition',
          `The gate issued a credential for account ${decoded.claims.sub}, not ${account}: is \`account\` right?`,
        ),
      );
    if (decoded.claims.calls !== undefined) uses.record(decoded.claims.jti, decoded.claims.exp);
    if (!documents.current()?.keys.has(decoded.kid)) documents.refreshSoon();
  };

  const askTheGate = async (request: PaygateRequest, credential: string | undefined, refused: CredentialRefusal | undefined) => {
    const picked = pickPaymentHeaders(request.headers, {
      maxTransactionBytes: settings.maxTransactionHeaderBytes,
      maxBytes: settings.maxHeaderBytes,
      withCredential: credential !== undefined,
    });
    if ('tooLarge' in picked)
      return errorAnswer('payload_too_large', `The ${picked.tooLarge.name} header is over ${picked.tooLarge.limit} bytes.`);
    const payeeKey = identity?.payeeKey(picked.headers);
    let answer: CheckAnswer;
    try {
      answer = await askGate(checkUrl, settings.key, settings.checkTimeoutMs, {
        method: request.method,
        url: `${publicOrigin ?? originOf(request.origin?.())}${request.url}`,
        headers: picked.headers,
        ...(payeeKey ? { payee_key: payeeKey } : {}),
      });
    } catch (error) {
      settings.onError(error as Error);
      return errorAnswer(
        'unavailable',
        'The payment gate cannot be reached, so this paid resource cannot be checked now: try again shortly.',
        {
          'retry-after': '5',
        },
      );
    }
    if (answer.outcome === 'free') return PASS;
    const headers = gateHeaders(answer.headers);
    if (answer.outcome === 'paid') {
      remember(answer, credential);
      return { pass: true as const, headers: answer.credential ? { ...headers, 'cache-control': 'no-store' } : headers };
    }
    // With the merchant's identity key, BRC-121 payers derive their payment's key from it (decision 0021).
    if (identity && headers['x-bsv-server']) headers['x-bsv-server'] = identity.publicKey;
    return {
      pass: false as const,
      // A payment_required is never a success status: the route's handler does not run.
      status: answer.status >= 400 ? answer.status : 402,
      headers: { ...headers, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
      body: refused && !answer.refusal ? withRefusal(answer.body, refused) : (answer.body ?? { error: 'Payment required' }),
    };
  };

  return {
    check(request) {
      const refused = unservedTarget(request.url);
      if (refused) return errorAnswer('bad_request', refused);
      const token = headerValue(request.headers[CREDENTIAL_HEADER]);
      if (token === undefined) return askTheGate(request, undefined, undefined);
      const verdict = credentials.check(token, request.method, pathOf(request.url), Date.now() / 1000, documents.current(), prices);
      if (verdict.ok) return PASS;
      if ('refusal' in verdict) return askTheGate(request, undefined, verdict.refusal);
      // Undecided here (a key not yet published to us, no document yet, the account not yet known): the gate decides and counts.
      if (verdict.doubt === 'unknown_key') documents.refreshSoon();
      return askTheGate(request, token, undefined);
    },
    ready: async () => {
      await documents.ready();
      await pricesLoading;
    },
    close: () => documents.close(),
  };
}

/**
 * Why a request target is not one the gate may price, or undefined. Only a path from "/" (origin form) is
 * taken, and none with a dot segment: a router serves "/weather/.." as a city named "..", where a URL parser
 * makes it "/"; clients resolve dot segments before sending, so only a probe sends one.
 */
function unservedTarget(target: string): string | undefined {
  if (!target.startsWith('/')) return 'The request target must be a path from "/".';
  if (hasDotSegment(pathOf(target))) return 'The request path must not hold "." or ".." segments, in any spelling, or a backslash.';
  return undefined;
}

/**
 * The origin told to the gate, from the request's Host header when `publicUrl` is unset: only a scheme,
 * a host name or address and a port. A Host header is the client's to write, and one like
 * "api.example.com/free?" would otherwise move the path the gate prices.
 */
function originOf(origin: string | undefined): string {
  return origin !== undefined && /^https?:\/\/(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/.test(origin)
    ? origin
    : 'http://localhost';
}

function gateHeaders(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (GATE_HEADER.test(name.toLowerCase())) kept[name.toLowerCase()] = value;
  return kept;
}

/** The 402's body says why the credential offered was not enough, as the gate does for the ones it refuses. */
function withRefusal(body: unknown, refusal: CredentialRefusal): unknown {
  const error = `Payment required: the credential offered was refused (${REFUSAL_TEXT[refusal]}).`;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...body, error } : { error };
}

function errorAnswer(code: ErrorCode, message: string, extra: Record<string, string> = {}): PaygateDecision {
  return {
    pass: false,
    status: new AppError(code, message).httpStatus,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...extra },
    body: { error: { code, message } },
  };
}
