import type { Order } from '@ctk/proto/ctk/pos/v1/pos';
import type { FastifyRequest } from 'fastify';
import { requireOrg } from '../auth/authenticate.js';
import { exampleOf, messageDesc } from '../contract/contract-registry.js';
import { fromJson, toJson } from '../contract/json-mapping.js';
import { messageSchema } from '../contract/message-schema.js';
import { rpcParams } from '../contract/request-params.js';
import { rpcRoute, type RpcRouteOptions } from '../contract/rpc-route.js';
import type { GatewayDeps } from '../deps.js';
import { EventStreamSlots } from '../orders/event-stream-slots.js';
import { openOrderEvents } from '../orders/order-events.js';
import { orderMerchant, type OrderMerchant } from '../orders/order-merchant.js';
import { order, ORDER_EVENT_FILES, orderView, type OrderJson } from '../orders/order-answers.js';
import { answerOrigin, rebasePaymentLinks } from '../origin/answer-origin.js';
import { clientAddress } from '../plugins/rate-limits.js';
import { qrAnswer, qrFiles } from './qr-answer.js';
import { route, type RouteDefinition } from './route-definition.js';
import { callOptions, orgRef } from './service-call.js';

const CREATE = messageDesc('ctk.pos.v1.CreateOrderRequest');
const QUOTE = messageDesc('ctk.pos.v1.OrderQuote');
const PAYMENT = messageDesc('ctk.pos.v1.Bip270Payment');
const PAYMENT_ACK = messageDesc('ctk.pos.v1.Bip270PaymentAck');

/** How long an order's event stream may stay open: its time to pay and then some; the page reconnects after. */
const EVENTS_TIMEOUT_MS = 30 * 60_000;

/**
 * Orders at the counter, served by pos (decision 0015): staff create, confirm and cancel them (the
 * organisation is `org_handle` in the body); the customer's side (the order, its BIP270 request and
 * payment, its QR and its events) is public by order number. The order's JSON is the contract's
 * (decision 0026); BIP270's messages, the QR and the event stream are written out here.
 */
export function orderRoutes(deps: GatewayDeps): Record<string, RouteDefinition> {
  const publicUrl = deps.config.CTK_PUBLIC_URL;
  const eventStreams = new EventStreamSlots(deps.config.CTK_ORDER_EVENT_STREAMS_PER_ADDRESS);

  /**
   * A route that is one RPC answering pos's Order. pos makes its links under CTK_PUBLIC_URL (and keeps it on
   * a new order); the caller sees them under the origin it reached, with the shop's name and paymail.
   */
  const orderRoute = (options: RpcRouteOptions<'pos'>): RouteDefinition => {
    const base = rpcRoute(deps.services, {
      ...options,
      answer: 'order',
      fill: { fields: options.fill?.fields ?? [], from: async (input) => ({ publicUrl, ...(await options.fill?.from(input)) }) },
    });
    const shown = async (request: FastifyRequest, json: OrderJson) => ({
      ...rebasePaymentLinks(json, publicUrl, answerOrigin(request, publicUrl)),
      ...(await orderMerchant(deps, json.merchant_handle)),
    });
    return { ...base, answer: order, handle: async (input) => shown(input.request, (await base.handle(input)) as OrderJson) };
  };

  /** Who creates a counter order, for the merchant's records; created with a key, it may use the addresses kept for staff (decision 0022). */
  const counterOrder = ({ request }: { request: FastifyRequest }) => ({
    createdBy: request.caller.kind === 'user' ? request.caller.userId : '',
    staff: true,
  });
  const create = orderRoute({
    rpc: ['pos', 'createOrder'],
    body: true,
    orgHandle: 'The organisation the order is for',
    creates: true,
    status: 201,
    // failed_precondition: no wallet registered, or every receiving address awaits a payment (decision 0022).
    errors: ['failed_precondition'],
    fill: { fields: ['created_by', 'staff'], from: counterOrder },
  });
  const staffAction = (rpc: 'confirmOrder' | 'cancelOrder', extra: Partial<RpcRouteOptions<'pos'>> = {}): RouteDefinition =>
    orderRoute({ rpc: ['pos', rpc], params: ['order_number'], body: true, orgHandle: 'The organisation the order is of', ...extra });

  return {
    'POST /api/pos/orders': create,
    // The counter's cart, priced as the order would be (decision 0023): it creates nothing, so it takes no Idempotency-Key.
    'POST /api/pos/orders/quote': route({
      body: create.body,
      bodyExample: (exampleOf(messageDesc('ctk.pos.v1.QuoteOrderRequest')) as { order: object }).order,
      answer: messageSchema(QUOTE, 'answer'),
      handle: async ({ body, request }) => {
        const orderRequest = {
          ...fromJson(CREATE, body as Record<string, unknown>),
          org: orgRef(requireOrg(request)),
          publicUrl,
          ...counterOrder({ request }),
        };
        const response = await deps.services.pos.quoteOrder({ order: orderRequest as never }, callOptions(request));
        return toJson(QUOTE, response.quote as Record<string, unknown> | undefined);
      },
    }),
    'GET /api/pos/orders/:order_number': orderRoute({
      rpc: ['pos', 'getOrder'],
      params: ['order_number'],
      // The order changes as it is paid: never from a shared cache.
      after: (_, { reply }) => reply.header('cache-control', 'no-store'),
    }),
    // Finding the transaction on the chain may take a few seconds.
    'POST /api/pos/orders/:order_number/confirm': staffAction('confirmOrder', { timeoutMs: 30_000 }),
    'POST /api/pos/orders/:order_number/cancel': staffAction('cancelOrder'),
    'GET /api/pos/orders/:order_number/payment-request': rpcRoute(deps.services, {
      rpc: ['pos', 'getPaymentRequest'],
      params: ['order_number'],
      fill: { fields: ['public_url'], from: ({ request }) => ({ publicUrl: answerOrigin(request, publicUrl) }) },
      view: 'ctk.pos.v1.Bip270PaymentRequest',
      // What is due changes with each payment.
      after: (_, { reply }) => reply.header('cache-control', 'no-store'),
    }),
    'POST /api/pos/orders/:order_number/payment': route({
      params: rpcParams(['pos', 'payOrder'], ['order_number'], 'path'),
      body: messageSchema(PAYMENT, 'request'),
      bodyExample: exampleOf(PAYMENT) as never,
      // BIP270's own media types; application/json works too.
      jsonAlso: { body: 'application/bitcoinsv-payment', answer: 'application/bitcoinsv-paymentack' },
      answer: messageSchema(PAYMENT_ACK, 'answer'),
      handle: async ({ params, body, request }) => {
        const payment = fromJson(PAYMENT, body as Record<string, unknown>);
        // Verifying and broadcasting the transaction may take a few seconds.
        const call = { ...callOptions(request), timeoutMs: 30_000 };
        const ack = await deps.services.pos.payOrder({ orderNumber: params.order_number, ...payment }, call);
        return toJson(PAYMENT_ACK, { payment, memo: ack.memo, error: ack.error });
      },
    }),
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
