import { z } from 'zod';
import { AppError, orgOf } from '@ctk/shared';
import { CreateOrderRequest, type PosServiceImplementation } from '@ctk/proto/ctk/pos/v1/pos';
import { analyzeItems } from '../analyze/analyze-items.js';
import type { OcrReader } from '../analyze/ocr-reader.js';
import { itemsByIds, type ItemRepository } from '../data/item-repository.js';
import type { MenuRepository } from '../data/menu-repository.js';
import { hasCards } from '../data/prepaid-card-repository.js';
import { cancelOrder } from '../domain/cancel-order.js';
import { cancelRefund } from '../domain/cancel-refund.js';
import { createRefund } from '../domain/create-refund.js';
import { getRefundPaymentRequest } from '../domain/get-refund-payment-request.js';
import { payRefund } from '../domain/pay-refund.js';
import { confirmOrder } from '../domain/confirm-order.js';
import { markOrderPaidElsewhere } from '../domain/mark-order-paid-elsewhere.js';
import { applyOrderCredits } from '../credits/apply-order-credits.js';
import { openCreditsSale } from '../credits/open-credits-sale.js';
import { openReferralOrder } from '../referrals/open-referral-order.js';
import { createItem } from '../domain/create-item.js';
import { createOrder } from '../domain/create-order.js';
import { quoteOrder } from '../domain/quote-order.js';
import { checkCurrencyRate } from '../rates/require-rate.js';
import { getMenu } from '../domain/get-menu.js';
import { createPayLink } from '../domain/create-pay-link.js';
import { disablePayLink } from '../domain/disable-pay-link.js';
import { getPayLink } from '../domain/get-pay-link.js';
import { getPayLinkQr } from '../domain/get-pay-link-qr.js';
import { listPayLinks } from '../domain/list-pay-links.js';
import { openPayLinkOrder } from '../domain/open-pay-link-order.js';
import { getOrderQr } from '../domain/get-order-qr.js';
import { getOrder, getOrderState } from '../domain/get-order.js';
import { listOrders } from '../domain/list-orders.js';
import { getPaymentRequest } from '../domain/get-payment-request.js';
import { getSetup } from '../domain/get-setup.js';
import { listItems } from '../domain/list-items.js';
import { payOrder } from '../domain/pay-order.js';
import { replaceMenu } from '../domain/replace-menu.js';
import { watchOrder } from '../domain/watch-order.js';
import type { CardContext } from '../cards/card-context.js';
import type { OrderContext } from '../orders/order-context.js';
import type { PayLinkContext } from '../pay-links/pay-link-context.js';
import { toItemMessage } from './item-message.js';
import { getFeedCatalog } from '../feed/get-feed-catalog.js';
import { toMenuMessage } from './menu-message.js';
import { toOrderMessage } from './order-message.js';
import { toRefundMessage } from './refund-message.js';
import { toPayLinkMessage } from './pay-link-message.js';
import { loyaltyCardRpcs } from './loyalty-card-rpcs.js';
import { posCardRpcs } from './pos-card-rpcs.js';
import { prepaidCardRpcs } from './prepaid-card-rpcs.js';

