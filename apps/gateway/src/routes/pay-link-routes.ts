import { rpcRoute } from '../contract/rpc-route.js';
import type { GatewayDeps } from '../deps.js';
import { answerOrigin, rebasePaymentLinks } from '../origin/answer-origin.js';
import { order } from '../orders/order-answers.js';
import { qrQuery } from '../orders/order-input.js';
import { orderView } from '../orders/order-view.js';
import { openPayLinkOrder } from '../pay-links/open-pay-link-order.js';
import { PAY_LINK_QR_FILES, publicPayLink, publicPayLinkJson } from '../pay-links/pay-link-answers.js';
import { openPayLinkOrderBody, openPayLinkOrderExample, orgPayLinkParams, payLinkParams } from '../pay-links/pay-link-input.js';
import { orgParams } from '../identity/organization-fields.js';
import { clientAddress } from '../plugins/rate-limits.js';
import { pageQuery } from './pagination.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions } from './service-call.js';

/**
 * Pay links, served by pos (decision 0015, "Pay links"): staff make, list and disable them; anyone with
 * the link reads its signed terms, its QR, and opens an order for it, each public route under its own
 * per-address limit (an opening takes a rate and holds a receiving output of the merchant's wallet).
 */
export function payLinkRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const publicUrl = deps.config.CTK_PUBLIC_URL;
  const publicLimit = deps.config.CTK_PAY_LINK_RATE_LIMIT_PER_MINUTE;
  const withPublicUrl = { fields: ['public_url'], from: () => ({ publicUrl }) };
  return {
    'POST /api/v1/orgs/:handle/pay-links': rpcRoute(deps.services, {
      rpc: ['pos', 'createPayLink'],
      params: orgParams,
      body: true,
      fill: {
        fields: ['public_url', 'created_by'],
        from: ({ request }) => ({ publicUrl, createdBy: request.caller.kind === 'user' ? request.caller.userId : '' }),
      },
      creates: true,
      status: 201,
      answer: 'pay_link',
    }),
    'GET /api/v1/orgs/:handle/pay-links': rpcRoute(deps.services, {
      rpc: ['pos', 'listPayLinks'],
      params: orgParams,
      query: pageQuery,
      fill: withPublicUrl,
      answer: { page: 'pay_links' },
    }),
    'POST /api/v1/orgs/:handle/pay-links/:id/disable': rpcRoute(deps.services, {
      rpc: ['pos', 'disablePayLink'],
      params: orgPayLinkParams,
      fill: withPublicUrl,
      answer: 'pay_link',
    }),
    'GET /api/v1/pay-links/:id': route({
      rateLimitPerMinute: publicLimit,
      params: payLinkParams,
      answer: publicPayLink,
      handle: async ({ params, request }) =>
        publicPayLinkJson((await deps.services.pos.getPayLink({ id: params.id, publicUrl }, callOptions(request))).payLink),
    }),
    'POST /api/v1/pay-links/:id/orders': route({
      rateLimitPerMinute: publicLimit,
      params: payLinkParams,
      body: openPayLinkOrderBody,
      bodyExample: openPayLinkOrderExample,
      // A payer's retry with the same Idempotency-Key gets the same order, not another counted against what one address may hold.
      creates: true,
      status: 201,
      answer: order,
      errors: ['not_found', 'pay_link_closed', 'failed_precondition', 'rate_limited', 'unavailable'],
      handle: async ({ params, body, request }) => {
        const view = orderView(
          await openPayLinkOrder(
            deps,
            { id: params.id, amountMinor: BigInt(body.amount_minor ?? 0), clientAddress: clientAddress(request) },
            callOptions(request),
          ),
        );
        // Made under CTK_PUBLIC_URL, which pos keeps; the payer's answer links to the origin they reached.
        return rebasePaymentLinks(view, publicUrl, answerOrigin(request, publicUrl));
      },
    }),
    'GET /api/v1/pay-links/:id/qr': route({
      rateLimitPerMinute: publicLimit,
      params: payLinkParams,
      query: qrQuery,
      answer: publicPayLink,
      files: PAY_LINK_QR_FILES,
      handle: async ({ params, query, request, reply }) => {
        const qr = await deps.services.pos.getPayLinkQr({ id: params.id, publicUrl, format: query.format }, callOptions(request));
        reply.type(qr.contentType);
        return qr.contentType.startsWith('image/svg') ? Buffer.from(qr.body).toString('utf8') : (qr.body as never);
      },
    }),
  };
}
