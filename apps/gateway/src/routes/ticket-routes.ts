import { z } from 'zod';
import { AppError } from '@ctk/shared';
import { requireOrg } from '../auth/authenticate.js';
import { checkoutAnswer } from '../commerce/checkout-answer.js';
import { exampleOf, messageDesc } from '../contract/contract-registry.js';
import { fromJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import { rpcParams } from '../contract/request-params.js';
import { rpcRoute } from '../contract/rpc-route.js';
import type { GatewayDeps } from '../deps.js';
import { orgParams } from '../identity/organization-fields.js';
import { answerOrigin, rebasePaymentLinks } from '../origin/answer-origin.js';
import { clientAddress } from '../plugins/rate-limits.js';
import { merchantParams } from './commerce-routes.js';
import { pageQuery } from './pagination.js';
import { qrAnswer } from './qr-answer.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions, orgRef } from './service-call.js';

/** A ticket's code in a path or a check-in, in any case: what its QR code shows. */
const ticketCodeField = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[0-9A-HJKMNP-TV-Z]{20}$/, 'must be a ticket code: 20 characters of Crockford base32')
  .describe('The code the ticket answered, as its QR code shows it (any case)');

/** The ticket's QR code: bytes only (no JSON), like a wallet pass. */
const TICKET_QR_FILES = {
  'image/svg+xml': { description: "The QR code of the ticket's code as SVG", binary: true as const },
  'image/png': { description: 'The same QR code as a PNG image (512 pixels)', binary: true as const },
};

const CREATE = messageDesc('ctk.commerce.v1.CreateTicketCheckoutRequest');
const CHECKOUT = messageDesc('ctk.commerce.v1.CommerceTicketCheckout');

/**
 * Tickets (decision 0020), served by commerce: admins replace the ticket catalog and read the ticket
 * orders, a shopper's browser lists the tickets and checks out with the commerce key, staff check a
 * ticket in at the door, and a ticket's code is a public QR code.
 */
export function ticketRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const publicUrl = deps.config.CTK_PUBLIC_URL;
  const commerce = deps.services.commerce;
  /** The tickets' QR codes are under CTK_PUBLIC_URL in the staff's answers. */
  const withPublicUrl = { fields: ['public_url'], from: () => ({ publicUrl }) };
  const checkIn = rpcRoute(deps.services, {
    rpc: ['commerce', 'checkInTicket'],
    params: orgParams,
    body: true,
    fill: withPublicUrl,
    answer: 'ticket',
    errors: ['not_found', 'already_checked_in', 'failed_precondition'],
  });
  return {
    'PUT /api/v1/orgs/:handle/tickets/catalog': rpcRoute(deps.services, {
      rpc: ['commerce', 'replaceTicketCatalog'],
      params: orgParams,
      body: true,
      errors: ['failed_precondition'],
      // Replacements of one catalog run one after another in commerce: one may wait for several before it.
      timeoutMs: 30_000,
    }),
    'GET /api/v1/orgs/:handle/tickets/orders': rpcRoute(deps.services, {
      rpc: ['commerce', 'listTicketOrders'],
      params: orgParams,
      query: pageQuery,
      fill: withPublicUrl,
      answer: { page: 'orders' },
    }),
    'GET /api/v1/commerce/:merchant_handle/tickets': rpcRoute(deps.services, {
      rpc: ['commerce', 'getTicketList'],
      params: merchantParams,
      // What is left to buy, not the capacity nor the sales.
      view: 'ctk.commerce.v1.CommerceTicketList',
    }),
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
    // The code in any case, as staff may type it.
    'POST /api/v1/orgs/:handle/tickets/check-in': { ...checkIn, body: z.object({ code: ticketCodeField }).strict() },
    'GET /api/v1/tickets/:code/qr': route({
      params: z.object({ code: ticketCodeField }),
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
