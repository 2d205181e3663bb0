import { AppError } from '@ctk/shared';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Spends one request of an allowance, or throws 429 `rate_limited` when it is used up. */
export type Allowance = (request: FastifyRequest) => Promise<void>;

const MINUTE = 60_000;
/** Allowances remembered at once per limit (least recently used forgotten first). */
const REMEMBERED = 50_000;

/** The client's address as an allowance key: IPv6 by its /64, which one client usually holds whole. */
export function clientAddress(request: FastifyRequest): string {
  return normalizeIP(request.ip);
}

/**
 * The allowance a request spends (decision 0011): its credential's when it authenticated (a user's
 * or payment gate's key by id, however the header spelled it; a webhook by its provider), else its
 * client address. A commerce key is publishable and sent by every shopper's browser, so those
 * requests count by address too.
 */
export function allowanceKey(request: FastifyRequest): string {
  const caller = request.caller;
  switch (caller.kind) {
    case 'user':
      return `key:${caller.apiKeyId}`;
    case 'paygate':
      return `paygate:${caller.keyId}`;
    case 'webhook':
      return `webhook:${caller.provider}:${caller.organizationId}`;
    case 'commerce':
    case 'anonymous':
      return `address:${clientAddress(request)}`;
  }
}

/**
 * The allowance a request spends by its caller (`allowanceKey`): a payment-gate key's is the larger
 * `paygateMax`, since a merchant's resource server asks the gate about each request it receives; every
 * other caller's is `max`.
 */
export function perCallerAllowance(app: FastifyInstance, max: number, paygateMax: number): Allowance {
  const byCaller = allowance(app, max, allowanceKey);
  const byPaygateKey = allowance(app, paygateMax, allowanceKey);
  return (request) => (request.caller.kind === 'paygate' ? byPaygateKey(request) : byCaller(request));
}

/**
 * The allowance of the commerce key a request authenticated with (decision 0018): the whole shop's, spent
 * besides its address's. Other requests spend nothing here.
 */
export function commerceKeyAllowance(app: FastifyInstance, max: number): Allowance {
  const spend = allowance(app, max, (request) => (request.caller.kind === 'commerce' ? `commerce:${request.caller.organizationId}` : ''));
  return (request) => (request.caller.kind === 'commerce' ? spend(request) : Promise.resolve());
}

/** An allowance of `max` requests a minute per key, on @fastify/rate-limit's store. */
export function allowance(app: FastifyInstance, max: number, key: (request: FastifyRequest) => string): Allowance {
  // `cache` sizes this limit's store; the plugin reads it from these options though its types leave it out.
  const options = { max, timeWindow: MINUTE, keyGenerator: key, cache: REMEMBERED };
  const spend = app.createRateLimit(options);
  return async (request) => {
    const result = await spend(request);
    if (result.isAllowed || !result.isExceeded) return;
    throw rateLimited(result.max, result.ttlInSeconds);
  };
}

export function rateLimited(max: number, retryAfterSeconds: number): AppError {
  const seconds = Math.max(1, retryAfterSeconds);
  return new AppError('rate_limited', `Too many requests: at most ${max} a minute. Retry after ${seconds} s.`, {
    retry_after_seconds: seconds,
  });
}
