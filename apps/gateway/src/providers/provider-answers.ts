import { z } from 'zod';
import { isoTime, named, pageOf } from '../routes/answer-schema.js';

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

export const providerEvent = named(
  'PaymentProviderEvent',
  z.object({
    id: z.uuid(),
    provider: z.enum(['card-provider', 'wallet-provider']),
    event_id: z.string(),
    event_type: z.string(),
    outcome,
    reason: z.string().nullable(),
    checkout_token: z.string().nullable().describe('The checkout the event named (metadata.ctk_checkout), found or not'),
    received_at: isoTime,
  }),
  {
    id: '4c1f8e2a-7b3d-4e9a-8f6c-1d2e3f4a5b6c',
    provider: 'card-provider',
    event_id: 'evt_1QbLueBottleCafe0002',
    event_type: 'checkout.session.completed',
    outcome: 'parked',
    reason: 'no checkout cko_Qmx1ZUJvdHRsZS1jaGVja291dC0wMDAy in this organisation',
    checkout_token: 'cko_Qmx1ZUJvdHRsZS1jaGVja291dC0wMDAy',
    received_at: '2026-11-23T12:05:00.000Z',
  },
);

export const providerEventPage = pageOf('PaymentProviderEvent', providerEvent);

/** A parked event an admin applied once its checkout existed (or pos answered again). */
export const appliedProviderEvent = named('PaymentProviderEventApplied', providerEvent.clone(), {
  id: '4c1f8e2a-7b3d-4e9a-8f6c-1d2e3f4a5b6c',
  provider: 'card-provider',
  event_id: 'evt_1QbLueBottleCafe0002',
  event_type: 'checkout.session.completed',
  outcome: 'applied',
  reason: null,
  checkout_token: 'cko_Qmx1ZUJvdHRsZS1jaGVja291dC0wMDAy',
  received_at: '2026-11-23T12:05:00.000Z',
});
