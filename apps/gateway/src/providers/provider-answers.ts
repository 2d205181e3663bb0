import { z } from 'zod';
import { isoTime, named } from '../routes/answer-schema.js';

/** What provider payments answer (decision 0019), with Blue Bottle Cafe's Stripe account as the example. */

const outcome = z
  .enum(['applied', 'parked', 'ignored'])
  .describe('applied: a payment or refund posted; parked: no checkout of the organisation to apply it to, kept; ignored: moves no money');

export const providerAccount = named(
  'PaymentProviderAccount',
  z.object({
    provider: z.enum(['card-provider', 'wallet-provider']),
    secret_last4: z.string().describe('The last 4 characters of the secret: all that is ever shown of it'),
    webhook_url: z.string().describe("Where the provider sends events for this organisation: set it in the provider's dashboard"),
    previous_secret_valid_until: isoTime.nullable().describe('Until when the secret this one replaced still verifies events'),
    updated_at: isoTime,
  }),
  {
    provider: 'card-provider',
    secret_last4: '5aY2',
    webhook_url: 'https://pay.example.com/api/webhooks/card-provider?org=blue-bottle-cafe',
    previous_secret_valid_until: null,
    updated_at: '2026-11-23T12:00:00.000Z',
  },
);

export const webhookReceipt = named(
  'WebhookReceipt',
  z.object({
    received: z.literal(true),
    event_id: z.string(),
    event_type: z.string(),
    outcome,
    duplicate: z.boolean().describe('This event id was received before: nothing changed now'),
    reason: z.string().nullable().describe('Why it was parked or ignored'),
  }),
  {
    received: true,
    event_id: 'evt_1QbLueBottleCafe0001',
    event_type: 'checkout.session.completed',
    outcome: 'applied',
    duplicate: false,
    reason: null,
  },
);
