import { AppError } from '@ctk/shared';
import { requireOrg } from '../auth/authenticate.js';
import { checkoutAnswer } from '../commerce/checkout-answer.js';
import { exampleOf, messageDesc } from '../contract/contract-registry.js';
import { fromJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import { rpcParams } from '../contract/request-params.js';
import type { GatewayDeps } from '../deps.js';
import { merchantParams } from '../identity/organization-fields.js';
import { answerOrigin, rebasePaymentLinks } from '../origin/answer-origin.js';
import { clientAddress } from '../plugins/rate-limits.js';
import { qrAnswer } from './qr-answer.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions, orgRef } from './service-call.js';

/** The ticket's QR code: bytes only (no JSON), like a wallet pass. */
const TICKET_QR_FILES = {
  'image/svg+xml': { description: "The QR code of the ticket's code as SVG", binary: true as const },
  'image/png': { description: 'The same QR code as a PNG image (512 pixels)', binary: true as const },
};

const CREATE = messageDesc('ctk.commerce.v1.CreateTicketCheckoutRequest');
const CHECKOUT = messageDesc('ctk.commerce.v1.CommerceTicketCheckout');

/**
 * Tickets (decision 0020), served by commerce, by hand: a shopper's checkout with the commerce key (each
 * line's ticket type beside pos's order), and a ticket's code (in any case) as a public QR code. The
 * catalog, the orders, the list and the check-in are declared in the contract.
 */
export function ticketRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const publicUrl = deps.config.CTK_PUBLIC_URL;
  const commerce = deps.services.commerce;
  return {
    'POST /api/v1/commerce/:merchant_handle/tickets/checkout': route({
      // As a checkout: it takes a rate and holds a receiving output, and seats, until it expires.
      rateLimitPerMinute: deps.config.CTK_CHECKOUT_RATE_LIMIT_PER_MINUTE,
      params: merchantParams,
      body: messageSchema(CREATE, 'request', ['org']),
      bodyExample: exampleOf(CREATE) as never,
      creates: true,
      status: 201,
      answer: messageSchema(CHECKOUT, 'answer'),
      errors: ['sold_out', 'failed_precondition'],
      handle: async ({ body, request }) => {
        const { checkout } = await commerce.createTicketCheckout(
          // The client address bounds what one shopper holds (decision 0024): commerce owns the rule.
          {
            ...fromJson(CREATE, body as Record<string, unknown>),
            org: orgRef(requireOrg(request)),
            publicUrl,
            clientAddress: clientAddress(request),
          },
          { ...callOptions(request), timeoutMs: 15_000 },
        );
        // pos keeps the lines' order: each is the ticket type asked for on that line.
        const asked = (body as { lines: { ticket_type_id: string }[] }).lines;
        const lines = checkout?.order?.lines ?? [];
        if (lines.length !== asked.length) throw new AppError('internal', 'commerce answered another number of lines than asked for');
        const typed = lines.map((line, index) => ({ ...line, ticketTypeId: asked[index]!.ticket_type_id }));
        // Stored under CTK_PUBLIC_URL; the shopper's answer links to the origin their page reached, as a checkout's does.
        const origin = answerOrigin(request, publicUrl);
        return rebasePaymentLinks(checkoutAnswer(CHECKOUT, checkout, origin, typed) as never, publicUrl, origin);
      },
    }),
    'GET /api/v1/tickets/:code/qr': route({
      params: rpcParams(['commerce', 'getTicketQr'], ['code'], 'path'),
      query: rpcParams(['commerce', 'getTicketQr'], ['format'], 'query'),
      files: TICKET_QR_FILES,
      errors: ['not_found'],
      handle: async ({ params, query, request, reply }) => {
        const qr = await commerce.getTicketQr({ code: params.code, format: query.format ?? '' }, callOptions(request));
        reply.header('cache-control', 'private, max-age=3600');
        return qrAnswer(reply, qr);
      },
    }),
  };
}
