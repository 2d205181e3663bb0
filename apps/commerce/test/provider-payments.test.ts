import { randomBytes } from 'node:crypto';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { eventually, scrapeMetrics } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signPayload } from './sign-payload.js';
import { failure, PUBLIC_URL, startCommerceStack, type CommerceStack } from './commerce-stack.js';

let stack: CommerceStack;
beforeAll(async () => {
  stack = await startCommerceStack({ METRICS_PORT: '0' });
}, 60_000);
afterAll(() => stack?.close());

const CARD_SECRET = 'whsec_blue_bottle_0b7c4f1e9a2d6c83';
const WALLET_SECRET = 'wps_blue_bottle_wallet_5e0a91c7d3';

/** A shop with its provider secrets set and a checkout of two lattes taxed at 10%: 900 + 90 tax = 990. */
async function paidShop(cardSecret = CARD_SECRET) {
  const org = await stack.walletOrg();
  await stack.client.setProviderSecret({ org, provider: 'card-provider', webhookSecret: cardSecret });
  await stack.client.setProviderSecret({ org, provider: 'wallet-provider', webhookSecret: WALLET_SECRET });
  const latte = await stack.item(org, { name: 'Latte', priceCents: 450n, taxTreatment: 'reduced', taxRate: '0.1' });
  const checkout = await openCheckout(org, latte.id);
  return { org, latte, checkout };
}

async function openCheckout(org: OrgRef, itemId: string) {
  const { checkout } = await stack.client.createCheckout({
    org,
    lines: [{ itemId, quantity: 2n, modifierIds: [] }],
    publicUrl: PUBLIC_URL,
  });
  return checkout!;
}

const eventId = () => `evt_${randomBytes(12).toString('hex')}`;

/** Stripe's event envelope around an object. */
function stripeEvent(type: string, object: Record<string, unknown>, id = eventId()) {
  return JSON.stringify({
    id,
    object: 'event',
    api_version: '2025-01-27.acacia',
    created: 1763900000,
    livemode: false,
    type,
    data: { object },
  });
}

const sessionCompleted = (token: string, fields: Record<string, unknown> = {}) =>
  stripeEvent('checkout.session.completed', {
    id: 'cs_test_a1b2c3',
    object: 'checkout.session',
    amount_total: 990,
    currency: 'usd',
    payment_intent: 'pi_3QblueBottle',
    payment_status: 'paid',
    status: 'complete',
    metadata: { ctk_checkout: token },
    ...fields,
  });

const chargeRefunded = (amountRefunded: number, id = eventId()) =>
  stripeEvent(
    'charge.refunded',
    {
      id: 'ch_3QblueBottle',
      object: 'charge',
      amount: 990,
      amount_refunded: amountRefunded,
      currency: 'usd',
      payment_intent: 'pi_3QblueBottle',
      refunded: amountRefunded === 990,
      metadata: {},
    },
    id,
  );

function deliver(
  org: OrgRef,
  body: string,
  options: { secret?: string | string[]; provider?: string; timestamp?: number; signature?: string } = {},
) {
  const provider = options.provider ?? 'card-provider';
  const secret = options.secret ?? (provider === 'card-provider' ? CARD_SECRET : WALLET_SECRET);
  const signature = options.signature ?? signPayload(secret, body, options.timestamp);
  return stack.client.receiveProviderEvent({ org, provider, payload: Buffer.from(body), signature, publicUrl: PUBLIC_URL });
}

async function entries(org: OrgRef) {
  return (await stack.books.listJournalEntries({ org, limit: 100 })).entries;
}

async function balances(org: OrgRef) {
  const { balances: [usd] = [] } = await stack.books.getTrialBalance({ org });
  return Object.fromEntries((usd?.accounts ?? []).map((account) => [account.code, account.balanceMinor]));
}

