/** The User-Agent every peer request carries. */
export const PEER_USER_AGENT = 'commerce-toolkit-federation/1';

/** Headers the fetcher sets itself (the User-Agent names federation to peers); a caller's are dropped. */
const OWN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'user-agent']);

/** Headers that carry a credential, dropped when a redirect leaves the origin (as fetch does). */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

/** A request's headers (lower-case names): JSON accepted (unless the caller asks otherwise), our User-Agent, the caller's others, and the JSON body's type. */
export function peerRequestHeaders(callerHeaders: Record<string, string> | undefined, jsonBody: boolean): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': PEER_USER_AGENT };
  for (const [name, value] of Object.entries(callerHeaders ?? {})) {
    if (!OWN_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
  }
  if (jsonBody) headers['content-type'] = 'application/json';
  return headers;
}

/** The headers without those named (lower-case). */
export function withoutHeaders(headers: Record<string, string>, names: Iterable<string>): Record<string, string> {
  const drop = new Set(names);
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !drop.has(name)));
}

/** The headers for a redirect to another origin: no credentials. */
export function crossOriginHeaders(headers: Record<string, string>): Record<string, string> {
  return withoutHeaders(headers, CREDENTIAL_HEADERS);
}
