import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { errorCode, peerUnavailable } from './peer-errors.js';
import { bareHostname } from './peer-url.js';
import { pinnedLookup } from './pinned-lookup.js';
import { readLimitedBody } from './read-limited-body.js';
import type { ResolvedAddress } from './resolve-peer-host.js';

/** One request to one URL, connecting only to its checked addresses. */
export type Hop = {
  url: URL;
  addresses: ResolvedAddress[];
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: Buffer;
  maxBytes: number;
  signal: AbortSignal;
};

/** A hop's answer; a redirect (with a Location) comes back with an empty body, unread. */
export type HopAnswer = { status: number; headers: Record<string, string>; body: Buffer };

/** The statuses followed as redirects when they carry a Location. */
export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Sends one request and reads its answer. The client never follows redirects itself; the connection is pooled with
 * nothing (agent: false), so a socket opened for another check can never be reused. Aborts with the signal's reason.
 */
export function requestHop(hop: Hop): Promise<HopAnswer> {
  return new Promise((resolve, reject) => {
    if (hop.signal.aborted) return reject(hop.signal.reason);
    const hostname = bareHostname(hop.url);
    const secure = hop.url.protocol === 'https:';
    const options: https.RequestOptions = {
      protocol: hop.url.protocol,
      host: hostname,
      port: hop.url.port === '' ? undefined : Number(hop.url.port),
      path: `${hop.url.pathname}${hop.url.search}`,
      method: hop.method,
      headers: hop.body ? { ...hop.headers, 'content-length': String(hop.body.length) } : hop.headers,
      agent: false,
      lookup: pinnedLookup(hop.addresses),
      ...(secure && isIP(hostname) === 0 ? { servername: hostname } : {}),
    };
    const req = (secure ? https : http).request(options);
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      hop.signal.removeEventListener('abort', onAbort);
      finish();
    };
    const fail = (error: unknown) =>
      settle(() => {
        req.destroy();
        reject(error);
      });
    const onAbort = () => fail(hop.signal.reason);
    hop.signal.addEventListener('abort', onAbort, { once: true });

    req.on('error', (error) => fail(peerUnavailable(hop.url, `could not be reached (${errorCode(error)})`)));
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const headers = flattenHeaders(res.headers);
      if (REDIRECT_STATUSES.has(status) && headers.location !== undefined) {
        return settle(() => {
          req.destroy();
          resolve({ status, headers, body: Buffer.alloc(0) });
        });
      }
      readLimitedBody(res, hop.url, hop.maxBytes).then((body) => settle(() => resolve({ status, headers, body })), fail);
    });
    req.end(hop.body);
  });
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
