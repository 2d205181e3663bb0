import { PaymentEventType } from '@ctk/proto/ctk/events/v1/payment_event';
import { AppError } from '../errors.js';

/** The JetStream stream holding every payment event, and pos's order changes beside them. */
export const PAYMENTS_STREAM = 'CTK_PAYMENTS';
/** All payment subjects. */
export const PAYMENT_SUBJECTS_WILDCARD = 'ctk.payments.>';
/** An order's state changed at pos (ctk.events.v1.OrderChanged): commerce's checkouts follow it. */
export const ORDER_CHANGED_SUBJECT = 'ctk.orders.changed';
/** All order subjects. */
export const ORDER_SUBJECTS_WILDCARD = 'ctk.orders.>';
/** What the stream captures: the payment subjects and the order subjects. */
export const STREAM_SUBJECTS = [PAYMENT_SUBJECTS_WILDCARD, ORDER_SUBJECTS_WILDCARD];
/** Whether a message's subject is an order's (not a payment event: books leaves it). */
export const isOrderSubject = (subject: string): boolean => subject.startsWith(ORDER_SUBJECTS_WILDCARD.slice(0, -1));
/**
 * Announced (decision 0053, outside the stream) when an organisation's tax settings changed at books, its id as
 * UTF-8: pos forgets its copy.
 */
export const TAX_SETTINGS_CHANGED_SUBJECT = 'ctk.announcements.tax_settings.changed';
/** The books service's durable consumer on the payments stream. */
export const BOOKS_CONSUMER = 'books';
/**
 * The commerce service's own durable consumer on the same stream (each durable name gets every event):
 * its checkouts follow their pos orders' changes (decision 0046), and a paid ticket checkout is settled
 * (decision 0020).
 */
export const COMMERCE_CONSUMER = 'commerce';

/** `<entity>.<past-tense>` name of each event type (docs/architecture.md, "Events"). */
export const PAYMENT_EVENT_NAMES = {
  [PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED]: 'payment.received',
  [PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_REFUNDED]: 'payment.refunded',
  [PaymentEventType.PAYMENT_EVENT_TYPE_PREPAID_ISSUED]: 'prepaid.issued',
  [PaymentEventType.PAYMENT_EVENT_TYPE_PREPAID_REDEEMED]: 'prepaid.redeemed',
  [PaymentEventType.PAYMENT_EVENT_TYPE_PREPAID_RESTORED]: 'prepaid.restored',
  [PaymentEventType.PAYMENT_EVENT_TYPE_CREDITS_SOLD]: 'credits.sold',
  [PaymentEventType.PAYMENT_EVENT_TYPE_CREDITS_REDEEMED]: 'credits.redeemed',
  [PaymentEventType.PAYMENT_EVENT_TYPE_CREDITS_RESTORED]: 'credits.restored',
} as const;

export type PublishedPaymentEventType = keyof typeof PAYMENT_EVENT_NAMES;
export type PaymentEventName = (typeof PAYMENT_EVENT_NAMES)[PublishedPaymentEventType];

/** `ctk.payments.<name>` for each event type. */
export const PAYMENT_SUBJECTS = Object.fromEntries(
  Object.entries(PAYMENT_EVENT_NAMES).map(([type, name]) => [type, `ctk.payments.${name}`]),
) as { [T in PublishedPaymentEventType]: `ctk.payments.${(typeof PAYMENT_EVENT_NAMES)[T]}` };

/** The subject an event of this type is published on; unspecified or unknown types have none. */
export function paymentSubject(type: PaymentEventType): string {
  const subject = (PAYMENT_SUBJECTS as Partial<Record<PaymentEventType, string>>)[type];
  if (!subject) throw new AppError('bad_request', `payment event type ${type} has no subject`, { type });
  return subject;
}
