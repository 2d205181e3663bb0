import type { CommerceServiceImplementation } from '@ctk/proto/ctk/commerce/v1/commerce';
import type { CheckoutContext } from '../checkouts/checkout-context.js';
import { createCheckout } from '../domain/create-checkout.js';
import { getCatalog } from '../domain/get-catalog.js';
import { getCatalogItem } from '../domain/get-catalog-item.js';
import { followOrder } from '../domain/follow-order.js';
import { getCheckout } from '../domain/get-checkout.js';
import { getSetup } from '../domain/get-setup.js';
import { getStorefront } from '../domain/get-storefront.js';
import { checkInTicket } from '../domain/check-in-ticket.js';
import { createTicketCheckout } from '../domain/create-ticket-checkout.js';
import { getTicketCatalog } from '../domain/get-ticket-catalog.js';
import { getTicketList } from '../domain/get-ticket-list.js';
import { listTicketOrders } from '../domain/list-ticket-orders.js';
import { replaceTicketCatalog } from '../domain/replace-ticket-catalog.js';
import { toCheckoutMessage } from './checkout-message.js';
import { getTicketQr } from '../tickets/ticket-qr.js';
import { toIssuedTicketMessage, toTicketEventMessages, toTicketOrderMessage } from './ticket-message.js';
import { applyProviderEvent } from '../domain/apply-provider-event.js';
import { listProviderEvents } from '../domain/list-provider-events.js';
import { receiveProviderEvent } from '../domain/receive-provider-event.js';
import { setProviderSecret } from '../domain/set-provider-secret.js';
import type { ProviderContext } from '../providers/provider-context.js';
import { toProviderAccountMessage, toProviderEventMessage } from './provider-messages.js';
import { getSite } from '../domain/get-site.js';
import { previewSite } from '../domain/preview-site.js';
import { publishSite } from '../domain/publish-site.js';
import { replaceSite } from '../domain/replace-site.js';
import type { SiteContext } from '../site/site-context.js';
import { toSiteMessage, toSitePublicationMessage } from './site-message.js';
import { createIntent } from '../stablecoin/create-intent.js';
import { getIntent } from '../stablecoin/get-intent.js';
import { getIntentQr } from '../stablecoin/intent-qr.js';
import { toIntentMessage } from '../stablecoin/intent-message.js';
import { settleIntent } from '../stablecoin/settle-intent.js';
import type { StablecoinContext } from '../stablecoin/stablecoin-context.js';

export function commerceService(
  context: CheckoutContext,
  providers: ProviderContext,
  sites: SiteContext,
  stablecoin: StablecoinContext,
): CommerceServiceImplementation {
  const { catalogs } = context;
  return {
    async getSetup(request) {
      return { capabilities: await getSetup(providers.accounts, sites.sites, request.org) };
    },
    async getStorefront(request) {
      return getStorefront(catalogs, request.org);
    },
    async getCatalog(request) {
      return { catalog: await getCatalog(catalogs, request.org) };
    },
    async getCatalogItem(request) {
      return { item: await getCatalogItem(catalogs, request.org, request.id) };
    },
    async createCheckout(request) {
      const lines = request.lines.map((line) => ({ itemId: line.itemId, quantity: line.quantity, modifierIds: line.modifierIds }));
      return {
        checkout: toCheckoutMessage(
          await createCheckout(context, request.org, { lines, publicUrl: request.publicUrl, clientAddress: request.clientAddress }),
          request.publicUrl,
        ),
      };
    },
    async getCheckout(request) {
      return { checkout: toCheckoutMessage(await getCheckout(context, request.org, request), request.publicUrl) };
    },
    async followOrder(request) {
      await followOrder(context, request);
      return {};
    },
    async replaceTicketCatalog(request) {
      const stored = await replaceTicketCatalog(context, request.org, { events: request.events });
      return { events: toTicketEventMessages(stored.events, stored.counts) };
    },
    async getTicketCatalog(request) {
      const catalog = await getTicketCatalog(context, request.org);
      return { events: toTicketEventMessages(catalog.events, catalog.counts) };
    },
    async getTicketList(request) {
      const list = await getTicketList(context, request.org);
      return { events: toTicketEventMessages(list.events, list.counts) };
    },
    async createTicketCheckout(request) {
      const lines = request.lines.map((line) => ({ ticketTypeId: line.ticketTypeId, quantity: line.quantity }));
      return {
        checkout: toCheckoutMessage(
          await createTicketCheckout(context, request.org, { lines, publicUrl: request.publicUrl, clientAddress: request.clientAddress }),
          request.publicUrl,
        ),
      };
    },
    async listTicketOrders(request) {
      const { page, nextCursor } = await listTicketOrders(context, request.org, { limit: request.limit, cursor: request.cursor });
      const now = context.now();
      return { orders: page.map((row) => toTicketOrderMessage(row, now, request.publicUrl)), nextCursor };
    },
    async checkInTicket(request) {
      return { ticket: toIssuedTicketMessage(await checkInTicket(context, request.org, request.code), request.publicUrl) };
    },
    async getTicketQr(request) {
      return getTicketQr(context.tickets, request.code, request.format);
    },
    async setProviderSecret(request) {
      const account = await setProviderSecret(providers, request.org, { provider: request.provider, webhookSecret: request.webhookSecret });
      return { account: toProviderAccountMessage(account) };
    },
    async receiveProviderEvent(request) {
      const received = await receiveProviderEvent(providers, request.org, request);
      // No reason (applied) is an absent one.
      return { ...received, reason: received.reason || undefined };
    },
    async listProviderEvents(request) {
      const page = await listProviderEvents(providers, request.org, request);
      return { events: page.events.map(toProviderEventMessage), nextCursor: page.nextCursor };
    },
    async applyProviderEvent(request) {
      return { event: toProviderEventMessage(await applyProviderEvent(providers, request.org, request)) };
    },
    async getSite(request) {
      return { site: toSiteMessage(await getSite(sites, request.org)) };
    },
    async replaceSite(request) {
      return { site: toSiteMessage(await replaceSite(sites, request.org, request)) };
    },
    async publishSite(request) {
      return { publication: toSitePublicationMessage(await publishSite(sites, request.org, request)) };
    },
    async previewSite(request) {
      return { html: await previewSite(sites, request.org, request) };
    },
    async createStablecoinIntent(request) {
      const { org, ...input } = request;
      return { intent: toIntentMessage(await createIntent(stablecoin, org, input), stablecoin.now()) };
    },
    async getStablecoinIntent(request) {
      return { intent: toIntentMessage(await getIntent(stablecoin, request.paymentId), stablecoin.now()) };
    },
    async settleStablecoinIntent(request) {
      return { intent: toIntentMessage(await settleIntent(stablecoin, request), stablecoin.now()) };
    },
    async getStablecoinIntentQr(request) {
      return getIntentQr(stablecoin, request.paymentId, request.format);
    },
  };
}
