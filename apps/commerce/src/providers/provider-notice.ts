import { AppError } from '@ctk/shared';
import { z } from 'zod';
import { CHECKOUT_METADATA_KEY, type Provider } from './providers.js';

/**
 * What a provider's event means here, whichever provider sent it: a payment of a checkout, a refund
 * (`refundedMinor` is the payment's refunded total so far, as both providers state it), or nothing that moves
 * money. `checkoutToken` is the checkout's public token from the event's metadata ('' when absent).
 */
export type ProviderNotice = { eventId: string; eventType: string; checkoutToken: string } & (
  | { kind: 'payment'; paymentRef: string; amountMinor: bigint; currency: string }
  | { kind: 'refund'; paymentRef: string; refundedMinor: bigint; currency: string }
  | { kind: 'ignored'; reason: string }
);

const id = z.string().min(1).max(255);
const minor = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const currency = z
  .string()
  .regex(/^[A-Za-z]{3}$/)
  .transform((code) => code.toUpperCase());
const metadata = z.record(z.string(), z.unknown()).nullish();
const event = z.looseObject({ id, type: z.string().min(1).max(100), data: z.looseObject({ object: z.unknown() }).optional() });

/** Stripe's objects, the fields read (https://docs.stripe.com/api/events/types). */
const checkoutSession = z.looseObject({
  id,
  payment_intent: id.nullish(),
  amount_total: minor,
  currency,
  payment_status: z.string(),
  client_reference_id: z.string().nullish(),
  metadata,
});
const paymentIntent = z.looseObject({ id, amount_received: minor, currency, metadata });
const charge = z.looseObject({ id, payment_intent: id.nullish(), amount_refunded: minor, currency, metadata });

/** The wallet provider's event body (decision 0019): `data` is read for the two types that move money. */
const walletEvent = z.looseObject({ id, type: z.string().min(1).max(100), data: z.unknown() });
const walletPayment = z.looseObject({
  payment_id: id,
  amount_minor: minor,
  currency,
  refunded_minor: minor.optional(),
  metadata,
});

/** The event in a verified body; a body that is not such an event is 422 (the provider sees it failed). */
export function readNotice(provider: Provider, rawBody: Uint8Array): ProviderNotice {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(rawBody).toString('utf8'));
  } catch {
    throw new AppError('validation_failed', 'The body is not JSON', { field: 'body' });
  }
  return provider === 'card-provider' ? cardNotice(json) : walletNotice(json);
}

function cardNotice(json: unknown): ProviderNotice {
  const { id: eventId, type: eventType, data } = parse(event, json, '');
  const base = { eventId, eventType };
  switch (eventType) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = parse(checkoutSession, data?.object, 'data.object.');
      const checkoutToken = tokenOf(session.metadata) || (session.client_reference_id ?? '');
      if (session.payment_status !== 'paid') {
        return { ...base, checkoutToken, kind: 'ignored', reason: `payment_status is ${session.payment_status}, not paid` };
      }
      const paymentRef = session.payment_intent ?? session.id;
      return { ...base, checkoutToken, kind: 'payment', paymentRef, amountMinor: BigInt(session.amount_total), currency: session.currency };
    }
    case 'payment_intent.succeeded': {
      const intent = parse(paymentIntent, data?.object, 'data.object.');
      const amountMinor = BigInt(intent.amount_received);
      return {
        ...base,
        checkoutToken: tokenOf(intent.metadata),
        kind: 'payment',
        paymentRef: intent.id,
        amountMinor,
        currency: intent.currency,
      };
    }
    case 'charge.refunded': {
      const refunded = parse(charge, data?.object, 'data.object.');
      const paymentRef = refunded.payment_intent ?? refunded.id;
      const refundedMinor = BigInt(refunded.amount_refunded);
      return { ...base, checkoutToken: tokenOf(refunded.metadata), kind: 'refund', paymentRef, refundedMinor, currency: refunded.currency };
    }
    default:
      return { ...base, checkoutToken: '', kind: 'ignored', reason: `${eventType} moves no money here` };
  }
}

function walletNotice(json: unknown): ProviderNotice {
  const { id: eventId, type: eventType, data: body } = parse(walletEvent, json, '');
  if (eventType !== 'payment.completed' && eventType !== 'payment.refunded') {
    return { eventId, eventType, checkoutToken: '', kind: 'ignored', reason: `${eventType} moves no money here` };
  }
  const data = parse(walletPayment, body, 'data.');
  const base = { eventId, eventType, checkoutToken: tokenOf(data.metadata) };
  switch (eventType) {
    case 'payment.completed':
      return { ...base, kind: 'payment', paymentRef: data.payment_id, amountMinor: BigInt(data.amount_minor), currency: data.currency };
    case 'payment.refunded': {
      if (data.refunded_minor === undefined) {
        throw new AppError('validation_failed', 'A payment.refunded event states data.refunded_minor', { field: 'data.refunded_minor' });
      }
      return { ...base, kind: 'refund', paymentRef: data.payment_id, refundedMinor: BigInt(data.refunded_minor), currency: data.currency };
    }
  }
}

function tokenOf(meta: Record<string, unknown> | null | undefined): string {
  const token = meta?.[CHECKOUT_METADATA_KEY];
  return typeof token === 'string' ? token.slice(0, 100) : '';
}

function parse<T extends z.ZodType>(schema: T, value: unknown, prefix: string): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = `${prefix}${issue.path.join('.')}`.replace(/\.$/, '') || 'body';
  throw new AppError('validation_failed', `${field}: ${issue.message}`, { field });
}
