import { requireOrg } from '../auth/authenticate.js';
import { checkoutStatusView, checkoutView } from '../commerce/checkout-view.js';
import { checkout, checkoutStatus, merchantProfile } from '../commerce/commerce-answers.js';
import { catalogItemParams, checkoutStatusParams, merchantParams, newCheckout, newCheckoutExample } from '../commerce/commerce-input.js';
import { getMerchantProfile } from '../commerce/get-merchant-profile.js';
import { rpcRoute } from '../contract/rpc-route.js';
import type { GatewayDeps } from '../deps.js';
import { answerOrigin, rebasePaymentLinks } from '../origin/answer-origin.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions, orgRef } from './service-call.js';

/**
 * The Commerce API (spec 4.13, decision 0018), behind the merchant's commerce key (the gateway resolved
 * its organisation and checked it is the path's): the profile, the catalog and checkouts, served by
 * commerce. The ticket routes are in ticket-routes.ts (decision 0020).
 */
export function commerceRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const publicUrl = deps.config.CTK_PUBLIC_URL;
  const commerce = deps.services.commerce;
  return {
    'GET /api/v1/commerce/:merchant_handle': route({
      params: merchantParams,
      answer: merchantProfile,
      handle: ({ request }) => getMerchantProfile(deps, requireOrg(request), callOptions(request)),
    }),
    'GET /api/v1/commerce/:merchant_handle/catalog': rpcRoute(deps.services, {
      rpc: ['commerce', 'getCatalog'],
      params: merchantParams,
      answer: 'catalog',
    }),
    'GET /api/v1/commerce/:merchant_handle/catalog/:id': rpcRoute(deps.services, {
      rpc: ['commerce', 'getCatalogItem'],
      params: catalogItemParams,
      answer: 'item',
      errors: ['not_found'],
    }),
    'POST /api/v1/commerce/:merchant_handle/checkout': route({
      // Each checkout takes a rate and holds a receiving output of the merchant's wallet until it expires.
      rateLimitPerMinute: deps.config.CTK_CHECKOUT_RATE_LIMIT_PER_MINUTE,
      params: merchantParams,
      body: newCheckout,
      bodyExample: newCheckoutExample,
      // A shopper's retry with the same Idempotency-Key gets the same checkout, not a second held output.
      creates: true,
      status: 201,
      answer: checkout,
      errors: ['failed_precondition', 'unavailable'],
      handle: async ({ body, request }) => {
        const lines = body.lines.map((line) => ({
          itemId: line.item_id,
          quantity: BigInt(line.quantity),
          modifierIds: line.modifier_ids ?? [],
        }));
        const response = await commerce.createCheckout(
          { org: orgRef(requireOrg(request)), lines, publicUrl },
          // pos prices the order, takes the rate and has p2p hold an output: a few calls behind this one.
          { ...callOptions(request), timeoutMs: 15_000 },
        );
        // Stored under CTK_PUBLIC_URL; the shopper's answer links to the origin their page reached (answerOrigin).
        const origin = answerOrigin(request, publicUrl);
        return rebasePaymentLinks(checkoutView(response.checkout, origin), publicUrl, origin);
      },
    }),
    'GET /api/v1/commerce/:merchant_handle/checkout/:public_token/status': route({
      params: checkoutStatusParams,
      answer: checkoutStatus,
      errors: ['not_found'],
      handle: async ({ params, request }) => {
        const response = await commerce.getCheckout(
          { org: orgRef(requireOrg(request)), publicToken: params.public_token, publicUrl },
          callOptions(request),
        );
        return checkoutStatusView(response.checkout, answerOrigin(request, publicUrl));
      },
    }),
  };
}
