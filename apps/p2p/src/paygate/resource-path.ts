import { AppError, coversMethod, coversPath, hasDotSegment } from '@ctk/shared';

/** A priced resource's method and path pattern: "/weather/today" exactly, or "/weather/*" for that prefix and below. */
export type ResourcePattern = { method: string; path: string };

/**
 * Whether a request's method and path (no query) fall under a resource's pattern, compared as the
 * merchant's middleware compares them (`coversPath`: escapes, case and slashes folded; HEAD as GET).
 */
export function matchesResource(resource: ResourcePattern, method: string, path: string): boolean {
  return coversMethod(resource.method, method) && coversPath(resource.path, path);
}

/**
 * The resource that prices a request: of those matching, the most specific (an exact path before any
 * prefix, a longer prefix before a shorter, a named method before "*"), then the newest.
 */
export function pricingResource<T extends ResourcePattern & { createdAt: Date }>(
  resources: T[],
  method: string,
  path: string,
): T | undefined {
  const specificity = (r: T) => (r.path.endsWith('/*') ? r.path.length : 100_000) * 2 + (r.method === '*' ? 0 : 1);
  return resources
    .filter((resource) => matchesResource(resource, method, path))
    .sort((a, b) => specificity(b) - specificity(a) || b.createdAt.getTime() - a.createdAt.getTime())[0];
}

const URL_RULE = 'url must be the URL the request was sent to: absolute http(s), or a path from "/"';

/**
 * The path of the URL a resource server received (absolute http(s), or from "/"), as received: without
 * query or fragment, not resolved or re-encoded by a URL parser, since the merchant's router matches
 * what it received. A path with a dot segment or a backslash is refused: a router serves "/weather/.."
 * as a city named "..", a URL parser makes it "/", and the gate must not choose between them.
 */
export function pathOfUrl(url: string): string {
  const match = url.length <= 4096 ? /^(?:https?:\/\/[^/?#\\]+)?(\/[^?#]*)?(?:[?#].*)?$/is.exec(url) : null;
  if (!match || url.startsWith('//') || (!url.startsWith('/') && !isHttpUrl(url)))
    throw new AppError('validation_failed', URL_RULE, { field: 'url' });
  const path = match[1] ?? '/';
  if (hasDotSegment(path))
    throw new AppError('validation_failed', 'url must not hold "." or ".." path segments (in any spelling) or a backslash', {
      field: 'url',
    });
  return path;
}

function isHttpUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
