import { z } from 'zod';
import { handleField } from '../identity/organization-fields.js';

/** Only the shape of provider payments' requests: commerce verifies signatures and applies events (decision 0019). */

export const webhookQuery = z.object({
  org: handleField.describe('The organisation whose provider account sends to this URL: its handle (e.g. ?org=blue-bottle-cafe)'),
});

/**
 * Provider events are the provider's own JSON; commerce reads them. The gateway asks only for an event's
 * `id` and `type`, which every event of both providers has, and passes the raw bytes on.
 */
export const cardProviderEvent = z
  .looseObject({
    id: z.string().min(1).max(255).describe("The provider's event id (evt_...): a redelivery of one id is a duplicate"),
    type: z.string().min(1).max(100).describe('checkout.session.completed, payment_intent.succeeded, charge.refunded; others are ignored'),
    data: z.looseObject({ object: z.looseObject({}) }).describe('The object the event is about; metadata.ctk_checkout names the checkout'),
  })
  .describe('A Stripe event object, exactly as Stripe sends it (signed with Stripe-Signature over the raw body)');

export const cardProviderEventExample: z.input<typeof cardProviderEvent> = {
  id: 'evt_1QbLueBottleCafe0001',
  object: 'event',
  api_version: '2025-01-27.acacia',
  created: 1763900000,
  livemode: false,
  type: 'checkout.session.completed',
  data: {
    object: {
      id: 'cs_test_a1B2c3D4BlueBottle',
      object: 'checkout.session',
      amount_total: 990,
      currency: 'usd',
      payment_intent: 'pi_3QbLueBottleCafe01',
      payment_status: 'paid',
      status: 'complete',
      metadata: { ctk_checkout: 'cko_Qmx1ZUJvdHRsZS1jaGVja291dC0wMDAx' },
    },
  },
};

export const walletProviderEvent = z
  .looseObject({
    id: z.string().min(1).max(255).describe("The wallet provider's event id: a redelivery of one id is a duplicate"),
    type: z.string().min(1).max(100).describe('payment.completed or payment.refunded; others are ignored'),
    created: z.number().int().optional(),
    // Read by commerce for payment.completed and payment.refunded (required there); other types are ignored.
    data: z.looseObject({
      payment_id: z.string().min(1).max(255).optional(),
      amount_minor: z.number().int().min(0).optional(),
      currency: z.string().length(3).optional(),
      refunded_minor: z.number().int().min(0).optional().describe('payment.refunded: the total refunded so far'),
      metadata: z.looseObject({ ctk_checkout: z.string().optional() }).optional(),
    }),
  })
  .describe('A wallet provider event (decision 0019), signed with X-Wallet-Provider-Signature over the raw body');

export const walletProviderEventExample: z.input<typeof walletProviderEvent> = {
  id: 'wpe_01JDBLUEBOTTLE0001',
  type: 'payment.completed',
  created: 1763900000,
  data: {
    payment_id: 'wp_9f2c1a7e',
    amount_minor: 990,
    currency: 'USD',
    metadata: { ctk_checkout: 'cko_Qmx1ZUJvdHRsZS1jaGVja291dC0wMDAx' },
  },
};
