import { AppError, invalidInput } from '@ctk/shared';
import type { FastifyRequest } from 'fastify';
import { handleProblem } from '../identity/organization-fields.js';
import type { Credentials } from './credentials.js';
import type { OrgContext, WebhookProvider } from './types.js';

/**
 * The header each provider signs its deliveries with (docs/decisions/0019-provider-payments.md):
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>." and the raw body>`, one or more v1.
 */
const SIGNATURE_HEADERS: Record<WebhookProvider, string> = {
  'card-provider': 'Stripe-Signature',
  'wallet-provider': 'X-Wallet-Provider-Signature',
};

/**
 * The gateway's half of a webhook's authentication: the provider's signature header is there and the
 * organisation the URL names (`?org=<handle>`) exists. The signature itself is checked by commerce, which
 * holds the organisation's secret, over the raw body the gateway passes on unchanged.
 */
export async function verifyWebhook(
  request: FastifyRequest,
  credentials: Credentials,
): Promise<{ provider: WebhookProvider; org: Omit<OrgContext, 'role'>; signature: string }> {
  const provider = request.url.startsWith('/api/webhooks/card-provider') ? 'card-provider' : 'wallet-provider';
  const header = request.headers[SIGNATURE_HEADERS[provider].toLowerCase()];
  if (typeof header !== 'string' || header.trim() === '') {
    throw new AppError('invalid_signature', `Missing ${SIGNATURE_HEADERS[provider]} header: the ${provider} signs every delivery.`);
  }
  const handle = (request.query as Record<string, unknown> | undefined)?.org;
  if (typeof handle !== 'string' || handle === '') {
    throw invalidInput([{ field: 'org', message: 'name the organisation in the webhook URL: ?org=<handle>' }], 'query');
  }
  const problem = handleProblem(handle);
  if (problem) throw invalidInput([{ field: 'org', message: problem }], 'query');
  const org = await credentials.org(handle);
  if (!org) throw new AppError('not_found', `No organisation with handle "${handle}".`);
  return { provider, org, signature: header };
}
