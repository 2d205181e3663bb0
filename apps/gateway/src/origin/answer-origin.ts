import type { FastifyRequest } from 'fastify';

/** A bare host[:port]: a DNS name or IPv4 address, or a bracketed IPv6 one, and a port. No user, path or query. */
const BARE_HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]{2,45}\])(?::(\d{1,5}))?$/i;

/**
 * The base URL the links of an answer to this request use: the origin the caller
 * reached the service by, so that a page loaded from http://127.0.0.1:8080 gets QR images, event streams
 * and payment requests it may load under its CSP and CORS, even when CTK_PUBLIC_URL says localhost.
 *
 * Only for the answer to this request: what is stored or signed (an order's receipt merchant, emails,
 * paymail, anything cached for others) keeps CTK_PUBLIC_URL, so a Host header chooses nothing anyone else
 * sees. The host is the Host header, or X-Forwarded-Host and -Proto when a proxy of CTK_TRUSTED_PROXIES
 * sent them (Fastify's trustProxy reads them only then). A host that is not a bare host[:port] is ignored,
 * as is the configured host itself (its scheme is CTK_PUBLIC_URL's, which a TLS proxy not declared as trusted hides).
 */
export function answerOrigin(request: Pick<FastifyRequest, 'host' | 'protocol'>, publicUrl: string): string {
  const configured = new URL(publicUrl);
  const base = `${configured.origin}${configured.pathname.replace(/\/+$/, '')}`;
  const host = String(request.host ?? '');
  const protocol = request.protocol;
  const match = host.length <= 261 ? BARE_HOST.exec(host) : null;
  if (!match || (protocol !== 'http' && protocol !== 'https')) return base;
  if (match[1] !== undefined && Number(match[1]) > 65_535) return base;
  // As a URL spells it: lower case, without the scheme's default port (localhost:80 is http://localhost).
  const reached = new URL(`${protocol}://${host}`);
  if (reached.host === configured.host) return base;
  return `${reached.origin}${configured.pathname.replace(/\/+$/, '')}`;
}

/**
 * An answer's URLs made under `from` (CTK_PUBLIC_URL, what pos was given to keep) moved to `to`: plain
 * (payment_request_url) and inside a URI's `r=` parameter (pay_uri, bip21_uri), where it is percent-encoded.
 */
export function rebaseUrl(text: string, from: string, to: string): string {
  const [a, b] = [from.replace(/\/+$/, ''), to.replace(/\/+$/, '')];
  if (a === b || !text) return text;
  const plain = text.startsWith(`${a}/`) ? `${b}/${text.slice(a.length + 1)}` : text;
  return plain.replaceAll(encodeURIComponent(`${a}/`), encodeURIComponent(`${b}/`));
}

/**
 * An answer's links made by a service under `from` (CTK_PUBLIC_URL, what pos was given to keep) under the
 * caller's origin `to`: every `*_uri` and `*_url`, at any depth (an order's, its refunds', a checkout's).
 * A link elsewhere (a merchant's avatar) is left as it is.
 */
export function rebasePaymentLinks<T>(view: T, from: string, to: string): T {
  if (Array.isArray(view)) return view.map((item: unknown) => rebasePaymentLinks(item, from, to)) as T;
  if (!view || typeof view !== 'object') return view;
  const rebased = Object.entries(view).map(([key, value]) => [
    key,
    typeof value === 'string' && /_(uri|url)$/.test(key) ? rebaseUrl(value, from, to) : rebasePaymentLinks(value, from, to),
  ]);
  return Object.fromEntries(rebased) as T;
}
