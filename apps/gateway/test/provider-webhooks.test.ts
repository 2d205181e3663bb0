import { createHmac, randomBytes } from 'node:crypto';
import { eventually } from '@ctk/shared/testing';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, type Onboarded } from './harness.js';
import { startOrderStack } from './order-harness.js';
import { expectError, uniqueName } from './support.js';

/*
 * Provider payments through the gateway, commerce, pos and books (decision 0019): a card provider's events
 * signed exactly as Stripe signs them, over the raw body as Stripe sends it (pretty-printed JSON).
 */

let stack: Awaited<ReturnType<typeof startOrderStack>>;
beforeAll(async () => {
  stack = await startOrderStack({ commerce: true });
}, 90_000);
afterAll(() => stack?.close());

const inject = (options: InjectOptions) => stack.gateway.app.inject(options);

/** Stripe's scheme, by hand: v1 = HMAC-SHA256(secret, "<t>." + raw body). */
const stripeSignature = (secret: string, body: string, t = Math.floor(Date.now() / 1000)) =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;

type Shop = Onboarded & { secret: string; commerceKey: string; latteId: string };

async function shop(label: string): Promise<Shop> {
  const owner = await stack.walletOrg(uniqueName(label));
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const set = await inject({
    method: 'PUT',
    url: `/api/v1/orgs/${owner.handle}/payment-providers/card-provider`,
    headers: bearer(owner.key),
    payload: { webhook_secret: secret },
  });
  expect(set.statusCode).toBe(200);
  const item = await inject({
    method: 'POST',
    url: `/api/v1/orgs/${owner.handle}/items`,
    headers: bearer(owner.key),
    payload: { name: 'Latte', price_cents: 450, tax_treatment: 'reduced', tax_rate: '0.1' },
  });
  const key = await inject({ method: 'POST', url: `/api/v1/orgs/${owner.handle}/commerce-key`, headers: bearer(owner.key) });
  return { ...owner, secret, commerceKey: key.json().commerce_public_key, latteId: item.json().id };
}

async function checkout(shop: Shop): Promise<{ public_token: string; total_minor: number; tax_minor: number }> {
  const created = await inject({
    method: 'POST',
    url: `/api/v1/commerce/${shop.handle}/checkout`,
    headers: { 'x-commerce-key': shop.commerceKey },
    payload: { lines: [{ item_id: shop.latteId, quantity: 2 }] },
  });
  expect(created.statusCode).toBe(201);
  return created.json();
}

/** A Stripe event as Stripe sends it: JSON with two-space indentation. */
function stripeEvent(type: string, object: Record<string, unknown>) {
  const id = `evt_${randomBytes(12).toString('hex')}`;
  return JSON.stringify(
    { id, object: 'event', api_version: '2025-01-27.acacia', created: 1763900000, livemode: false, type, data: { object } },
    null,
    2,
  );
}

/** Each checkout's payment has its own PaymentIntent. */
const intentOf = (token: string) => `pi_${token.slice(4, 20)}`;

const completed = (token: string, amount: number) =>
  stripeEvent('checkout.session.completed', {
    id: 'cs_test_blue',
    object: 'checkout.session',
    amount_total: amount,
    currency: 'usd',
    payment_intent: intentOf(token),
    payment_status: 'paid',
    metadata: { ctk_checkout: token },
  });

const deliver = (shop: Pick<Shop, 'handle'>, body: string, signature: string | undefined) =>
  inject({
    method: 'POST',
    url: `/api/webhooks/card-provider?org=${shop.handle}`,
    headers: { 'content-type': 'application/json; charset=utf-8', ...(signature ? { 'stripe-signature': signature } : {}) },
    payload: body,
  });

const ledger = async (shop: Shop) =>
  (await inject({ method: 'GET', url: `/api/v1/orgs/${shop.handle}/ledger`, headers: bearer(shop.key) })).json().data as {
    event_type: string;
    source_service: string;
    lines: { account_code: string; debit_minor: number; credit_minor: number }[];
  }[];

let cafe: Shop;
beforeAll(async () => {
  cafe = await shop('Blue Bottle Cafe');
}, 30_000);

