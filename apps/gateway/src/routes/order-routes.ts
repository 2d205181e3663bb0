import { requireOrg } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import { order, ORDER_EVENT_FILES, ORDER_QR_FILES, paymentAck, paymentRequest } from '../orders/order-answers.js';
import { openOrderEvents } from '../orders/order-events.js';
import { EventStreamSlots } from '../orders/event-stream-slots.js';
import { clientAddress } from '../plugins/rate-limits.js';
import {
  bip270Payment,
  bip270PaymentExample,
  cancelOrderBody,
  cancelOrderExample,
  confirmOrderBody,
  confirmOrderExample,
  newOrder,
  newOrderExample,
  orderParams,
  qrQuery,
} from '../orders/order-input.js';
import { orderView, paymentRequestView } from '../orders/order-view.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions, orgRef } from './service-call.js';

/** How long an order's event stream may stay open: its time to pay and then some; the page reconnects after. */
const EVENTS_TIMEOUT_MS = 30 * 60_000;

/**
 * Orders at the counter, served by pos (decision 0015): staff create, confirm and cancel them (the
 * organisation is `org_handle` in the body); the customer's side (the order, its BIP270 request and
 * payment, its QR and its events) is public by order number.
 */
export function orderRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const publicUrl = deps.config.CTK_PUBLIC_URL;
  const eventStreams = new EventStreamSlots(deps.config.CTK_ORDER_EVENT_STREAMS_PER_ADDRESS);
  return {
    'POST /api/pos/orders': route({
      body: newOrder,
      bodyExample: newOrderExample,
      creates: true,
      status: 201,
      answer: order,
      // failed_precondition: no wallet registered, or every receiving address awaits a payment (decision 0022).
      errors: ['failed_precondition'],
      handle: async ({ body, request }) => {
        const response = await deps.services.pos.createOrder(
          {
            org: orgRef(requireOrg(request)),
            lines: body.lines.map((line) => ({
              itemId: line.item_id ?? '',
              quantity: BigInt(line.quantity),
              modifiers: (line.modifiers ?? []).map((modifier) => ({ modifierId: modifier.modifier_id })),
              name: line.name ?? '',
              unitPriceMinor: BigInt(line.unit_price_minor ?? 0),
              chosenPriceMinor: BigInt(line.chosen_price_minor ?? 0),
            })),
            discountBasisPoints: body.discount_basis_points ?? 0,
            discountMinor: BigInt(body.discount_minor ?? 0),
            tipBasisPoints: body.tip_basis_points ?? 0,
            tipMinor: BigInt(body.tip_minor ?? 0),
            currency: body.currency ?? '',
            publicUrl,
            createdBy: request.caller.kind === 'user' ? request.caller.userId : '',
            note: body.note ?? '',
            loyaltyCardId: body.loyalty_card_id ?? '',
            // A counter order, created with a key: it may use the addresses kept for staff (decision 0022).
            staff: true,
          },
          callOptions(request),
        );
        return orderView(response.order);
      },
    }),
    'GET /api/pos/orders/:order_number': route({
      params: orderParams,
      answer: order,
      handle: async ({ params, request, reply }) => {
        // The order changes as it is paid: never from a shared cache.
        reply.header('cache-control', 'no-store');
        return orderView((await deps.services.pos.getOrder({ orderNumber: params.order_number, publicUrl }, callOptions(request))).order);
      },
    }),
    'POST /api/pos/orders/:order_number/confirm': route({
      params: orderParams,
      body: confirmOrderBody,
      bodyExample: confirmOrderExample,
      answer: order,
      handle: async ({ params, body, request }) => {
        const response = await deps.services.pos.confirmOrder(
          { org: orgRef(requireOrg(request)), orderNumber: params.order_number, txid: body.txid, publicUrl },
          // Finding the transaction on the chain may take a few seconds.
          { ...callOptions(request), timeoutMs: 30_000 },
        );
        return orderView(response.order);
      },
    }),
    'POST /api/pos/orders/:order_number/cancel': route({
      params: orderParams,
      body: cancelOrderBody,
      bodyExample: cancelOrderExample,
      answer: order,
      handle: async ({ params, request }) => {
        const response = await deps.services.pos.cancelOrder(
          { org: orgRef(requireOrg(request)), orderNumber: params.order_number, publicUrl },
          callOptions(request),
        );
        return orderView(response.order);
      },
    }),
    'GET /api/pos/orders/:order_number/payment-request': route({
      params: orderParams,
      answer: paymentRequest,
      handle: async ({ params, request, reply }) => {
        // What is due changes with each payment.
        reply.header('cache-control', 'no-store');
        return paymentRequestView(
          await deps.services.pos.getPaymentRequest({ orderNumber: params.order_number, publicUrl }, callOptions(request)),
        );
      },
    }),
    'POST /api/pos/orders/:order_number/payment': route({
      params: orderParams,
      body: bip270Payment,
      bodyExample: bip270PaymentExample,
      answer: paymentAck,
      handle: async ({ params, body, request }) => {
        const ack = await deps.services.pos.payOrder(
          {
            orderNumber: params.order_number,
            transaction: body.transaction,
            merchantData: body.merchantData ?? '',
            memo: body.memo ?? '',
            refundTo: body.refundTo ?? '',
          },
          // Verifying and broadcasting the transaction may take a few seconds.
          { ...callOptions(request), timeoutMs: 30_000 },
        );
        return { payment: body, memo: ack.memo, error: ack.error };
      },
    }),
    'GET /api/pos/orders/:order_number/qr': route({
      params: orderParams,
      query: qrQuery,
      answer: order,
      files: ORDER_QR_FILES,
      handle: async ({ params, query, request, reply }) => {
        const qr = await deps.services.pos.getOrderQr(
          { orderNumber: params.order_number, publicUrl, format: query.format },
          callOptions(request),
        );
        reply.type(qr.contentType);
        return qr.contentType.startsWith('image/svg') ? Buffer.from(qr.body).toString('utf8') : (qr.body as never);
      },
    }),
    'GET /api/pos/orders/:order_number/events': route({
      params: orderParams,
      answer: order,
      files: ORDER_EVENT_FILES,
      handle: async ({ params, request, reply }) => {
        const events = await eventStreams.openIn(clientAddress(request), () =>
          openOrderEvents(
            deps.services.pos.watchOrder(
              { orderNumber: params.order_number, publicUrl },
              { ...callOptions(request), timeoutMs: EVENTS_TIMEOUT_MS },
            ),
          ),
        );
        reply.type('text/event-stream').header('cache-control', 'no-cache').header('x-accel-buffering', 'no');
        return events;
      },
    }),
  };
}
