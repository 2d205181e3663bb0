import { AppError } from '@ctk/shared';

/** The menu's ETag: its version in double quotes (a strong validator: the version names one content). */
export function etagOf(version: bigint | number): string {
  return `"${version}"`;
}

/** The version an If-Match names: one strong ETag of digits. Anything else (missing, `*`, weak, a list) names none. */
export function ifMatchVersion(header: string | string[] | undefined): bigint | null {
  if (typeof header !== 'string') return null;
  const match = /^\s*"(\d{1,18})"\s*$/.exec(header);
  return match ? BigInt(match[1]!) : null;
}

/**
 * A replacement without a usable If-Match is refused like a stale one (412), so that an editor cannot
 * overwrite a menu (or a site's settings) it did not read; the answer names the current version to read.
 */
export function ifMatchRefused(header: string | string[] | undefined, current: bigint, what: 'menu' | 'site' = 'menu'): AppError {
  const etag = etagOf(current);
  const problem = header === undefined ? `Replacing the ${what} needs If-Match` : 'If-Match must be the one ETag you read, such as "4"';
  return new AppError(
    'precondition_failed',
    `${problem}: the ${what} is at version ${current} (ETag ${etag}). Read it (GET), make your change to it, and send If-Match: ${etag}.`,
    { current_version: Number(current), header: 'If-Match' },
  );
}
