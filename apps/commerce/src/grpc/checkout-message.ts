import type { Checkout } from '@ctk/proto/ctk/commerce/v1/commerce';
import type { CheckoutWithOrder } from '../domain/create-checkout.js';

export function toCheckoutMessage({ checkout, order }: CheckoutWithOrder): Checkout {
  return { publicToken: checkout.publicToken, status: checkout.status, createdAt: checkout.createdAt.toISOString(), order };
}
