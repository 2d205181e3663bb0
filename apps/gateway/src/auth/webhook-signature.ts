import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError, isUniqueViolation } from '@ctk/shared';
import type { FastifyRequest } from 'fastify';
import type { PrismaClient } from '../data/prisma.js';
import type { WebhookProvider } from './types.js';

export const SIGNATURE_HEADER = 'x-ctk-signature';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, the scheme of Stripe-style webhooks. */
export function signWebhook(secret: string, rawBody: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${hmac(secret, `${timestamp}.${rawBody}`)}`;
}

export type WebhookVerifier = { verify(request: FastifyRequest): Promise<WebhookProvider> };

/**
 * Verifies a provider's signature over the raw body and timestamp, within the tolerance window,
 * and refuses a signature seen before (a replay), recording each accepted one in the database.
 */
export function webhookVerifier(options: {
  prisma: PrismaClient;
  secrets: Record<WebhookProvider, string | undefined>;
  toleranceSeconds: number;
}): WebhookVerifier {
  return {
    async verify(request) {
      const provider = providerOf(request.url);
      const secret = options.secrets[provider];
      if (!secret) throw new AppError('unavailable', `Webhooks from ${provider} are not configured on this instance.`);
      const { timestamp, signatures } = parseHeader(request.headers[SIGNATURE_HEADER]);
      const age = Math.abs(Date.now() / 1000 - timestamp);
      if (age > options.toleranceSeconds)
        throw new AppError('invalid_signature', `Signature timestamp is outside the ${options.toleranceSeconds}s tolerance window.`);
      const expected = Buffer.from(hmac(secret, `${timestamp}.${request.rawBody ?? ''}`), 'hex');
      const match = signatures.find((s) => s.length === expected.length && timingSafeEqual(s, expected));
      if (!match) throw new AppError('invalid_signature', 'Webhook signature does not match the body.');
      try {
        await options.prisma.webhookDelivery.create({ data: { provider, signature: match.toString('hex') } });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('invalid_signature', 'This webhook delivery was already received (replay).');
        throw error;
      }
      return provider;
    },
  };
}

function providerOf(url: string): WebhookProvider {
  return url.startsWith('/api/webhooks/card-provider') ? 'card-provider' : 'wallet-provider';
}

function parseHeader(header: string | string[] | undefined): { timestamp: number; signatures: Buffer[] } {
  if (typeof header !== 'string') throw new AppError('invalid_signature', `Missing ${SIGNATURE_HEADER} header.`);
  let timestamp = Number.NaN;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const [name, value = ''] = part.trim().split('=', 2);
    if (name === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (name === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  if (!Number.isFinite(timestamp) || signatures.length === 0) {
    throw new AppError('invalid_signature', `Malformed ${SIGNATURE_HEADER} header: expected t=<unix seconds>,v1=<hex HMAC-SHA256>.`);
  }
  return { timestamp, signatures };
}

function hmac(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}
