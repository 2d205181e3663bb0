import { exampleOf, messageDesc } from '../contract/contract-registry.js';
import { messageSchema } from '../contract/message-schema.js';
import { rpcParams } from '../contract/request-params.js';
import type { GatewayDeps } from '../deps.js';
import { answerOrigin, rebasePaymentLinks } from '../origin/answer-origin.js';
import { order, orderView } from '../orders/order-answers.js';
import { openPayLinkOrder } from '../pay-links/open-pay-link-order.js';
import { clientAddress } from '../plugins/rate-limits.js';
import { qrAnswer, qrFiles } from './qr-answer.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions } from './service-call.js';

const PUBLIC_PAY_LINK = messageDesc('ctk.pos.v1.PublicPayLink');
const OPEN = messageDesc('ctk.pos.v1.OpenPayLinkOrderRequest');

/**
 * Pay links, served by pos (decision 0015, "Pay links"), by hand: anyone with the link opens an order for
 * it (an order as the order routes answer it) or reads its QR, each under the links' per-address limit (an
 * opening takes a rate and holds a receiving output of the merchant's wallet). The others are declared in the contract.
 */
export function payLinkRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const publicUrl = deps.config.CTK_PUBLIC_URL;
  const publicLimit = deps.config.CTK_PAY_LINK_RATE_LIMIT_PER_MINUTE;
  return {
    'POST /api/v1/pay-links/:id/orders': route({
      rateLimitPerMinute: publicLimit,
      params: rpcParams(['pos', 'openPayLinkOrder'], ['id'], 'path'),
      body: messageSchema(OPEN, 'request', ['org', 'id', 'public_url', 'client_address']),
      bodyExample: exampleOf(OPEN) as never,
      // A payer's retry with the same Idempotency-Key gets the same order, not another counted against what one address may hold.
      creates: true,
      status: 201,
      answer: order,
      errors: ['not_found', 'pay_link_closed', 'failed_precondition', 'rate_limited', 'unavailable'],
      handle: async ({ params, body, request }) => {
        const amountMinor = BigInt((body as { amount_minor?: number }).amount_minor ?? 0);
        const opened = await openPayLinkOrder(
          deps,
          { id: params.id, amountMinor, clientAddress: clientAddress(request) },
          callOptions(request),
        );
        // Made under CTK_PUBLIC_URL, which pos keeps; the payer's answer links to the origin they reached.
        return rebasePaymentLinks(orderView(opened), publicUrl, answerOrigin(request, publicUrl));
      },
    }),
    'GET /api/v1/pay-links/:id/qr': route({
      rateLimitPerMinute: publicLimit,
      params: rpcParams(['pos', 'getPayLinkQr'], ['id'], 'path'),
      query: rpcParams(['pos', 'getPayLinkQr'], ['format'], 'query'),
      answer: messageSchema(PUBLIC_PAY_LINK, 'answer'),
      files: qrFiles('the link’s public page URL', 45),
      handle: async ({ params, query, request, reply }) =>
        qrAnswer(
          reply,
          await deps.services.pos.getPayLinkQr({ id: params.id, publicUrl, format: query.format ?? '' }, callOptions(request)),
        ),
    }),
  };
}
