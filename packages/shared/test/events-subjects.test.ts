import { PaymentEventType } from '@ctk/proto/ctk/events/v1/payment_event';
import { describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.js';
import {
  BOOKS_CONSUMER,
  COMMERCE_CONSUMER,
  PAYMENT_SUBJECTS,
  PAYMENT_SUBJECTS_WILDCARD,
  PAYMENTS_STREAM,
  paymentSubject,
} from '../src/events/subjects.js';

describe('payment event subjects', () => {
  it('names one subject per event type under ctk.payments', () => {
    expect(paymentSubject(PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED)).toBe('ctk.payments.payment.received');
    expect(paymentSubject(PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_REFUNDED)).toBe('ctk.payments.payment.refunded');
    expect(paymentSubject(PaymentEventType.PAYMENT_EVENT_TYPE_PREPAID_ISSUED)).toBe('ctk.payments.prepaid.issued');
    expect(paymentSubject(PaymentEventType.PAYMENT_EVENT_TYPE_PREPAID_REDEEMED)).toBe('ctk.payments.prepaid.redeemed');
    expect(paymentSubject(PaymentEventType.PAYMENT_EVENT_TYPE_PREPAID_RESTORED)).toBe('ctk.payments.prepaid.restored');
    expect(paymentSubject(PaymentEventType.PAYMENT_EVENT_TYPE_CREDITS_SOLD)).toBe('ctk.payments.credits.sold');
    expect(paymentSubject(PaymentEventType.PAYMENT_EVENT_TYPE_CREDITS_REDEEMED)).toBe('ctk.payments.credits.redeemed');
    expect(paymentSubject(PaymentEventType.PAYMENT_EVENT_TYPE_CREDITS_RESTORED)).toBe('ctk.payments.credits.restored');
    expect(Object.keys(PAYMENT_SUBJECTS)).toHaveLength(8);
  });

  it('puts every subject under the stream wildcard', () => {
    const prefix = PAYMENT_SUBJECTS_WILDCARD.replace('>', '');
    for (const subject of Object.values(PAYMENT_SUBJECTS)) expect(subject.startsWith(prefix)).toBe(true);
    expect([PAYMENTS_STREAM, BOOKS_CONSUMER, COMMERCE_CONSUMER]).toEqual(['CTK_PAYMENTS', 'books', 'commerce']);
  });

  it('refuses a subject for an unspecified or unknown type', () => {
    for (const type of [PaymentEventType.PAYMENT_EVENT_TYPE_UNSPECIFIED, PaymentEventType.UNRECOGNIZED, 99 as PaymentEventType]) {
      const error = (() => {
        try {
          return paymentSubject(type);
        } catch (caught) {
          return caught;
        }
      })();
      expect(AppError.is(error) && error.code).toBe('bad_request');
    }
  });
});
