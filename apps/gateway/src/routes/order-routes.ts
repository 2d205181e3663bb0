import type { Order } from '@ctk/proto/ctk/pos/v1/pos';
import { rpcParams } from '../contract/request-params.js';
import type { GatewayDeps } from '../deps.js';
import { EventStreamSlots } from '../orders/event-stream-slots.js';
import { openOrderEvents } from '../orders/order-events.js';
import { orderMerchant, type OrderMerchant } from '../orders/order-merchant.js';
import { order, ORDER_EVENT_FILES, orderView } from '../orders/order-answers.js';
import { answerOrigin } from '../origin/answer-origin.js';
import { clientAddress } from '../plugins/rate-limits.js';
import { qrAnswer, qrFiles } from './qr-answer.js';
import { bip270Payment } from './bip270-payment.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions } from './service-call.js';

/** How long an order's event stream may stay open: its time to pay and then some; the page reconnects after. */
const EVENTS_TIMEOUT_MS = 30 * 60_000;

/**
 * The states after which the Buy button reads its checkout's status, once (apps/gateway/embed): commerce records
 * the order's state before the stream sends one of these (decision 0055). When commerce cannot be asked, the
 * state is sent all the same: the order's own page needs no commerce, and the Buy button's status read, failing
 * too, shows the stream's state.
 */
const STATUS_READ_AFTER = new Set(['paid', 'confirmed', 'expired', 'cancelled', 'paid_elsewhere']);

/**
 * Orders at the counter, served by pos (decision 0015), by hand: the customer's BIP270 payment, QR and
 * event stream (public by order number), and the merchant's BIP270 payment of a refund (decision 0033).
 * Creating, pricing, reading, confirming, cancelling and refunding an order are declared in the contract.
 */
export function orderRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const publicUrl = deps.config.CTK_PUBLIC_URL;
  const eventStreams = new EventStreamSlots(deps.config.CTK_ORDER_EVENT_STREAMS_PER_ADDRESS);

  return {
    'POST /api/pos/orders/:order_number/payment': bip270Payment(['pos', 'payOrder'], 'order_number', (orderNumber, payment, call) =>
      deps.services.pos.payOrder({ orderNumber, ...payment }, call),
    ),
    // The merchant's wallet pays a refund as a customer's pays an order.
    'POST /api/pos/refunds/:refund_id/payment': bip270Payment(['pos', 'payRefund'], 'refund_id', (refundId, payment, call) =>
      deps.services.pos.payRefund({ refundId, ...payment }, call),
    ),
    'GET /api/pos/orders/:order_number/qr': route({
      params: rpcParams(['pos', 'getOrderQr'], ['order_number'], 'path'),
      query: rpcParams(['pos', 'getOrderQr'], ['format'], 'query'),
      answer: order,
      files: qrFiles('the order’s BIP21 URI', 41),
      handle: async ({ params, query, request, reply }) => {
        const qr = { orderNumber: params.order_number, publicUrl: answerOrigin(request, publicUrl), format: query.format ?? '' };
        return qrAnswer(reply, await deps.services.pos.getOrderQr(qr, callOptions(request)));
      },
    }),
    'GET /api/pos/orders/:order_number/events': route({
      params: rpcParams(['pos', 'watchOrder'], ['order_number'], 'path'),
      answer: order,
      files: ORDER_EVENT_FILES,
      handle: async ({ params, request, reply }) => {
        // Read only: the links of each event are under this caller's origin; each event is the order as the route answers it.
        const origin = answerOrigin(request, publicUrl);
        let merchant: OrderMerchant | undefined;
        const view = async (watched: Order | undefined) => {
          const json = orderView(watched);
          if (STATUS_READ_AFTER.has(String(json.status))) {
            await deps.services.commerce.followOrder({ orderNumber: params.order_number }, callOptions(request)).catch((error: unknown) => {
              request.log.warn(
                { err: error, orderNumber: params.order_number },
                'commerce could not record the order before its stream sent it',
              );
            });
          }
          merchant ??= await orderMerchant(deps, json.merchant_handle);
          return { ...json, ...merchant };
        };
        const events = await eventStreams.openIn(clientAddress(request), () =>
          openOrderEvents(
            deps.services.pos.watchOrder(
              { orderNumber: params.order_number, publicUrl: origin },
              { ...callOptions(request), timeoutMs: EVENTS_TIMEOUT_MS },
            ),
            { view },
          ),
        );
        reply.type('text/event-stream').header('cache-control', 'no-cache').header('x-accel-buffering', 'no');
        return events;
      },
    }),
  };
}
