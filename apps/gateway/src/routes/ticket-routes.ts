import { AppError } from '@ctk/shared';
import { requireOrg } from '../auth/authenticate.js';
import { rpcRoute } from '../contract/rpc-route.js';
import type { GatewayDeps } from '../deps.js';
import { orgParams } from '../identity/organization-fields.js';
import { checkedInTicket, ticketCheckout, ticketList, ticketOrderPage, TICKET_QR_FILES } from '../tickets/ticket-answers.js';
import {
  checkInBody,
  checkInExample,
  merchantParams,
  newTicketCheckout,
  newTicketCheckoutExample,
  ticketQrParams,
  ticketQrQuery,
} from '../tickets/ticket-input.js';
import { issuedTicketView, ticketCheckoutView, ticketListView, ticketOrderView } from '../tickets/ticket-view.js';
import { pageQuery } from './pagination.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions, orgRef } from './service-call.js';
import { clientAddress } from '../plugins/rate-limits.js';
import { answerOrigin, rebasePaymentLinks } from '../origin/answer-origin.js';

/**
 * Tickets (decision 0020), served by commerce: admins replace the ticket catalog and read the ticket
 * orders, a shopper's browser lists the tickets and checks out with the commerce key, staff check a
 * ticket in at the door, and a ticket's code is a public QR code.
 */
export function ticketRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const publicUrl = deps.config.CTK_PUBLIC_URL;
  const commerce = deps.services.commerce;
  return {
    'PUT /api/v1/orgs/:handle/tickets/catalog': rpcRoute(deps.services, {
      rpc: ['commerce', 'replaceTicketCatalog'],
      params: orgParams,
      body: true,
      errors: ['failed_precondition'],
      // Replacements of one catalog run one after another in commerce: one may wait for several before it.
      timeoutMs: 30_000,
    }),
    'GET /api/v1/orgs/:handle/tickets/orders': route({
      params: orgParams,
      query: pageQuery,
      answer: ticketOrderPage,
      handle: async ({ query, request }) => {
        const response = await commerce.listTicketOrders(
          { org: orgRef(requireOrg(request)), limit: query.limit, cursor: query.cursor ?? '' },
          callOptions(request),
        );
        return { data: response.orders.map((order) => ticketOrderView(order, publicUrl)), next_cursor: response.nextCursor || null };
      },
    }),
    'GET /api/v1/commerce/:merchant_handle/tickets': route({
      params: merchantParams,
      answer: ticketList,
      handle: async ({ request }) =>
        ticketListView((await commerce.getTicketList({ org: orgRef(requireOrg(request)) }, callOptions(request))).events),
    }),
    'POST /api/v1/commerce/:merchant_handle/tickets/checkout': route({
      // As a checkout: it takes a rate and holds a receiving output, and seats, until it expires.
      rateLimitPerMinute: deps.config.CTK_CHECKOUT_RATE_LIMIT_PER_MINUTE,
      params: merchantParams,
      body: newTicketCheckout,
      bodyExample: newTicketCheckoutExample,
      creates: true,
      status: 201,
      answer: ticketCheckout,
      errors: ['sold_out', 'failed_precondition'],
      handle: async ({ body, request }) => {
        const lines = body.lines.map((line) => ({ ticketTypeId: line.ticket_type_id, quantity: BigInt(line.quantity) }));
        const response = await commerce.createTicketCheckout(
          // The client address bounds what one shopper holds (decision 0024): commerce owns the rule.
          { org: orgRef(requireOrg(request)), lines, publicUrl, clientAddress: clientAddress(request) },
          { ...callOptions(request), timeoutMs: 15_000 },
        );
        // Stored under CTK_PUBLIC_URL; the shopper's answer links to the origin their page reached, as a checkout's does.
        const origin = answerOrigin(request, publicUrl);
        const view = ticketCheckoutView(
          response.checkout,
          origin,
          body.lines.map((line) => line.ticket_type_id),
        );
        return rebasePaymentLinks(view, publicUrl, origin);
      },
    }),
    'POST /api/v1/orgs/:handle/tickets/check-in': route({
      params: orgParams,
      body: checkInBody,
      bodyExample: checkInExample,
      answer: checkedInTicket,
      errors: ['not_found', 'already_checked_in', 'failed_precondition'],
      handle: async ({ body, request }) => {
        const response = await commerce.checkInTicket({ org: orgRef(requireOrg(request)), code: body.code }, callOptions(request));
        if (!response.ticket) throw new AppError('internal', 'commerce answered without the ticket');
        return issuedTicketView(response.ticket, publicUrl);
      },
    }),
    'GET /api/v1/tickets/:code/qr': route({
      params: ticketQrParams,
      query: ticketQrQuery,
      files: TICKET_QR_FILES,
      errors: ['not_found'],
      handle: async ({ params, query, request, reply }) => {
        const qr = await commerce.getTicketQr({ code: params.code, format: query.format }, callOptions(request));
        reply.type(qr.contentType).header('cache-control', 'private, max-age=3600');
        return qr.contentType.startsWith('image/svg') ? Buffer.from(qr.body).toString('utf8') : (qr.body as never);
      },
    }),
  };
}