describe('card provider events', () => {
  it('mark the checkout paid, its order paid_elsewhere, and post the sale to provider clearing, revenue and tax', async () => {
    const { org, checkout } = await paidShop();
    const answer = await deliver(org, sessionCompleted(checkout.publicToken));
    expect(answer).toMatchObject({ outcome: 'applied', duplicate: false, eventType: 'checkout.session.completed' });

    const status = await stack.client.getCheckout({ org, publicToken: checkout.publicToken, publicUrl: PUBLIC_URL });
    expect(status.checkout?.status).toBe('paid');
    expect(status.checkout?.order).toMatchObject({ dueSatoshis: 0n, paidAt: expect.any(String) });
    expect(status.checkout).toMatchObject({ provider: 'card-provider', refundedMinor: 0n });
    // The order says where it was paid, and takes no bitcoin payment now (its address is no longer watched).
    const { order } = await stack.pos.getOrder({ orderNumber: checkout.order!.orderNumber, publicUrl: PUBLIC_URL });
    expect(order).toMatchObject({
      status: 'paid_elsewhere',
      paidElsewhereBy: 'card-provider',
      dueSatoshis: 0n,
      paidAt: expect.any(String),
    });

    const [entry] = await eventually(async () => {
      const found = await entries(org);
      expect(found).toHaveLength(1);
      return found;
    });
    // Named by the checkout's order number, as the shop knows it.
    expect(entry).toMatchObject({
      eventType: 'payment.received',
      currency: 'USD',
      sourceService: 'commerce',
      sourceReference: checkout.order!.orderNumber,
    });
    const lines = entry!.lines.map((line) => [line.accountCode, line.debitMinor, line.creditMinor]);
    expect(lines).toEqual(
      expect.arrayContaining([
        ['1020', 990n, 0n],
        ['4000', 0n, 900n],
        ['2100', 0n, 90n],
      ]),
    );
    const sum = (key: 'debitMinor' | 'creditMinor') => entry!.lines.reduce((total, line) => total + line[key], 0n);
    expect(sum('debitMinor')).toBe(sum('creditMinor'));
    expect(await balances(org)).toMatchObject({ '1020': 990n, '4000': 900n, '2100': 90n });
  });

  it('ignore a duplicate event id, and a second event paying the same checkout', async () => {
    const { org, checkout } = await paidShop();
    const body = sessionCompleted(checkout.publicToken);
    expect((await deliver(org, body)).outcome).toBe('applied');
    // The provider retries with a new timestamp and signature: the same event, already applied.
    const again = await deliver(org, body, { timestamp: Math.floor(Date.now() / 1000) - 5 });
    expect(again).toMatchObject({ outcome: 'applied', duplicate: true });
    const intent = stripeEvent('payment_intent.succeeded', {
      id: 'pi_3QblueBottle',
      object: 'payment_intent',
      amount: 990,
      amount_received: 990,
      currency: 'usd',
      status: 'succeeded',
      metadata: { ctk_checkout: checkout.publicToken },
    });
    expect(await deliver(org, intent)).toMatchObject({ outcome: 'ignored', duplicate: false });
    await eventually(async () => expect(await entries(org)).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await entries(org)).toHaveLength(1);
  });

  it('are counted in ctk_payments_total where commerce decides them: applied, delivered again, refused', async () => {
    const webhooks = async (outcome: string) =>
      (await scrapeMetrics(stack.metricsPort!)).value('ctk_payments_total', { path: 'provider_webhook', outcome }) ?? 0;
    const before = { accepted: await webhooks('accepted'), duplicate: await webhooks('duplicate'), refused: await webhooks('refused') };
    const { org, checkout } = await paidShop();
    const body = sessionCompleted(checkout.publicToken);
    await deliver(org, body);
    await deliver(org, body, { timestamp: Math.floor(Date.now() / 1000) - 5 });
    expect((await failure(deliver(org, body, { secret: 'whsec_not_the_shops' }))).code).toBe('invalid_signature');
    expect(await webhooks('accepted')).toBe(before.accepted + 1);
    expect(await webhooks('duplicate')).toBe(before.duplicate + 1);
    expect(await webhooks('refused')).toBe(before.refused + 1);
  });

  it('refuse a replay: the same delivery, signature and all, sent again', async () => {
    const { org, checkout } = await paidShop();
    const body = sessionCompleted(checkout.publicToken);
    const signature = signPayload(CARD_SECRET, body);
    expect((await deliver(org, body, { signature })).outcome).toBe('applied');
    const replay = await failure(deliver(org, body, { signature }));
    expect(replay).toMatchObject({ code: 'invalid_signature', message: expect.stringContaining('replay') });
  });

  it('deliver concurrently once: of ten deliveries of one event, one applies it', { tags: ['concurrency'] }, async () => {
    const { org, checkout } = await paidShop();
    const body = sessionCompleted(checkout.publicToken);
    // Each attempt signed anew, as a provider signs its retries.
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => deliver(org, body, { timestamp: Math.floor(Date.now() / 1000) - i })),
    );
    expect(answers.filter((answer) => !answer.duplicate)).toHaveLength(1);
    expect(answers.every((answer) => answer.outcome === 'applied')).toBe(true);
    await eventually(async () => expect(await entries(org)).toHaveLength(1));
  });

  it('park an event for a checkout that does not exist, answer it and list it', async () => {
    const { org } = await paidShop();
    const unknown = `cko_${randomBytes(24).toString('base64url')}`;
    const answer = await deliver(org, sessionCompleted(unknown));
    expect(answer).toMatchObject({ outcome: 'parked', duplicate: false });
    expect(answer.reason).toContain(unknown);
    const noMetadata = await deliver(org, sessionCompleted('', { metadata: {} }));
    expect(noMetadata.outcome).toBe('parked');
    const { events } = await stack.client.listProviderEvents({ org, outcome: 'parked', limit: 0, cursor: '' });
    expect(events.map((event) => event.eventId).sort()).toEqual([answer.eventId, noMetadata.eventId].sort());
    expect(events.find((event) => event.eventId === answer.eventId)?.checkoutToken).toBe(unknown);
    // A full page names the next (the events received before its last one); the last page none.
    const first = await stack.client.listProviderEvents({ org, outcome: 'parked', limit: 1, cursor: '' });
    expect(first.nextCursor).toBe(first.events[0]!.receivedAt);
    expect((await stack.client.listProviderEvents({ org, outcome: 'parked', limit: 0, cursor: '' })).nextCursor).toBe('');
    expect(await entries(org)).toEqual([]);
  });

  it("cannot touch another organisation's checkout: its token in our event is parked, our secret on its endpoint refused", async () => {
    const a = await paidShop();
    const bSecret = `whsec_other_shop_${randomBytes(8).toString('hex')}`;
    const b = await paidShop(bSecret);
    expect((await deliver(a.org, sessionCompleted(b.checkout.publicToken))).outcome).toBe('parked');
    const refused = await failure(deliver(b.org, sessionCompleted(b.checkout.publicToken), { secret: CARD_SECRET }));
    expect(refused.code).toBe('invalid_signature');
    const status = await stack.client.getCheckout({ org: b.org, publicToken: b.checkout.publicToken, publicUrl: PUBLIC_URL });
    expect(status.checkout?.status).toBe('pending');
    expect(await entries(b.org)).toEqual([]);
  });

  it('park a payment whose amount or currency is not the checkout’s', async () => {
    const { org, checkout } = await paidShop();
    expect((await deliver(org, sessionCompleted(checkout.publicToken, { amount_total: 900 }))).reason).toContain('990');
    expect((await deliver(org, sessionCompleted(checkout.publicToken, { currency: 'eur' }))).outcome).toBe('parked');
    expect((await stack.client.getCheckout({ org, publicToken: checkout.publicToken, publicUrl: PUBLIC_URL })).checkout?.status).toBe(
      'pending',
    );
  });

  it('refund in parts: each charge.refunded reverses what it adds, tax in proportion, until the whole sale is reversed', async () => {
    const { org, checkout } = await paidShop();
    await deliver(org, sessionCompleted(checkout.publicToken));
    expect((await deliver(org, chargeRefunded(495))).outcome).toBe('applied');
    await eventually(async () => expect(await balances(org)).toMatchObject({ '1020': 495n, '4100': 450n, '2100': 45n }));
    // The same refunded total again (another event about it) refunds nothing more.
    expect((await deliver(org, chargeRefunded(495))).outcome).toBe('ignored');
    expect((await deliver(org, chargeRefunded(990))).outcome).toBe('applied');
    await eventually(async () => expect(await balances(org)).toMatchObject({ '1020': 0n, '4000': 900n, '4100': 900n, '2100': 0n }));
    const refunds = (await entries(org)).filter((entry) => entry.eventType === 'payment.refunded');
    expect(refunds).toHaveLength(2);
    for (const entry of refunds) {
      expect(entry.sourceReference).toBe(checkout.order!.orderNumber);
      const debit = entry.lines.reduce((total, line) => total + line.debitMinor, 0n);
      expect(entry.lines.reduce((total, line) => total + line.creditMinor, 0n)).toBe(debit);
    }
  });

  it('park a payment whose provider id already paid another checkout', async () => {
    const { org, checkout, latte } = await paidShop();
    const second = await openCheckout(org, latte.id);
    expect((await deliver(org, sessionCompleted(checkout.publicToken))).outcome).toBe('applied');
    const answer = await deliver(org, sessionCompleted(second.publicToken));
    expect(answer).toMatchObject({ outcome: 'parked', reason: expect.stringContaining('pi_3QblueBottle') });
  });

  it('apply a refund that arrived before its payment once the payment arrives (providers do not promise order)', async () => {
    const { org, checkout } = await paidShop();
    const early = await deliver(org, chargeRefunded(495));
    expect(early.outcome).toBe('parked');
    expect((await deliver(org, sessionCompleted(checkout.publicToken))).outcome).toBe('applied');
    await eventually(async () => expect(await balances(org)).toMatchObject({ '1020': 495n, '4000': 900n, '4100': 450n, '2100': 45n }));
    const { events } = await stack.client.listProviderEvents({ org, outcome: '', limit: 0, cursor: '' });
    expect(events.find((event) => event.eventId === early.eventId)?.outcome).toBe('applied');
    // The provider's retry of it (signed anew) is a duplicate of an applied event now.
    const retry = await deliver(org, chargeRefunded(495, early.eventId), { timestamp: Math.floor(Date.now() / 1000) - 2 });
    expect(retry).toMatchObject({
      outcome: 'applied',
      duplicate: true,
    });
  });

  it('park a refund of a payment it does not know', async () => {
    const { org } = await paidShop();
    expect((await deliver(org, chargeRefunded(100))).outcome).toBe('parked');
  });

  it('refuse a stale, tampered, unsigned or wrongly signed delivery, changing nothing', async () => {
    const { org, checkout } = await paidShop();
    const body = sessionCompleted(checkout.publicToken);
    const stale = await failure(deliver(org, body, { timestamp: Math.floor(Date.now() / 1000) - 301 }));
    expect(stale.code).toBe('invalid_signature');
    const tampered = await failure(
      deliver(org, body.replace('"amount_total":990', '"amount_total":1'), { signature: signPayload(CARD_SECRET, body) }),
    );
    expect(tampered.code).toBe('invalid_signature');
    expect((await failure(deliver(org, body, { signature: '' }))).code).toBe('invalid_signature');
    expect((await failure(deliver(org, body, { secret: WALLET_SECRET }))).code).toBe('invalid_signature');
    expect((await stack.client.listProviderEvents({ org, outcome: '', limit: 0, cursor: '' })).events).toEqual([]);
  });

  it('refuse events while no secret is set, naming the route that sets it', async () => {
    const org = await stack.walletOrg();
    const refused = await failure(deliver(org, sessionCompleted('cko_x')));
    expect(refused.code).toBe('failed_precondition');
    expect(refused.message).toContain(`PUT /api/v1/orgs/${org.handle}/payment-providers/card-provider`);
  });
});

