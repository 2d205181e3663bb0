import { coversMethod, coversPath } from '@ctk/shared';

export { coversPath };

/**
 * Whether a priced resource's `method` and `path` (as the gate stores them and a credential carries them as
 * `mth`/`pth`) cover a request: `*` is any method, and GET covers HEAD; a path ending in `/*` covers that
 * prefix and below (`/weather/*`: `/weather`, `/weather/today`, not `/weathering`); any other path only
 * itself. Paths are compared as the gate compares them (`coversPath` of @ctk/shared: escapes decoded,
 * case and repeated or trailing slashes folded), so that no spelling a router serves slips past.
 */
export function coversRequest(method: string, path: string, requestMethod: string, requestPath: string): boolean {
  return coversMethod(method, requestMethod) && coversPath(path, requestPath);
}

/** The path of a request target (`/weather/today?x=1` -> `/weather/today`). */
export function pathOf(target: string): string {
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}
