import { describe, expect, it } from 'vitest';
import { readNotice } from './provider-notice.js';

const TOKEN = 'cko_Qmx1ZUJvdHRsZS1jaGVja291dC0wMDAx';
const body = (value: unknown) => Buffer.from(JSON.stringify(value));
const stripe = (type: string, object: Record<string, unknown>) => body({ id: 'evt_1', object: 'event', type, data: { object } });
const code = (run: () => unknown) => {
  try {
    run();
    return 'read';
  } catch (error) {
    return `${(error as { code: string }).code} ${JSON.stringify((error as { details?: unknown }).details)}`;
  }
};

describe('provider events as commerce reads them', () => {
  it('a completed Checkout Session pays by its PaymentIntent, the token from metadata or client_reference_id', () => {
    const session = { id: 'cs_1', amount_total: 990, currency: 'usd', payment_intent: 'pi_1', payment_status: 'paid' };
    expect(readNotice('card-provider', stripe('checkout.session.completed', { ...session, metadata: { ctk_checkout: TOKEN } }))).toEqual({
      eventId: 'evt_1',
      eventType: 'checkout.session.completed',
      checkoutToken: TOKEN,
      kind: 'payment',
      paymentRef: 'pi_1',
      amountMinor: 990n,
      currency: 'USD',
    });
    const byReference = readNotice(
      'card-provider',
      stripe('checkout.session.completed', { ...session, payment_intent: null, client_reference_id: TOKEN }),
    );
    expect(byReference).toMatchObject({ checkoutToken: TOKEN, paymentRef: 'cs_1' });
  });

  it('an unpaid session (an async method pending) and unknown types move no money', () => {
    const unpaid = { id: 'cs_1', amount_total: 990, currency: 'usd', payment_status: 'unpaid', metadata: { ctk_checkout: TOKEN } };
    expect(readNotice('card-provider', stripe('checkout.session.completed', unpaid))).toMatchObject({ kind: 'ignored' });
    expect(readNotice('card-provider', stripe('customer.created', {}))).toMatchObject({ kind: 'ignored' });
    expect(readNotice('wallet-provider', body({ id: 'wpe_1', type: 'account.updated', data: {} }))).toMatchObject({ kind: 'ignored' });
  });

  it('charge.refunded is the running refunded total of its PaymentIntent', () => {
    const refunded = stripe('charge.refunded', { id: 'ch_1', amount_refunded: 495, currency: 'usd', payment_intent: 'pi_1' });
    expect(readNotice('card-provider', refunded)).toMatchObject({ kind: 'refund', paymentRef: 'pi_1', refundedMinor: 495n });
  });

  it('a body that is not the event it says is 422 naming the field', () => {
    expect(code(() => readNotice('card-provider', Buffer.from('not json')))).toContain('validation_failed');
    expect(code(() => readNotice('card-provider', stripe('payment_intent.succeeded', { id: 'pi_1', currency: 'usd' })))).toContain(
      'data.object.amount_received',
    );
    expect(
      code(() => readNotice('wallet-provider', body({ id: 'wpe_1', type: 'payment.completed', data: { payment_id: 'wp_1' } }))),
    ).toContain('data.amount_minor');
  });
});
