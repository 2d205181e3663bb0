import { AppError } from '@ctk/shared';
import { messageDesc } from '../contract/contract-registry.js';
import { rpcParams } from '../contract/request-params.js';
import type { GatewayDeps } from '../deps.js';
import { qrAnswer, qrByteFiles } from './qr-answer.js';
import { route, type RouteDefinition } from './route-definition.js';
import { shopperCheckout } from './commerce-routes.js';
import { callOptions } from './service-call.js';

/** The ticket's QR code: bytes only (no JSON), like a wallet pass. */
const CREATE = messageDesc('ctk.commerce.v1.CreateTicketCheckoutRequest');
const CHECKOUT = messageDesc('ctk.commerce.v1.CommerceTicketCheckout');

/**
 * Tickets (decision 0020), served by commerce, by hand: a shopper's checkout with the commerce key (each
 * line's ticket type beside pos's order), and a ticket's code (in any case) as a public QR code. The
 * catalog, the orders, the list and the check-in are declared in the contract.
 */
export function ticketRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const commerce = deps.services.commerce;
  return {
    // As a checkout, holding seats too; pos keeps the lines' order: each is the ticket type asked for on that line.
    'POST /api/v1/commerce/:merchant_handle/tickets/checkout': shopperCheckout(
      deps,
      CREATE,
      CHECKOUT,
      ['sold_out', 'failed_precondition'],
      (request, options) => commerce.createTicketCheckout(request, options),
      (body, checkout) => {
        const asked = (body as { lines: { ticket_type_id: string }[] }).lines;
        const lines = checkout?.order?.lines ?? [];
        if (lines.length !== asked.length) throw new AppError('internal', 'commerce answered another number of lines than asked for');
        return lines.map((line, index) => ({ ...line, ticketTypeId: asked[index]!.ticket_type_id }));
      },
    ),
    'GET /api/v1/tickets/:code/qr': route({
      params: rpcParams(['commerce', 'getTicketQr'], ['code'], 'path'),
      query: rpcParams(['commerce', 'getTicketQr'], ['format'], 'query'),
      files: qrByteFiles('the ticket’s code'),
      errors: ['not_found'],
      handle: async ({ params, query, request, reply }) => {
        const qr = await commerce.getTicketQr({ code: params.code, format: query.format ?? '' }, callOptions(request));
        reply.header('cache-control', 'private, max-age=3600');
        return qrAnswer(reply, qr);
      },
    }),
  };
}