describe('the card provider webhook', () => {
  it('takes a Stripe-signed checkout.session.completed: the checkout is paid, the sale in the books at 1020', async () => {
    const created = await checkout(cafe);
    const body = completed(created.public_token, created.total_minor);
    const answer = await deliver(cafe, body, stripeSignature(cafe.secret, body));
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ received: true, outcome: 'applied', duplicate: false, event_type: 'checkout.session.completed' });

    const status = await inject({
      method: 'GET',
      url: `/api/v1/commerce/${cafe.handle}/checkout/${created.public_token}/status`,
      headers: { 'x-commerce-key': cafe.commerceKey },
    });
    expect(status.json()).toMatchObject({ status: 'paid', due_satoshis: 0, paid_at: expect.any(String) });

    const entry = await eventually(async () => {
      const found = (await ledger(cafe)).find((candidate) => candidate.source_service === 'commerce');
      expect(found).toBeDefined();
      return found!;
    });
    const line = (code: string) => entry.lines.find((candidate) => candidate.account_code === code);
    expect(line('1020')?.debit_minor).toBe(created.total_minor);
    expect(line('2100')?.credit_minor).toBe(created.tax_minor);
    expect(line('4000')?.credit_minor).toBe(created.total_minor - created.tax_minor);
    expect(entry.lines.reduce((sum, l) => sum + l.debit_minor - l.credit_minor, 0)).toBe(0);
  });

  it('verifies over the raw bytes: the same event re-serialised, or tampered, is refused', async () => {
    const created = await checkout(cafe);
    const body = completed(created.public_token, created.total_minor);
    // One time for every signature of the one header below (a second may pass between the deliveries).
    const signedAt = Math.floor(Date.now() / 1000);
    const signature = stripeSignature(cafe.secret, body, signedAt);
    expectError(await deliver(cafe, JSON.stringify(JSON.parse(body)), signature), 401, 'invalid_signature');
    expectError(
      await deliver(cafe, body.replace(`"amount_total": ${created.total_minor}`, '"amount_total": 1'), signature),
      401,
      'invalid_signature',
    );
    expectError(await deliver(cafe, body, undefined), 401, 'invalid_signature');
    expectError(
      await deliver(cafe, body, stripeSignature(cafe.secret, body, Math.floor(Date.now() / 1000) - 301)),
      401,
      'invalid_signature',
    );
    expectError(
      await deliver(cafe, body, stripeSignature(`whsec_${randomBytes(24).toString('base64url')}`, body)),
      401,
      'invalid_signature',
    );
    // Secret rotation at the provider: one of several v1 signatures matching is enough.
    const rolled = `${stripeSignature('whsec_the_old_one_0123456789abcdef', body, signedAt)},v1=${signature.split('v1=')[1]}`;
    expect((await deliver(cafe, body, rolled)).json()).toMatchObject({ outcome: 'applied' });
    // The very same delivery again is a replay; the provider's retry, signed anew, a duplicate.
    expectError(await deliver(cafe, body, rolled), 401, 'invalid_signature');
    expect((await deliver(cafe, body, stripeSignature(cafe.secret, body, Math.floor(Date.now() / 1000) - 60))).json()).toMatchObject({
      outcome: 'applied',
      duplicate: true,
    });
  });

  it("parks an event naming another organisation's checkout, which stays pending; the admin lists it", async () => {
    const other = await shop('Other Roaster');
    const theirs = await checkout(other);
    const body = completed(theirs.public_token, theirs.total_minor);
    const answer = await deliver(cafe, body, stripeSignature(cafe.secret, body));
    expect(answer.json()).toMatchObject({ outcome: 'parked', duplicate: false });
    const status = await inject({
      method: 'GET',
      url: `/api/v1/commerce/${other.handle}/checkout/${theirs.public_token}/status`,
      headers: { 'x-commerce-key': other.commerceKey },
    });
    expect(status.json().status).toBe('pending');
    const parked = await inject({
      method: 'GET',
      url: `/api/v1/orgs/${cafe.handle}/payment-providers/events?outcome=parked`,
      headers: bearer(cafe.key),
    });
    expect(parked.statusCode).toBe(200);
    expect(parked.json().data.map((event: { event_id: string }) => event.event_id)).toContain(answer.json().event_id);
    expect(
      (await inject({ method: 'GET', url: `/api/v1/orgs/${other.handle}/payment-providers/events`, headers: bearer(other.key) })).json()
        .data,
    ).toEqual([]);
  });

  it('reverses the sale with charge.refunded', async () => {
    const shopOfRefunds = await shop('Refund Roaster');
    const created = await checkout(shopOfRefunds);
    const paid = completed(created.public_token, created.total_minor);
    await deliver(shopOfRefunds, paid, stripeSignature(shopOfRefunds.secret, paid));
    const refund = stripeEvent('charge.refunded', {
      id: 'ch_blue',
      object: 'charge',
      amount: created.total_minor,
      amount_refunded: created.total_minor,
      currency: 'usd',
      payment_intent: intentOf(created.public_token),
      refunded: true,
    });
    expect((await deliver(shopOfRefunds, refund, stripeSignature(shopOfRefunds.secret, refund))).json().outcome).toBe('applied');
    const entries = await eventually(async () => {
      const found = await ledger(shopOfRefunds);
      expect(found.map((entry) => entry.event_type).sort()).toEqual(['payment.received', 'payment.refunded']);
      return found;
    });
    const clearing = entries.flatMap((entry) => entry.lines).filter((line) => line.account_code === '1020');
    expect(clearing.reduce((sum, line) => sum + line.debit_minor - line.credit_minor, 0)).toBe(0);
  });
});

