import { AppError } from '@ctk/shared';
import type { AddressClass } from '@ctk/shared';
import { describeUrl } from './peer-url.js';

/** The setting with which an operator lets the fetcher reach private peers. */
export const ALLOW_PRIVATE_SETTING = 'FEDERATION_ALLOW_PRIVATE_PEERS';

/** A peer URL refused for its own problem (scheme, credentials, length, host): validation_failed on the caller's field. */
export function urlRefused(field: string, url: string | URL, problem: string, redirectedFrom?: URL): AppError {
  return new AppError('validation_failed', `Peer URL ${describeUrl(url)}${via(redirectedFrom)} refused: ${problem}.`, { field });
}

/**
 * A peer refused because an address of its host is not public. The message says whether the operator's allowance
 * (FEDERATION_ALLOW_PRIVATE_PEERS) would let it through; it names the address only when the URL itself holds it.
 */
export function addressRefused(field: string, url: URL, literal: boolean, address: AddressClass, redirectedFrom?: URL): AppError {
  const where = literal ? `its address is ${address.range}` : `its host ${url.hostname} resolves to a ${address.range} address`;
  const remedy =
    address.verdict === 'private'
      ? `An operator can allow private peers (instances on one machine or network) with ${ALLOW_PRIVATE_SETTING}=true.`
      : `Such addresses are never allowed, not even with ${ALLOW_PRIVATE_SETTING}.`;
  return new AppError(
    'validation_failed',
    `Peer URL ${describeUrl(url)}${via(redirectedFrom)} refused: ${where}, which is not public. ${remedy}`,
    {
      field,
      range: address.range,
    },
  );
}

/**
 * A peer that could not be used: connect or DNS failure, timeout, body too large, too many redirects (503).
 * `details`: what the peer itself answered, when it did: max_bytes (a body too large) or status (not 2xx).
 */
export function peerUnavailable(url: string | URL, problem: string, details?: { max_bytes: number } | { status: number }): AppError {
  return new AppError('unavailable', `Peer ${describeUrl(url)} ${problem}.`, details);
}

/**
 * Whether a failure is one feed's own (refused when read or kept, too large, or answered 4xx) rather than its
 * peer's (unreachable, slow, broken off, 5xx): a round skips the feed and goes on with the peer's others.
 */
export function isFeedProblem(error: unknown): boolean {
  if (!AppError.is(error)) return false;
  if (error.code === 'unavailable') {
    const status = error.details?.status;
    return error.details?.max_bytes !== undefined || (typeof status === 'number' && status < 500);
  }
  return error.code !== 'timeout';
}

/** A Node error's code (ENOTFOUND, ECONNREFUSED…), else its message. */
export function errorCode(error: unknown): string {
  if (error instanceof Error) return (error as NodeJS.ErrnoException).code ?? error.message;
  return String(error);
}

function via(redirectedFrom: URL | undefined): string {
  return redirectedFrom ? ` (a redirect from ${describeUrl(redirectedFrom)})` : '';
}
