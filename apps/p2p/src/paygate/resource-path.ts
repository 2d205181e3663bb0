/** A priced resource's method and path pattern: "/weather/today" exactly, or "/weather/*" for that prefix and below. */
export type ResourcePattern = { method: string; path: string };

/** Whether a request's method and path (no query) fall under a resource's pattern. */
export function matchesResource(resource: ResourcePattern, method: string, path: string): boolean {
  if (resource.method !== '*' && resource.method !== method.toUpperCase()) return false;
  if (!resource.path.endsWith('/*')) return resource.path === path;
  const prefix = resource.path.slice(0, -1);
  return path.startsWith(prefix) || path === prefix.slice(0, -1);
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

/**
 * The path of the URL a resource server received (absolute http(s), or from "/"), without query or
 * fragment, with dot segments resolved as the URL standard does, so "/free/../weather" prices as "/weather".
 */
export function pathOfUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url, 'http://resource.invalid');
    if (!url.startsWith('/') && parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    if (url.startsWith('//')) return undefined;
    return parsed.pathname;
  } catch {
    return undefined;
  }
}
