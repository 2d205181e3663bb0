import { z } from 'zod';
import { requireOrg } from '../auth/authenticate.js';
import { checkoutAnswer } from '../commerce/checkout-answer.js';
import { getMerchantProfile } from '../commerce/get-merchant-profile.js';
import { commentOf, exampleOf, messageDesc } from '../contract/contract-registry.js';
import { fromJson } from '../contract/json-mapping.js';
import { messageAnswer } from '../contract/message-answer.js';
import { messageSchema } from '../contract/message-schema.js';
import { rpcParams } from '../contract/request-params.js';
import type { GatewayDeps } from '../deps.js';
import { merchantParams } from '../identity/organization-fields.js';
import { answerOrigin, rebasePaymentLinks } from '../origin/answer-origin.js';
import { clientAddress } from '../plugins/rate-limits.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions, orgRef } from './service-call.js';

const MERCHANT = messageAnswer('ctk.commerce.v1.CommerceMerchant');
const CREATE = messageDesc('ctk.commerce.v1.CreateCheckoutRequest');
const CHECKOUT = messageDesc('ctk.commerce.v1.CommerceCheckout');
const STATUS = messageDesc('ctk.commerce.v1.CommerceCheckoutStatus');

/** The status's schema: `tickets` only for a ticket checkout, so an item checkout's status has no such key. */
const statusSchema = (() => {
  const status = messageSchema(STATUS, 'answer') as z.ZodObject;
  return status
    .extend({ tickets: status.shape.tickets!.optional() })
    .describe(commentOf(STATUS)!)
    .meta({ id: STATUS.name, examples: [exampleOf(STATUS)] });
})();

/**
 * The Commerce API (spec 4.13, decision 0018), behind the merchant's commerce key (the gateway resolved
 * its organisation and checked it is the path's), by hand: the profile (with the gateway's facts) and
 * checkouts, whose answer is the contract's view of the checkout and its order side by side
 * (commerce/checkout-answer.ts), under the origin the shopper reached. The catalog is declared in the contract.
 */
export function commerceRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const publicUrl = deps.config.CTK_PUBLIC_URL;
  const commerce = deps.services.commerce;
  return {
    'GET /api/v1/commerce/:merchant_handle': route({
      params: merchantParams,
      answer: MERCHANT.schema,
      handle: async ({ request }) => MERCHANT.json(await getMerchantProfile(deps, requireOrg(request), callOptions(request))),
    }),
    'POST /api/v1/commerce/:merchant_handle/checkout': route({
      // Each checkout takes a rate and holds a receiving output of the merchant's wallet until it expires.
      rateLimitPerMinute: deps.config.CTK_CHECKOUT_RATE_LIMIT_PER_MINUTE,
      params: merchantParams,
      body: messageSchema(CREATE, 'request', ['org']),
      bodyExample: exampleOf(CREATE) as never,
      // A shopper's retry with the same Idempotency-Key gets the same checkout, not a second held output.
      creates: true,
      status: 201,
      answer: messageSchema(CHECKOUT, 'answer'),
      errors: ['failed_precondition', 'unavailable'],
      handle: async ({ body, request }) => {
        const response = await commerce.createCheckout(
          {
            ...fromJson(CREATE, body as Record<string, unknown>),
            org: orgRef(requireOrg(request)),
            publicUrl,
            clientAddress: clientAddress(request),
          },
          // pos prices the order, takes the rate and has p2p hold an output: a few calls behind this one.
          { ...callOptions(request), timeoutMs: 15_000 },
        );
        // Stored under CTK_PUBLIC_URL; the shopper's answer links to the origin their page reached (answerOrigin).
        const origin = answerOrigin(request, publicUrl);
        return rebasePaymentLinks(checkoutAnswer(CHECKOUT, response.checkout, origin) as never, publicUrl, origin);
      },
    }),
    'GET /api/v1/commerce/:merchant_handle/checkout/:public_token/status': route({
      params: rpcParams(['commerce', 'getCheckout'], [merchantParams, 'public_token'], 'path'),
      answer: statusSchema,
      errors: ['not_found'],
      handle: async ({ params, request }) => {
        // A read: the links of the answer (a ticket's QR code) are under the origin the browser reached.
        const origin = answerOrigin(request, publicUrl);
        const { checkout } = await commerce.getCheckout(
          { org: orgRef(requireOrg(request)), publicToken: params.public_token, publicUrl: origin },
          callOptions(request),
        );
        const { tickets, ...status } = checkoutAnswer(STATUS, checkout, origin);
        return checkout!.kind === 'tickets' ? { ...status, tickets } : status;
      },
    }),
  };
}