describe('provider secrets', () => {
  it('are never answered: the last 4 characters only', async () => {
    const org = await stack.walletOrg();
    const { account } = await stack.client.setProviderSecret({ org, provider: 'card-provider', webhookSecret: CARD_SECRET });
    expect(account).toMatchObject({ provider: 'card-provider', secretLast4: CARD_SECRET.slice(-4) });
    expect(account!.previousValidUntil).toBeUndefined();
    expect(JSON.stringify(account)).not.toContain(CARD_SECRET);
  });

  it('rotate: the previous secret still verifies for a day beside the new one', async () => {
    const { org, checkout } = await paidShop();
    const next = 'whsec_blue_bottle_rotated_77aa01fe';
    const { account } = await stack.client.setProviderSecret({ org, provider: 'card-provider', webhookSecret: next });
    expect(Date.parse(account!.previousValidUntil!)).toBeGreaterThan(Date.now() + 23 * 3600_000);
    expect((await deliver(org, sessionCompleted(checkout.publicToken), { secret: CARD_SECRET })).outcome).toBe('applied');
    expect((await deliver(org, chargeRefunded(10), { secret: next })).outcome).toBe('applied');
  });

  it('refuse a short secret or an unknown provider with a named field', async () => {
    const org = await stack.walletOrg();
    expect((await failure(stack.client.setProviderSecret({ org, provider: 'card-provider', webhookSecret: 'short' }))).code).toBe(
      'validation_failed',
    );
    expect((await failure(stack.client.setProviderSecret({ org, provider: 'paypal', webhookSecret: CARD_SECRET }))).code).toBe(
      'validation_failed',
    );
  });
});

describe('wallet provider events', () => {
  it('pay and refund a checkout with their own signature header scheme and body', async () => {
    const { org, checkout } = await paidShop();
    const payment = (type: string, refunded = 0) =>
      JSON.stringify({
        id: eventId(),
        type,
        created: Math.floor(Date.now() / 1000),
        data: {
          payment_id: 'wp_9f2c1a',
          amount_minor: 990,
          currency: 'USD',
          refunded_minor: refunded,
          metadata: { ctk_checkout: checkout.publicToken },
        },
      });
    expect(await deliver(org, payment('payment.completed'), { provider: 'wallet-provider' })).toMatchObject({ outcome: 'applied' });
    expect((await failure(deliver(org, payment('payment.completed'), { provider: 'wallet-provider', secret: CARD_SECRET }))).code).toBe(
      'invalid_signature',
    );
    expect((await deliver(org, payment('payment.refunded', 990), { provider: 'wallet-provider' })).outcome).toBe('applied');
    await eventually(async () => expect(await balances(org)).toMatchObject({ '1020': 0n, '4100': 900n }));
  });
});