export function posService({
  items,
  menus,
  orders,
  ocr,
  payLinks,
  cards,
}: {
  items: ItemRepository;
  menus: MenuRepository;
  orders: OrderContext;
  ocr: OcrReader;
  payLinks: PayLinkContext;
  cards: CardContext;
}): PosServiceImplementation {
  return {
    async getSetup(request) {
      const hasPrepaidCards = (organizationId: string) => hasCards(orders.prisma, organizationId);
      return { capabilities: await getSetup(items, payLinks.links, orgOf(request.org), orders.prisma, hasPrepaidCards) };
    },
    async createItem(request) {
      return { item: toItemMessage(await createItem(items, orders.prices, orgOf(request.org), request)) };
    },
    async listItems(request) {
      const page = await listItems(items, orgOf(request.org), request);
      return { items: page.items.map(toItemMessage), nextCursor: page.nextCursor };
    },
    async getItems({ org, ids }) {
      if (ids.length > 100) throw new AppError('validation_failed', 'ids takes at most 100', { field: 'ids' });
      const valid = ids.filter((id) => z.guid().safeParse(id).success);
      return { items: (await itemsByIds(orders.prisma, orgOf(org).id, valid)).map(toItemMessage) };
    },
    async getMenu(request) {
      return { menu: toMenuMessage(await getMenu(menus, orgOf(request.org))) };
    },
    async replaceMenu(request) {
      return { menu: toMenuMessage(await replaceMenu(menus, items, orgOf(request.org), request)) };
    },
    async analyzeItems(request, context) {
      return analyzeItems(ocr, request, context.signal);
    },
    async createOrder(request) {
      const { org: orgRef, ...input } = request;
      const order = await createOrder(orders, orgRef ?? {}, orgOf(orgRef), input);
      return { order: toOrderMessage(order, request.publicUrl, orders.now()) };
    },
    async quoteOrder(request) {
      const { org: orgRef, ...input } = CreateOrderRequest.fromPartial(request.order ?? {});
      return { quote: await quoteOrder(orders, orgOf(orgRef), input) };
    },
    async getFeedCatalog(request) {
      return getFeedCatalog(orders.prisma, orders.prices, orgOf(request.org));
    },
    async checkCurrencyRate(request) {
      await checkCurrencyRate(orders.prices, request.currency);
      return {};
    },
    async getOrder(request) {
      return { order: toOrderMessage(await getOrder(orders, request.orderNumber), request.publicUrl, orders.now()) };
    },
    async getOrderState(request) {
      return { state: await getOrderState(orders, request.orderNumber) };
    },
    async listOrders(request) {
      const page = await listOrders(orders, orgOf(request.org), request);
      const now = orders.now();
      return { orders: page.orders.map((order) => toOrderMessage(order, request.publicUrl, now)), nextCursor: page.nextCursor };
    },
    async *watchOrder(request, context) {
      const render = (order: Parameters<typeof toOrderMessage>[0], now: Date) => ({ order: toOrderMessage(order, request.publicUrl, now) });
      yield* watchOrder(orders, request.orderNumber, render, context.signal);
    },
    async getPaymentRequest(request) {
      return getPaymentRequest(orders, request.orderNumber, request.publicUrl);
    },
    async payOrder(request) {
      return payOrder(orders, request);
    },
    async confirmOrder(request) {
      const order = await confirmOrder(orders, orgOf(request.org), request);
      return { order: toOrderMessage(order, request.publicUrl, orders.now()) };
    },
    async cancelOrder(request) {
      const order = await cancelOrder(orders, orgOf(request.org), request.orderNumber);
      return { order: toOrderMessage(order, request.publicUrl, orders.now()) };
    },
    async createRefund(request) {
      const { org, publicUrl, ...input } = request;
      const { refund, order } = await createRefund(orders, orgOf(org), input);
      return { refund: toRefundMessage(refund, order, publicUrl, orders.now()) };
    },
    async cancelRefund(request) {
      const { refund, order } = await cancelRefund(orders, orgOf(request.org), request.refundId);
      return { refund: toRefundMessage(refund, order, request.publicUrl, orders.now()) };
    },
    async getRefundPaymentRequest(request) {
      return getRefundPaymentRequest(orders, request.refundId, request.publicUrl);
    },
    async payRefund(request) {
      return payRefund(orders, request);
    },
    async markOrderPaidElsewhere(request) {
      const { orderNumber, provider, paymentRef } = request;
      const order = await markOrderPaidElsewhere(orders, orgOf(request.org), { orderNumber, provider, paymentRef });
      return { order: toOrderMessage(order, request.publicUrl, orders.now()) };
    },
    async openReferralOrder(request) {
      return { order: toOrderMessage(await openReferralOrder(orders, request), request.publicUrl, orders.now()) };
    },
    async openCreditsSale(request) {
      return { order: toOrderMessage(await openCreditsSale(orders, request), request.publicUrl, orders.now()) };
    },
    async applyOrderCredits(request) {
      return { order: toOrderMessage(await applyOrderCredits(orders, request), request.publicUrl, orders.now()) };
    },
    async getOrderQr(request) {
      return getOrderQr(orders, request);
    },
    async createPayLink(request) {
      const { org, ...input } = request;
      return { payLink: toPayLinkMessage(await createPayLink(payLinks, orgOf(org), input), request.publicUrl, orders.now()) };
    },
    async listPayLinks(request) {
      const page = await listPayLinks(payLinks, orgOf(request.org), request);
      return { payLinks: page.links.map((link) => toPayLinkMessage(link, request.publicUrl, orders.now())), nextCursor: page.nextCursor };
    },
    async disablePayLink(request) {
      return { payLink: toPayLinkMessage(await disablePayLink(payLinks, orgOf(request.org), request.id), request.publicUrl, orders.now()) };
    },
    async getPayLink(request) {
      return { payLink: toPayLinkMessage(await getPayLink(payLinks, request.id), request.publicUrl, orders.now()) };
    },
    async openPayLinkOrder(request) {
      const { org: orgRef, ...input } = request;
      const order = await openPayLinkOrder(payLinks, orgRef ?? {}, orgOf(orgRef), input);
      return { order: toOrderMessage(order, request.publicUrl, orders.now()) };
    },
    async getPayLinkQr(request) {
      return getPayLinkQr(payLinks, request);
    },
    ...posCardRpcs(cards),
    ...prepaidCardRpcs(cards),
    ...loyaltyCardRpcs(cards),
  };
}
