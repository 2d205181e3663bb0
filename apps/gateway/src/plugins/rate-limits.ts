import { AppError } from '@ctk/shared';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

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
 * The allowance a request spends by its caller, after authentication (decision 0011): its credential's
 * (a user's or payment gate's key by id, however the header spelled it; a webhook by its provider), else
 * its client address. A commerce key is publishable and sent by every shopper's browser, so those requests
 * count by address too, and spend the whole shop's allowance besides (decision 0018). A payment-gate key's
 * allowance is the larger one, since a merchant's resource server asks the gate about each request it receives.
 */
export function callerAllowance(app: FastifyInstance, config: Config): Allowance {
  const byCaller = allowance(app, config.CTK_RATE_LIMIT_PER_MINUTE, allowanceKey);
  const byPaygateKey = allowance(app, config.CTK_PAYGATE_KEY_RATE_LIMIT_PER_MINUTE, allowanceKey);
  const byShop = allowance(app, config.CTK_COMMERCE_KEY_RATE_LIMIT_PER_MINUTE, (request) =>
    request.caller.kind === 'commerce' ? `commerce:${request.caller.organizationId}` : '',
  );
  return async (request) => {
    await (request.caller.kind === 'paygate' ? byPaygateKey : byCaller)(request);
    if (request.caller.kind === 'commerce') await byShop(request);
  };
}

function allowanceKey(request: FastifyRequest): string {
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
