import type { CommerceServiceImplementation } from '@ctk/proto/ctk/commerce/v1/commerce';
import type { CheckoutContext } from '../checkouts/checkout-context.js';
import { createCheckout } from '../domain/create-checkout.js';
import { getCatalog } from '../domain/get-catalog.js';
import { getCatalogItem } from '../domain/get-catalog-item.js';
import { getCheckout } from '../domain/get-checkout.js';
import { getSetup } from '../domain/get-setup.js';
import { getStorefront } from '../domain/get-storefront.js';
import { listProviderEvents } from '../domain/list-provider-events.js';
import { receiveProviderEvent } from '../domain/receive-provider-event.js';
import { setProviderSecret } from '../domain/set-provider-secret.js';
import type { ProviderContext } from '../providers/provider-context.js';
import { toCheckoutMessage } from './checkout-message.js';
import { toProviderAccountMessage, toProviderEventMessage } from './provider-messages.js';

export function commerceService(context: CheckoutContext, providers: ProviderContext): CommerceServiceImplementation {
  const { catalogs } = context;
  return {
    async getSetup() {
      return { capabilities: getSetup() };
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
      return { checkout: toCheckoutMessage(await createCheckout(context, request.org, { lines, publicUrl: request.publicUrl })) };
    },
    async getCheckout(request) {
      return { checkout: toCheckoutMessage(await getCheckout(context, request.org, request)) };
    },
    async setProviderSecret(request) {
      const account = await setProviderSecret(providers, request.org, { provider: request.provider, webhookSecret: request.webhookSecret });
      return { account: toProviderAccountMessage(account) };
    },
    async receiveProviderEvent(request) {
      return receiveProviderEvent(providers, request.org, request);
    },
    async listProviderEvents(request) {
      return { events: (await listProviderEvents(providers, request.org, request)).map(toProviderEventMessage) };
    },
  };
}
