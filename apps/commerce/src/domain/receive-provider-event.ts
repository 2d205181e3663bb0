import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import type { Order } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError, isUniqueViolation, orgOf, type Org } from '@ctk/shared';
import { PUBLIC_TOKEN } from '../checkouts/public-token.js';
import type { Checkout } from '../data/checkout-repository.js';
import type { NewProviderEvent } from '../data/provider-payment-repository.js';
import type { ProviderContext } from '../providers/provider-context.js';
import { readNotice, type ProviderNotice } from '../providers/provider-notice.js';
import { providerPaidEvent, providerRefundedEvent, refundFigures } from '../providers/provider-payment-events.js';
import { isProvider, SIGNATURE_HEADERS, type Provider } from '../providers/providers.js';
import { openSecret, secretOwner } from '../providers/sealed-secret.js';
import { verifySignature } from '../providers/webhook-signature.js';

export type EventOutcome = 'applied' | 'parked' | 'ignored';
export type ReceivedEvent = { eventId: string; eventType: string; outcome: EventOutcome; duplicate: boolean; reason: string };

/**
 * A provider's webhook delivery for an organisation (decision 0019): the signature checked over the raw
 * body with the organisation's secret, then the event applied once. A payment marks its checkout paid and
 * posts `payment.received` to the provider clearing account; a refund posts `payment.refunded`. An event
 * naming no checkout of the organisation is parked: kept, listed, answered 2xx so the provider stops retrying.
 */
export async function receiveProviderEvent(
  context: ProviderContext,
  orgRef: OrgRef | undefined,
  request: { provider: string; payload: Uint8Array; signature: string; publicUrl: string },
): Promise<ReceivedEvent> {
  const org = orgOf(orgRef);
  const provider = request.provider;
  if (!isProvider(provider)) throw new AppError('validation_failed', `No provider "${provider}"`, { field: 'provider' });
  const signature = await verify(context, org, provider, request);
  const notice = readNotice(provider, request.payload);
  // Two deliveries of one event at once: the second's insert fails on the unique event id, and is read again.
  for (let attempt = 0; ; attempt++) {
    const seen = await context.payments.event(org.id, provider, notice.eventId);
    // A provider signs each attempt anew: the very same signature again is someone replaying a delivery.
    if (seen?.signature === signature) throw new AppError('invalid_signature', 'This delivery was received before (a replay).');
    if (seen) return { ...summary(notice, seen.outcome as EventOutcome, seen.reason), duplicate: true };
    try {
      const applied = await apply(context, { org, orgRef: orgRef as OrgRef }, provider, notice, { ...request, signature });
      return { ...applied, duplicate: false };
    } catch (error) {
      if (!isUniqueViolation(error) || attempt > 0) throw error;
    }
  }
}

async function verify(context: ProviderContext, org: Org, provider: Provider, request: { payload: Uint8Array; signature: string }) {
  const account = await context.accounts.get(org.id, provider);
  if (!account) {
    throw new AppError(
      'failed_precondition',
      `No webhook secret is set for the ${provider} in this organisation: an admin sets it with PUT /api/v1/orgs/${org.handle}/payment-providers/${provider}`,
    );
  }
  const key = await context.secretsKey();
  const owner = secretOwner(org.id, provider);
  const now = context.now();
  const previousValid = account.previousSecretSealed && account.previousValidUntil && account.previousValidUntil > now;
  const secrets = [account.secretSealed, ...(previousValid ? [account.previousSecretSealed!] : [])]
    .map((sealed) => openSecret(key, owner, sealed))
    .filter((secret): secret is string => secret !== undefined);
  if (secrets.length === 0) {
    context.logger.error({ organizationId: org.id, provider }, 'the provider secret cannot be opened (COMMERCE_SECRETS_KEY changed?)');
  }
  return verifySignature({
    header: request.signature,
    headerName: SIGNATURE_HEADERS[provider],
    rawBody: request.payload,
    secrets,
    toleranceSeconds: context.toleranceSeconds,
    now,
  });
}

