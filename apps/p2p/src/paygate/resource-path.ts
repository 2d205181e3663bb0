import { AppError, hasDotSegment } from '@ctk/shared';

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
