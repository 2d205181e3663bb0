import type { CommerceServiceImplementation } from '@ctk/proto/ctk/commerce/v1/commerce';
import type { CheckoutContext } from '../checkouts/checkout-context.js';
import { createCheckout } from '../domain/create-checkout.js';
import { getCatalog } from '../domain/get-catalog.js';
import { getCatalogItem } from '../domain/get-catalog-item.js';
import { getCheckout } from '../domain/get-checkout.js';
import { getSetup } from '../domain/get-setup.js';
import { getStorefront } from '../domain/get-storefront.js';
import { toCheckoutMessage } from './checkout-message.js';

export function commerceService(context: CheckoutContext): CommerceServiceImplementation {
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
  };
}
