import { AppError } from '@ctk/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireOrg } from '../auth/authenticate.js';
import type { WebhookProvider } from '../auth/types.js';
import type { GatewayDeps } from '../deps.js';
import { exampleOf, messageDesc } from '../contract/contract-registry.js';
import { toJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import {
  cardProviderEvent,
  cardProviderEventExample,
  walletProviderEvent,
  walletProviderEventExample,
  webhookQuery,
} from '../providers/provider-input.js';
import { named } from './answer-schema.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions, orgRef } from './service-call.js';

const RECEIVED = messageDesc('ctk.commerce.v1.ReceiveProviderEventResponse');

/** commerce's answer to an event, in the contract's JSON, said to be received. */
const webhookReceipt = named(
  'WebhookReceipt',
  z.object({ received: z.literal(true) }).extend((messageSchema(RECEIVED, 'answer') as z.ZodObject).shape),
  { received: true, ...(exampleOf(RECEIVED) as object) } as never,
);

/**
 * Provider payments (decision 0019), by hand: the two webhooks (spec 4.2), whose signature commerce verifies
 * with the organisation's secret over the raw body passed on here. Setting the secret, the events received
 * and applying a parked one are declared in the contract.
 */
export function providerRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const publicUrl = deps.config.CTK_PUBLIC_URL;
  const commerce = deps.services.commerce;

  const receive = (provider: WebhookProvider) => async (request: FastifyRequest) => {
    const caller = request.caller;
    if (caller.kind !== 'webhook') throw new AppError('internal', 'a webhook route without a webhook caller');
    const received = await commerce.receiveProviderEvent(
      {
        org: orgRef(requireOrg(request)),
        provider,
        payload: request.rawBodyBytes ?? Buffer.alloc(0),
        signature: caller.signature,
        publicUrl,
      },
      callOptions(request),
    );
    return { received: true, ...toJson(RECEIVED, { ...received }) } as never;
  };
  const signatureHeader = (name: string, example: string) => ({ [name]: { description: signatureDoc(name), example, required: true } });

  return {
    'POST /api/webhooks/card-provider': route({
      query: webhookQuery,
      body: cardProviderEvent,
      bodyExample: cardProviderEventExample,
      headers: signatureHeader('Stripe-Signature', `t=1763900000,v1=${'5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd'}`),
      answer: webhookReceipt,
      errors: ['failed_precondition', 'not_found', 'unavailable'],
      handle: ({ request }) => receive('card-provider')(request),
    }),
    'POST /api/webhooks/wallet-provider': route({
      query: webhookQuery,
      body: walletProviderEvent,
      bodyExample: walletProviderEventExample,
      headers: signatureHeader(
        'X-Wallet-Provider-Signature',
        `t=1763900000,v1=${'0b4f3c2a9e8d7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a'}`,
      ),
      answer: webhookReceipt,
      errors: ['failed_precondition', 'not_found', 'unavailable'],
      handle: ({ request }) => receive('wallet-provider')(request),
    }),
  };
}

function signatureDoc(name: string): string {
  return (
    `${name}: t=<unix seconds>,v1=<hex HMAC-SHA256 under the organisation's secret of "<t>." and the raw body>; ` +
    'several v1 may be sent (any one matching is enough); 300 s tolerance'
  );
}
