/**
 * How the payment gate compares a request with a priced resource (decision 0021), in p2p and in the
 * merchant's middleware alike, so that the two never disagree.
 *
 * The gate must price whatever the merchant's router serves, and routers take many spellings of one path:
 * fastify decodes percent escapes before it matches ("/%77eather/today" is served by "/weather/:city"),
 * Express ignores case and a trailing "/" unless told otherwise, and both serve HEAD with the GET handler.
 * A spelling the router serves and the gate does not price would be a free pass, so paths are compared in
 * one form that folds them all: each percent escape decoded once (but "%2F", which routers keep inside its
 * segment), lower case, runs of "/" as one, no trailing "/". Dot segments are not folded: routers do not
 * resolve them ("/weather/.." is a city named ".." to a "/weather/:city" route), so a path that holds one
 * is refused before it is compared (`hasDotSegment`).
 */
export function comparablePath(path: string): string {
  // Most paths are already in the folded form; this test costs far less than folding (the middleware runs it per request).
  if (!NEEDS_FOLDING.test(path)) return path;
  const decoded = path
    .split(/%2f/i)
    .map(decodeEscapes)
    .join('%2f')
    .toLowerCase()
    .replace(/\/{2,}/g, '/');
  return decoded.length > 1 && decoded.endsWith('/') ? decoded.slice(0, -1) : decoded;
}

/**
 * Whether a priced path covers a request's path (both as received, without query): a path ending in
 * "/*" covers that prefix and below ("/weather/*": "/weather", "/weather/today", not "/weathering"), any
 * other path only itself; each compared as `comparablePath` folds it.
 */
export function coversPath(pattern: string, path: string): boolean {
  return pathMatcher(pattern)(comparablePath(path));
}

/** `coversPath` for one priced path, folded once: the returned test takes a request path already folded by `comparablePath`. */
export function pathMatcher(pattern: string): (comparable: string) => boolean {
  let matcher = matchers.get(pattern);
  if (!matcher) {
    // Priced paths are few (an account has at most 200): a full cache is simply started again.
    if (matchers.size >= 10_000) matchers.clear();
    matcher = newMatcher(pattern);
    matchers.set(pattern, matcher);
  }
  return matcher;
}

const matchers = new Map<string, (comparable: string) => boolean>();
/** A character outside lower-case unreserved and sub-delimiters, a "//", or a trailing "/": the path needs folding. */
const NEEDS_FOLDING = /[^a-z0-9\-._~!$&'()*+,;=:@/]|\/\/|.\/$/;

function newMatcher(pattern: string): (comparable: string) => boolean {
  if (!pattern.endsWith('/*')) {
    const exact = comparablePath(pattern);
    return (comparable) => comparable === exact;
  }
  const base = comparablePath(pattern.slice(0, -2));
  const prefix = base.endsWith('/') ? base : `${base}/`;
  return (comparable) => comparable === base || comparable.startsWith(prefix);
}

/**
 * The priced resource that prices a request: of those whose method and path cover it, the most specific
 * (`specificity`), then the newest. A credential bought for a broader one does not pay for it.
 */
export function pricingResource<T extends { method: string; path: string; createdAt: Date }>(
  resources: T[],
  method: string,
  path: string,
): T | undefined {
  const comparable = comparablePath(path);
  return resources
    .filter((resource) => coversMethod(resource.method, method) && pathMatcher(resource.path)(comparable))
    .sort((a, b) => specificity(b) - specificity(a) || b.createdAt.getTime() - a.createdAt.getTime())[0];
}

/** How specific a priced resource is: an exact path before any prefix, a longer prefix before a shorter, a named method before "*". */
export function specificity(resource: { method: string; path: string }): number {
  return (resource.path.endsWith('/*') ? resource.path.length : 100_000) * 2 + (resource.method === '*' ? 0 : 1);
}

/** Whether a priced method covers a request's: "*" any; HEAD is GET without its body, so a price on GET covers it. */
export function coversMethod(pattern: string, method: string): boolean {
  if (pattern === method || pattern === '*') return true;
  const requested = method.toUpperCase();
  return pattern === '*' || pattern === requested || (pattern === 'GET' && requested === 'HEAD');
}

/** Whether a path holds a "." or ".." segment, in any spelling ("%2e%2e"), or a backslash (a separator to URL parsers). */
export function hasDotSegment(path: string): boolean {
  if (path.includes('\\')) return true;
  if (!path.includes('.') && !path.includes('%')) return false;
  return path.split('/').some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment));
}

/** Every run of percent escapes decoded as UTF-8; a run that is not UTF-8 is kept as it was. */
function decodeEscapes(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}
