/** The longest peer URL accepted. */
export const PEER_URL_MAX_LENGTH = 2048;

/**
 * The URL's own problems before any connection (scheme, credentials, length ≤ 2048, a host), or null: for validating a
 * peer URL given in input. Whether its address is public is only known after DNS, so peerFetch checks that per hop.
 */
export function peerUrlProblem(url: string): string | null {
  if (url.length > PEER_URL_MAX_LENGTH) return `a peer URL is at most ${PEER_URL_MAX_LENGTH} characters (this one has ${url.length})`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'a peer URL must be an absolute URL, such as https://peer.example/';
  }
  return parsedUrlProblem(parsed);
}

/** peerUrlProblem for a URL already parsed (a redirect's Location resolved against the current URL). */
export function parsedUrlProblem(url: URL): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `a peer URL must use http: or https:, not ${url.protocol}`;
  if (url.username !== '' || url.password !== '') return 'a peer URL must not carry credentials (user:password@)';
  if (url.hostname === '') return 'a peer URL must name a host';
  if (url.href.length > PEER_URL_MAX_LENGTH) return `a peer URL is at most ${PEER_URL_MAX_LENGTH} characters`;
  return null;
}

/** A URL as it may appear in an error message: without credentials, and cut short when long. */
export function describeUrl(url: string | URL): string {
  let text: string;
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    text = parsed.href;
  } catch {
    text = String(url);
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** The URL's host as an address or a name to resolve: IPv6 literals lose their brackets. */
export function bareHostname(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}
