// A card payment taken by the merchant's own card provider and reported by its webhook (decision 0019): the
// shopper's browser opens a checkout with the commerce key; the provider charges the card and delivers
// payment_intent.succeeded, naming the checkout in metadata.ctk_checkout, to POST /api/webhooks/card-provider
// ?org=<handle>, signed as Stripe signs (Stripe-Signature over the raw body, under the secret the merchant
// saved). Accepted on the webhook's 2xx, which stops a provider's redeliveries. Commerce posts payment.received
// with its checkout's id as the source. A ticket checkout, since an item checkout's id is in no API answer.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { onboardCafe } from '../../support.js';
import { call, HttpError, retried, type Bench, type Json, type PaymentPath } from '../path.js';

const MERCHANTS = 5;

type Merchant = { handle: string; key: string; commerceKey: string; ticketTypeId: string; secret: string };
const merchants: Merchant[] = [];

/**
 * A cafe selling tickets online, paid by card at its provider: onboarded with a wallet, its commerce key, a
 * night of a million standing places (a checkout's seats are held until paid), and its provider's signing secret.
 */
async function onboardMerchant(bench: Bench, n: number): Promise<Merchant> {
  const { handle, owner } = await onboardCafe(bench.base, `Card Cafe ${randomUUID().slice(0, 8)} ${n}`, []);
  const orgs = `${bench.base}/api/v1/orgs/${handle}`;
  const made: Json = await call('the commerce key', 'POST', `${orgs}/commerce-key`, {}, owner, 201);
  const night = { name: 'Jazz night', starts_at: '2099-01-01T20:00:00Z', ends_at: '2099-01-01T23:00:00Z', venue: 'The cafe' };
  const standing = { name: 'Standing', price_minor: 1500, currency: 'USD', capacity: 1_000_000 };
  const catalog: Json = await call(
    'the tickets',
    'PUT',
    `${orgs}/tickets/catalog`,
    { events: [{ ...night, ticket_types: [standing] }] },
    owner,
  );
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  await call('the provider secret', 'PUT', `${orgs}/payment-providers/card-provider`, { webhook_secret: secret }, owner);
  return {
    handle,
    key: owner.authorization.slice('Bearer '.length),
    commerceKey: made.commerce_public_key,
    ticketTypeId: catalog.events[0].ticket_types[0].id,
    secret,
  };
}

/**
 * The checkout's id, which the books take as the payment's source: the merchant's ticket orders (newest
 * first) list it beside its order number.
 */
async function checkoutId(bench: Bench, merchant: Merchant, orderNumber: string): Promise<string> {
  let cursor = '';
  do {
    const page: Json = await retried('the ticket orders', () =>
      call(
        'the ticket orders',
        'GET',
        `${bench.base}/api/v1/orgs/${merchant.handle}/tickets/orders?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        undefined,
        { authorization: `Bearer ${merchant.key}` },
      ),
    );
    const found = (page.data as Json[]).find((order) => order.order_number === orderNumber);
    if (found) return found.id;
    cursor = page.next_cursor ?? '';
  } while (cursor);
  throw new Error(`no ticket order ${orderNumber} of ${merchant.handle}`);
}

/** Stripe's event for a PaymentIntent paid, pretty-printed as Stripe sends it. */
function paymentIntentSucceeded(checkout: Json): string {
  const created = Math.floor(Date.now() / 1000);
  const intent = {
    id: `pi_${randomBytes(12).toString('hex')}`,
    object: 'payment_intent',
    amount: checkout.total_minor,
    amount_received: checkout.total_minor,
    currency: String(checkout.currency).toLowerCase(),
    status: 'succeeded',
    created,
    metadata: { ctk_checkout: checkout.public_token },
  };
  const event = {
    id: `evt_${randomBytes(12).toString('hex')}`,
    object: 'event',
    api_version: '2025-01-27.acacia',
    created,
    livemode: false,
    type: 'payment_intent.succeeded',
    data: { object: intent },
  };
  return JSON.stringify(event, null, 2);
}

/**
 * A provider delivering one event until it is answered 2xx: the same body each time, each attempt signed anew
 * (Stripe's t= is the attempt's time). The same signature twice is refused as a replay (401), and a second
 * can hold two attempts, so each attempt's t is past the one before.
 */
function deliverer(bench: Bench, merchant: Merchant, body: string) {
  let signedAt = 0;
  return async (): Promise<Json> => {
    signedAt = Math.max(Math.floor(Date.now() / 1000), signedAt + 1);
    const v1 = createHmac('sha256', merchant.secret).update(`${signedAt}.`).update(body).digest('hex');
    const response = await fetch(`${bench.base}/api/webhooks/card-provider?org=${merchant.handle}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': `t=${signedAt},v1=${v1}` },
      body,
    });
    const text = await response.text();
    if (response.status < 200 || response.status >= 300) throw new HttpError('the card-provider webhook', response.status, text);
    return JSON.parse(text);
  };
}

export const path: PaymentPath = {
  name: 'provider-webhook',

  async setup(bench) {
    for (let n = 0; n < MERCHANTS; n++) merchants.push(await onboardMerchant(bench, n));
  },

  async pay(bench, n) {
    const merchant = merchants[n % merchants.length]!;
    // The shopper's one checkout, however often the browser retries.
    const idempotencyKey = randomUUID();
    const checkout: Json = await retried('the ticket checkout', () =>
      call(
        'the ticket checkout',
        'POST',
        `${bench.base}/api/v1/commerce/${merchant.handle}/tickets/checkout`,
        { lines: [{ ticket_type_id: merchant.ticketTypeId, quantity: 1 }] },
        { 'x-commerce-key': merchant.commerceKey, 'idempotency-key': idempotencyKey },
        201,
      ),
    );
    const sourceId = await checkoutId(bench, merchant, checkout.order_number);
    await retried('the card-provider webhook', deliverer(bench, merchant, paymentIntentSucceeded(checkout)));
    return { path: 'provider-webhook', org: merchant.handle, key: merchant.key, eventType: 'payment.received', sourceId };
  },
};