describe('the wallet provider webhook', () => {
  it('takes a payment.completed signed with X-Wallet-Provider-Signature under the wallet secret, not the card one', async () => {
    const walletShop = await shop('Wallet Roaster');
    const secret = `wps_${randomBytes(24).toString('base64url')}`;
    await inject({
      method: 'PUT',
      url: `/api/v1/orgs/${walletShop.handle}/payment-providers/wallet-provider`,
      headers: bearer(walletShop.key),
      payload: { webhook_secret: secret },
    });
    const created = await checkout(walletShop);
    const body = JSON.stringify({
      id: `wpe_${randomBytes(8).toString('hex')}`,
      type: 'payment.completed',
      created: Math.floor(Date.now() / 1000),
      data: { payment_id: 'wp_1', amount_minor: created.total_minor, currency: 'USD', metadata: { ctk_checkout: created.public_token } },
    });
    const send = (signature: string) =>
      inject({
        method: 'POST',
        url: `/api/webhooks/wallet-provider?org=${walletShop.handle}`,
        headers: { 'content-type': 'application/json', 'x-wallet-provider-signature': signature },
        payload: body,
      });
    expectError(await send(stripeSignature(walletShop.secret, body)), 401, 'invalid_signature');
    const answer = await send(stripeSignature(secret, body));
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ outcome: 'applied', event_type: 'payment.completed' });
    await eventually(async () => expect((await ledger(walletShop)).map((entry) => entry.source_service)).toEqual(['commerce']));
  });
});

describe('provider secrets', () => {
  it('are set by an admin, answered with their last 4 characters and the webhook URL only; staff may not', async () => {
    const admin = await addMember(stack.gateway, cafe, 'admin');
    const secret = `whsec_${randomBytes(24).toString('base64url')}`;
    const set = await inject({
      method: 'PUT',
      url: `/api/v1/orgs/${cafe.handle}/payment-providers/wallet-provider`,
      headers: bearer(admin.key),
      payload: { webhook_secret: secret },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({
      provider: 'wallet-provider',
      secret_last4: secret.slice(-4),
      webhook_url: expect.stringMatching(new RegExp(`/api/webhooks/wallet-provider\\?org=${cafe.handle}$`)),
      previous_secret_valid_until: null,
      updated_at: expect.any(String),
    });
    expect(set.body).not.toContain(secret);
    const staff = await addMember(stack.gateway, cafe, 'staff');
    const refused = await inject({
      method: 'PUT',
      url: `/api/v1/orgs/${cafe.handle}/payment-providers/wallet-provider`,
      headers: bearer(staff.key),
      payload: { webhook_secret: secret },
    });
    expectError(refused, 403, 'forbidden');
    expectError(
      await inject({
        method: 'PUT',
        url: `/api/v1/orgs/${cafe.handle}/payment-providers/wallet-provider`,
        headers: bearer(admin.key),
        payload: { webhook_secret: 'short' },
      }),
      422,
      'validation_failed',
    );
  });
});