async function apply(
  context: ProviderContext,
  { org, orgRef }: { org: Org; orgRef: OrgRef },
  provider: Provider,
  notice: ProviderNotice,
  request: { payload: Uint8Array; publicUrl: string; signature: string },
): Promise<Omit<ReceivedEvent, 'duplicate'>> {
  const checkout = PUBLIC_TOKEN.test(notice.checkoutToken) ? await context.checkouts.byToken(org.id, notice.checkoutToken) : null;
  const event: NewProviderEvent = {
    organizationId: org.id,
    provider,
    eventId: notice.eventId,
    eventType: notice.eventType,
    checkoutToken: notice.checkoutToken,
    checkoutId: checkout?.id ?? null,
    payload: Uint8Array.from(request.payload),
    signature: request.signature,
    receivedAt: context.now(),
  };
  const note = async (outcome: 'parked' | 'ignored', reason: string) => {
    await context.payments.note(event, outcome, reason);
    if (outcome === 'parked')
      context.logger.warn({ organizationId: org.id, provider, eventId: notice.eventId, reason }, 'provider event parked');
    return summary(notice, outcome, reason);
  };
  if (notice.kind === 'ignored') return note('ignored', notice.reason);
  if (notice.kind === 'refund') {
    const payment = await context.payments.byRef(org.id, provider, notice.paymentRef);
    if (!payment) return note('parked', `no ${provider} payment ${notice.paymentRef} of this organisation to refund`);
    if (payment.currency !== notice.currency)
      return note('parked', `the refund is in ${notice.currency}, the payment in ${payment.currency}`);
    const result = await applyRefund(context, { ...event, checkoutId: payment.checkoutId }, payment.id, notice.refundedMinor);
    return summary(notice, result.outcome, result.reason);
  }
  if (!checkout) {
    const reason = notice.checkoutToken
      ? `no checkout ${notice.checkoutToken} in this organisation`
      : 'the event names no checkout (metadata.ctk_checkout)';
    return note('parked', reason);
  }
  const mismatch = amountMismatch(checkout, notice);
  if (mismatch) return note('parked', mismatch);
  const order = await readOrder(context, checkout, request.publicUrl);
  // The shopper paid the order in bitcoin too: booking this would count the sale twice; the merchant refunds one.
  if (order && (order.paidSatoshis > 0n || order.status === 'paid' || order.status === 'confirmed'))
    return note('parked', `the checkout's order is already paid in bitcoin (${order.paidSatoshis} satoshis)`);
  const paidAt = context.now();
  const result = await context.payments.pay(
    event,
    {
      organizationId: org.id,
      checkoutId: checkout.id,
      provider,
      paymentRef: notice.paymentRef,
      currency: checkout.currency,
      amountMinor: checkout.totalMinor,
      taxMinor: checkout.taxMinor,
      paidAt,
      updatedAt: paidAt,
    },
    (paymentId) => providerPaidEvent({ paymentId, checkout, order, provider, paymentRef: notice.paymentRef, paidAt }),
  );
  if (result.outcome === 'applied') {
    context.eventsCommitted();
    // Its seats are sold now, while its hold still stands (or, paid late, only if they are still free).
    if (checkout.kind === 'tickets') await context.tickets.sell(checkout.id, org.id, paidAt);
    await releaseOrder(context, orgRef, checkout, request.publicUrl);
    await applyParkedRefunds(context, org, provider, notice.paymentRef);
  }
  return summary(notice, result.outcome, result.reason);
}

async function applyRefund(context: ProviderContext, event: NewProviderEvent, paymentId: string, refundedMinor: bigint, parkedId?: string) {
  const now = context.now();
  const result = await context.payments.refund(
    event,
    paymentId,
    (locked) => refundFigures(locked, refundedMinor),
    (updated, figures) => providerRefundedEvent(updated, figures, now),
    now,
    parkedId,
  );
  if (result.outcome === 'applied') context.eventsCommitted();
  return result;
}

/**
 * Providers do not promise order: a refund may arrive before the payment it refunds, and is parked. Once
 * the payment is applied, its parked refunds are applied in the order received.
 */
async function applyParkedRefunds(context: ProviderContext, org: Org, provider: Provider, paymentRef: string) {
  const payment = await context.payments.byRef(org.id, provider, paymentRef);
  if (!payment) return;
  for (const parked of await context.payments.parked(org.id, provider)) {
    let notice: ProviderNotice;
    try {
      notice = readNotice(provider, parked.payload);
    } catch {
      continue;
    }
    if (notice.kind !== 'refund' || notice.paymentRef !== paymentRef || notice.currency !== payment.currency) continue;
    const event = { ...parked, checkoutId: payment.checkoutId };
    const result = await applyRefund(context, event, payment.id, notice.refundedMinor, parked.id);
    context.logger.info({ organizationId: org.id, provider, eventId: parked.eventId, outcome: result.outcome }, 'parked refund applied');
  }
}

function amountMismatch(checkout: Checkout, notice: { amountMinor: bigint; currency: string }): string {
  if (notice.currency !== checkout.currency) return `the payment is in ${notice.currency}, the checkout in ${checkout.currency}`;
  if (notice.amountMinor !== checkout.totalMinor)
    return `the payment is ${notice.amountMinor}, the checkout's total ${checkout.totalMinor}`;
  return '';
}

/** The order's lines for the books; without them (pos unreachable) the entry is posted without lines. */
async function readOrder(context: ProviderContext, checkout: Checkout, publicUrl: string): Promise<Order | undefined> {
  try {
    return (await context.pos.getOrder({ orderNumber: checkout.orderNumber, publicUrl })).order;
  } catch (error) {
    context.logger.warn({ err: error, orderNumber: checkout.orderNumber }, 'the order could not be read for its lines');
    return undefined;
  }
}

/**
 * The pos order will not be paid in bitcoin now: it is cancelled, which releases its receiving output.
 * Best effort: the status route tries again while the order is still open.
 */
export async function releaseOrder(context: Pick<ProviderContext, 'pos' | 'logger'>, org: OrgRef, checkout: Checkout, publicUrl: string) {
  try {
    await context.pos.cancelOrder({ org, orderNumber: checkout.orderNumber, publicUrl });
  } catch (error) {
    context.logger.warn(
      { err: error, orderNumber: checkout.orderNumber },
      'the order of a checkout paid through a provider was not cancelled',
    );
  }
}

function summary(notice: ProviderNotice, outcome: EventOutcome, reason: string): Omit<ReceivedEvent, 'duplicate'> {
  return { eventId: notice.eventId, eventType: notice.eventType, outcome, reason };
}
