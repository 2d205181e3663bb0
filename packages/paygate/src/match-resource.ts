/**
 * Whether a priced resource's `method` and `path` (as the gate stores them and a credential carries them as
 * `mth`/`pth`) cover a request. `*` is any method; a path ending in `/*` covers that prefix and below
 * (`/weather/*`: `/weather`, `/weather/today`, not `/weathering`); any other path only itself. The request's
 * path is compared as received, without its query, as the gate compares the URL it is sent.
 */
export function coversRequest(method: string, path: string, requestMethod: string, requestPath: string): boolean {
  return (method === '*' || method === requestMethod) && coversPath(path, requestPath);
}

export function coversPath(path: string, requestPath: string): boolean {
  if (!path.endsWith('/*')) return path === requestPath;
  const base = path.slice(0, -2);
  return requestPath === base || requestPath.startsWith(`${base}/`);
}

/** The path of a request target (`/weather/today?x=1` -> `/weather/today`). */
export function pathOf(target: string): string {
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}
