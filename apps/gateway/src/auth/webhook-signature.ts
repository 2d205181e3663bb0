import { AppError, invalidInput } from '@ctk/shared';
import type { FastifyRequest } from 'fastify';
import { handleProblem } from '../identity/organization-fields.js';
import type { Credentials } from './credentials.js';
import type { OrgContext, WebhookProvider } from './types.js';

/**
 * The header each provider signs its deliveries with (docs/decisions/0019-provider-payments.md):
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>." and the raw body>`, one or more v1.
 */
export const SIGNATURE_HEADERS: Record<WebhookProvider, string> = {
  'card-provider': 'stripe-signature',
  'wallet-provider': 'x-wallet-provider-signature',
};

export type WebhookDelivery = { provider: WebhookProvider; org: Omit<OrgContext, 'role'>; signature: string };
export type WebhookVerifier = { verify(request: FastifyRequest): Promise<WebhookDelivery> };

/**
 * The gateway's half of a webhook's authentication: the provider's signature header is there and the
 * organisation the URL names (`?org=<handle>`) exists. The signature itself is checked by commerce, which
 * holds the organisation's secret, over the raw body the gateway passes on unchanged.
 */
export function webhookVerifier(options: { credentials: Credentials }): WebhookVerifier {
  return {
    async verify(request) {
      const provider = providerOf(request.url);
      const header = request.headers[SIGNATURE_HEADERS[provider]];
      if (typeof header !== 'string' || header.trim() === '') {
        throw new AppError('invalid_signature', `Missing ${displayName(provider)} header: the ${provider} signs every delivery.`);
      }
      const handle = (request.query as Record<string, unknown> | undefined)?.org;
      if (typeof handle !== 'string' || handle === '') {
        throw invalidInput([{ field: 'org', message: 'name the organisation in the webhook URL: ?org=<handle>' }], 'query');
      }
      const problem = handleProblem(handle);
      if (problem) throw invalidInput([{ field: 'org', message: problem }], 'query');
      const org = await options.credentials.org(handle);
      if (!org) throw new AppError('not_found', `No organisation with handle "${handle}".`);
      return { provider, org, signature: header };
    },
  };
}

export function displayName(provider: WebhookProvider): string {
  return provider === 'card-provider' ? 'Stripe-Signature' : 'X-Wallet-Provider-Signature';
}

function providerOf(url: string): WebhookProvider {
  return url.startsWith('/api/webhooks/card-provider') ? 'card-provider' : 'wallet-provider';
}
