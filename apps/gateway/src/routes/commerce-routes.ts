import type { DescMessage } from '@bufbuild/protobuf';
import type { Checkout } from '@ctk/proto/ctk/commerce/v1/commerce';
import type { CallOptions, ErrorCode } from '@ctk/shared';
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
    'POST /api/v1/commerce/:merchant_handle/checkout': shopperCheckout(
      deps,
      CREATE,
      CHECKOUT,
      ['failed_precondition', 'unavailable'],
      (request, options) => commerce.createCheckout(request, options),
    ),
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

/**
 * A shopper's checkout (of items, or tickets) as `view` shows it: commerce prices it with pos, takes a rate
 * and has p2p hold an output until it expires (a few calls behind this one), and the client address bounds
 * what one shopper holds (decision 0024). A retry with the same Idempotency-Key gets the same checkout, not a
 * second held output. Stored under CTK_PUBLIC_URL, the answer links to the origin the shopper's page reached.
 * `lines` stand for the order's where the route knows more of them.
 */
export function shopperCheckout(
  deps: GatewayDeps,
  create: DescMessage,
  view: DescMessage,
  errors: ErrorCode[],
  call: (request: never, options: CallOptions) => Promise<{ checkout?: Checkout | undefined }>,
  lines: (body: Record<string, unknown>, checkout: Checkout | undefined) => object[] | undefined = () => undefined,
): RouteDefinition {
  const publicUrl = deps.config.CTK_PUBLIC_URL;
  return route({
    rateLimitPerMinute: deps.config.CTK_CHECKOUT_RATE_LIMIT_PER_MINUTE,
    params: merchantParams,
    body: messageSchema(create, 'request', ['org']),
    bodyExample: exampleOf(create) as never,
    creates: true,
    status: 201,
    answer: messageSchema(view, 'answer'),
    errors,
    handle: async ({ body, request }) => {
      const fields = { ...fromJson(create, body as Record<string, unknown>), org: orgRef(requireOrg(request)), publicUrl };
      const { checkout } = await call({ ...fields, clientAddress: clientAddress(request) } as never, {
        ...callOptions(request),
        timeoutMs: 15_000,
      });
      const origin = answerOrigin(request, publicUrl);
      return rebasePaymentLinks(checkoutAnswer(view, checkout, origin, lines(body as never, checkout)) as never, publicUrl, origin);
    },
  });
}
