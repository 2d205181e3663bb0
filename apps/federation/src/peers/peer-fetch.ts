import { AppError } from '@ctk/shared';
import { startDeadline } from './deadline.js';
import { peerUnavailable, urlRefused } from './peer-errors.js';
import { type Hop, REDIRECT_STATUSES, requestHop } from './peer-hop.js';
import { crossOriginHeaders, peerRequestHeaders, withoutHeaders } from './peer-request-headers.js';
import { describeUrl, parsedUrlProblem, peerUrlProblem } from './peer-url.js';
import { type ResolvedAddress, checkedAddresses, systemResolver } from './resolve-peer-host.js';

export { peerUrlProblem } from './peer-url.js';

export type PeerFetchOptions = {
  /**
   * Let private, loopback, carrier-grade NAT and IPv6 unique local addresses through (the operator's allowance,
   * FEDERATION_ALLOW_PRIVATE_PEERS: tests run instances on 127.0.0.1). Link-local (169.254/16, fe80::/10: cloud
   * metadata), known metadata addresses, unspecified, broadcast, multicast and reserved ranges stay refused. Default false.
   */
  allowPrivate: boolean;
  /** The whole exchange (DNS, connect, redirects, body) must finish within this. */
  timeoutMs: number;
  /** The largest body read; past it the request is aborted with an error (never buffer more than this + one chunk). */
  maxBytes: number;
  /** At most this many redirects followed (each hop checked again). Default 3. */
  maxRedirects?: number;
  /** Resolver, for tests (default: node:dns/promises lookup with all: true). */
  lookup?: (hostname: string) => Promise<ResolvedAddress[]>;
  /** The input field the URL came from, named in a refusal's details.field. Default 'url'. */
  field?: string;
};

/** A peer's answer, whatever its status; `url` is the final URL after redirects. */
export type PeerResponse = { status: number; url: string; headers: Record<string, string>; body: Buffer };

/** What to send: the method defaults to POST when a JSON body is given, else GET. */
export type PeerRequestInit = { method?: 'GET' | 'POST'; json?: unknown; headers?: Record<string, string> };

const DEFAULT_MAX_REDIRECTS = 3;

/**
 * GET or POST (JSON body) a peer URL; refuses non-http(s), credentials in the URL, and any hop whose address is not
 * public unless allowed. Every hop's host is resolved once, all its addresses checked, and the connection pinned to
 * them. Refusals are validation_failed (details.field); failures (DNS, connect, timeout, size, redirects) unavailable.
 */
export async function peerFetch(url: string, init: PeerRequestInit, options: PeerFetchOptions): Promise<PeerResponse> {
  const field = options.field ?? 'url';
  const problem = peerUrlProblem(url);
  if (problem !== null) throw urlRefused(field, url, problem);
  if (init.method === 'GET' && init.json !== undefined) throw new AppError('internal', 'peerFetch: a GET carries no JSON body');
  const deadline = startDeadline(options.timeoutMs, () =>
    peerUnavailable(url, `did not finish within timeoutMs (${options.timeoutMs} ms for DNS, connecting, redirects and the body)`),
  );
  try {
    return await follow(new URL(url), init, options, field, deadline.signal);
  } finally {
    deadline.clear();
  }
}

async function follow(start: URL, init: PeerRequestInit, options: PeerFetchOptions, field: string, signal: AbortSignal) {
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const resolver = options.lookup ?? systemResolver;
  const method = init.method ?? (init.json === undefined ? 'GET' : 'POST');
  const json = method === 'POST' && init.json !== undefined;
  let request: Omit<Hop, 'addresses'> = {
    url: start,
    method,
    headers: peerRequestHeaders(init.headers, json),
    body: method === 'POST' ? Buffer.from(json ? JSON.stringify(init.json) : '') : undefined,
    maxBytes: options.maxBytes,
    signal,
  };
  let redirectedFrom: URL | undefined;
  for (let redirects = 0; ; redirects++) {
    const addresses = await checkedAddresses(request.url, { field, allowPrivate: options.allowPrivate, resolver, signal, redirectedFrom });
    const answer = await requestHop({ ...request, addresses });
    const location = answer.headers.location;
    if (!REDIRECT_STATUSES.has(answer.status) || location === undefined) return { ...answer, url: request.url.href };
    const next = redirectTarget(request.url, location);
    if (redirects >= maxRedirects) {
      throw peerUnavailable(start, `redirected more than maxRedirects (${maxRedirects}) times; the next Location was ${describeUrl(next)}`);
    }
    const problem = parsedUrlProblem(next);
    if (problem !== null) throw urlRefused(field, next, problem, request.url);
    redirectedFrom = request.url;
    request = redirected(request, answer.status, next);
  }
}

/** A Location resolved against the URL that sent it. */
function redirectTarget(current: URL, location: string): URL {
  try {
    return new URL(location, current);
  } catch {
    throw peerUnavailable(current, 'redirected to a Location that is not a URL');
  }
}

/**
 * The request to send to a redirect's target: 303 (and 301/302 after a POST, as fetch does) turn it into a GET
 * without body; 307/308 keep method and body. Credentials in headers do not follow to another origin.
 */
function redirected(request: Omit<Hop, 'addresses'>, status: number, next: URL): Omit<Hop, 'addresses'> {
  const toGet = request.method === 'POST' && (status === 301 || status === 302 || status === 303);
  const headers = next.origin === request.url.origin ? request.headers : crossOriginHeaders(request.headers);
  if (!toGet) return { ...request, url: next, headers };
  return { ...request, url: next, method: 'GET', body: undefined, headers: withoutHeaders(headers, ['content-type']) };
}
