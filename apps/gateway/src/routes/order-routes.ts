import { requireOrg } from '../auth/authenticate.js';
import type { GatewayDeps } from '../deps.js';
import type { CreateOrderRequest, Order } from '@ctk/proto/ctk/pos/v1/pos';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { order, orderQuote, ORDER_EVENT_FILES, ORDER_QR_FILES, paymentAck, paymentRequest } from '../orders/order-answers.js';
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
  quoteOrderExample,
} from '../orders/order-input.js';
import { orderMerchant, type OrderMerchant } from '../orders/order-merchant.js';
import { orderQuoteView, orderView, paymentRequestView } from '../orders/order-view.js';
import { answerOrigin, rebasePaymentLinks } from '../origin/answer-origin.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions, orgRef } from './service-call.js';

/** The contract's CreateOrderRequest from the JSON body of an order (or its quote). */
function createOrderRequest(body: z.output<typeof newOrder>, request: FastifyRequest, publicUrl: string): CreateOrderRequest {
  return {
    org: orgRef(requireOrg(request)),
    lines: body.lines.map((line) => ({
      itemId: line.item_id ?? '',
      quantity: BigInt(line.quantity),
      modifiers: (line.modifiers ?? []).map((modifier) => ({ modifierId: modifier.modifier_id })),
      name: line.name ?? '',
      unitPriceMinor: BigInt(line.unit_price_minor ?? 0),
      ...(line.chosen_price_minor === undefined ? {} : { chosenPriceMinor: BigInt(line.chosen_price_minor) }),
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
    redeemRewardIdentifier: body.redeem_reward_identifier ?? '',
    // A counter order, created with a key: it may use the addresses kept for staff (decision 0022).
    staff: true,
  };
}

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
  /**
   * The order as this caller sees it: with the shop's name and paymail, and its links under the origin the
   * caller reached (answerOrigin). pos made them under CTK_PUBLIC_URL, which is what it keeps.
   */
  const answer = async (request: FastifyRequest, order: Order | undefined, madeUnder = publicUrl) => {
    const view = rebasePaymentLinks(orderView(order), madeUnder, answerOrigin(request, publicUrl));
    return { ...view, ...(await orderMerchant(deps, view.merchant_handle)) };
  };
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
        const response = await deps.services.pos.createOrder(createOrderRequest(body, request, publicUrl), callOptions(request));
        return answer(request, response.order);
      },
    }),
    // The counter's cart, priced as the order would be (decision 0023): it creates nothing, so it takes no Idempotency-Key.
    'POST /api/pos/orders/quote': route({
      body: newOrder,
      bodyExample: quoteOrderExample,
      answer: orderQuote,
      handle: async ({ body, request }) => {
        const response = await deps.services.pos.quoteOrder({ order: createOrderRequest(body, request, publicUrl) }, callOptions(request));
        return orderQuoteView(response.quote);
      },
    }),
    'GET /api/pos/orders/:order_number': route({
      params: orderParams,
      answer: order,
      handle: async ({ params, request, reply }) => {
        // The order changes as it is paid: never from a shared cache.
        reply.header('cache-control', 'no-store');
        // Read only: pos makes the links under this caller's origin at once.
        const origin = answerOrigin(request, publicUrl);
        const read = await deps.services.pos.getOrder({ orderNumber: params.order_number, publicUrl: origin }, callOptions(request));
        return answer(request, read.order, origin);
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
        return answer(request, response.order);
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
        return answer(request, response.order);
      },
    }),
    'GET /api/pos/orders/:order_number/payment-request': route({
      params: orderParams,
      answer: paymentRequest,
      handle: async ({ params, request, reply }) => {
        // What is due changes with each payment.
        reply.header('cache-control', 'no-store');
        return paymentRequestView(
          await deps.services.pos.getPaymentRequest(
            { orderNumber: params.order_number, publicUrl: answerOrigin(request, publicUrl) },
            callOptions(request),
          ),
        );
      },
    }),
    'POST /api/pos/orders/:order_number/payment': route({
      params: orderParams,
      body: bip270Payment,
      bodyExample: bip270PaymentExample,
      // BIP270's own media types; application/json works too.
      jsonAlso: { body: 'application/bitcoinsv-payment', answer: 'application/bitcoinsv-paymentack' },
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
          { orderNumber: params.order_number, publicUrl: answerOrigin(request, publicUrl), format: query.format },
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
        // Read only: the links of each event are under this caller's origin; each event is the order as the route answers it.
        const origin = answerOrigin(request, publicUrl);
        let merchant: OrderMerchant | undefined;
        const view = async (watched: Order | undefined) => {
          const shown = orderView(watched);
          merchant ??= await orderMerchant(deps, shown.merchant_handle);
          return { ...shown, ...merchant };
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
