import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import type { Order } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError, countPayment, isUniqueViolation, orgOf, type Org } from '@ctk/shared';
import { PUBLIC_TOKEN } from '../checkouts/public-token.js';
import type { Checkout } from '../data/checkout-repository.js';
import type { NewProviderEvent, ProviderEvent } from '../data/provider-payment-repository.js';
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
 * Each delivery of a payment or a refund is counted in ctk_payments_total (path provider_webhook): accepted
 * (applied), duplicate (delivered again), refused (parked, or refused: a bad signature, a replay) or error.
 */
export function receiveProviderEvent(
  context: ProviderContext,
  orgRef: OrgRef | undefined,
  request: { provider: string; payload: Uint8Array; signature: string; publicUrl: string },
): Promise<ReceivedEvent> {
  return countPayment(
    'provider_webhook',
    () => receive(context, orgRef, request),
    (received) =>
      received.outcome === 'ignored'
        ? undefined
        : received.duplicate
          ? 'duplicate'
          : received.outcome === 'applied'
            ? 'accepted'
            : 'refused',
  );
}

async function receive(
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
    // A parked event delivered again is applied again (pos may answer now, its checkout may exist now).
    if (seen?.outcome === 'parked') {
      const again = await applyParked(context, { org, orgRef: orgRef as OrgRef }, seen, request.publicUrl);
      return { ...summary(notice, again.outcome as EventOutcome, again.reason), duplicate: again.outcome === 'parked' };
    }
    if (seen) return { ...summary(notice, seen.outcome as EventOutcome, seen.reason), duplicate: true };
    try {
      const event = newEvent(org, provider, notice, { ...request, signature }, context.now());
      const applied = await apply(context, { org, orgRef: orgRef as OrgRef }, provider, notice, event, request.publicUrl);
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

/** What is recorded of a verified delivery, whatever becomes of it. */
function newEvent(
  org: Org,
  provider: Provider,
  notice: ProviderNotice,
  request: { payload: Uint8Array; signature: string },
  receivedAt: Date,
): NewProviderEvent {
  return {
    organizationId: org.id,
    provider,
    eventId: notice.eventId,
    eventType: notice.eventType,
    checkoutToken: notice.checkoutToken,
    checkoutId: null,
    payload: Uint8Array.from(request.payload),
    signature: request.signature,
    receivedAt,
  };
}

/**
 * A parked event applied again, exactly as its delivery was (its stored raw body, verified when it came):
 * by the provider's redelivery, or an admin (apply-provider-event.ts). Its row is updated, only while it is
 * still parked, so concurrent attempts apply it once. Answers the row as it then is.
 */
export async function applyParked(
  context: ProviderContext,
  orgs: { org: Org; orgRef: OrgRef },
  parked: ProviderEvent,
  publicUrl: string,
): Promise<ProviderEvent> {
  const provider = parked.provider as Provider;
  const notice = readNotice(provider, parked.payload);
  const { id, outcome: _outcome, reason: _reason, ...event } = parked;
  await apply(context, orgs, provider, notice, event, publicUrl, id);
  return (await context.payments.byId(orgs.org.id, id)) ?? parked;
}

async function apply(
  context: ProviderContext,
  { org, orgRef }: { org: Org; orgRef: OrgRef },
  provider: Provider,
  notice: ProviderNotice,
  received: NewProviderEvent,
  publicUrl: string,
  parkedId?: string,
): Promise<Omit<ReceivedEvent, 'duplicate'>> {
  const checkout = PUBLIC_TOKEN.test(notice.checkoutToken) ? await context.checkouts.byToken(org.id, notice.checkoutToken) : null;
  const event: NewProviderEvent = { ...received, checkoutId: checkout?.id ?? null };
  const note = async (outcome: 'parked' | 'ignored', reason: string) => {
    await context.payments.note(event, outcome, reason, parkedId);
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
    const result = await applyRefund(context, { ...event, checkoutId: payment.checkoutId }, payment.id, notice.refundedMinor, parkedId);
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
  const sameRef = await context.payments.byRef(org.id, provider, notice.paymentRef);
  if (sameRef && sameRef.checkoutId !== checkout.id)
    return note('parked', `${provider} payment ${notice.paymentRef} already paid another checkout`);
  // pos decides, under the order's lock every bitcoin payment takes, which of the two payments counts. Only
  // a checkout not yet paid through a provider asks (a second event of its payment is ignored below).
  let order: Order | undefined;
  if (!(await context.payments.byCheckout(checkout.id))) {
    const decided = await markPaidElsewhere(context, orgRef, checkout, { provider, paymentRef: notice.paymentRef, publicUrl });
    if ('refused' in decided) return note('parked', decided.refused);
    if ('unavailable' in decided) {
      await note('parked', decided.unavailable);
      throw new AppError('unavailable', `${decided.unavailable}; deliver the event again (it is kept parked meanwhile)`);
    }
    order = decided.order;
  }
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
    parkedId,
  );
  if (result.outcome === 'applied') {
    context.eventsCommitted();
    // Its seats are sold now, while its hold still stands (or, paid late, only if they are still free).
    if (checkout.kind === 'tickets') await context.tickets.sell(checkout.id, org.id, paidAt);
    await applyParkedRefunds(context, org, provider, notice.paymentRef);
  }
  return summary(notice, result.outcome, result.reason);
}

/**
 * Asks pos to mark the checkout's order paid at the provider (pos's MarkOrderPaidElsewhere). pos refuses
 * an order already paid in bitcoin (the card payment is then the one to refund), cancelled or not found;
 * when pos cannot be asked, nothing is applied blind.
 */
async function markPaidElsewhere(
  context: Pick<ProviderContext, 'pos' | 'logger'>,
  org: OrgRef,
  checkout: Checkout,
  payment: { provider: string; paymentRef: string; publicUrl: string },
): Promise<{ order: Order } | { refused: string } | { unavailable: string }> {
  try {
    const { order } = await context.pos.markOrderPaidElsewhere({ org, orderNumber: checkout.orderNumber, ...payment });
    if (!order) throw new AppError('internal', 'pos answered without the order');
    return { order };
  } catch (error) {
    if (error instanceof AppError && REFUSALS.has(error.code)) return { refused: `pos refused: ${error.message}` };
    context.logger.warn({ err: error, orderNumber: checkout.orderNumber }, 'pos could not be asked to mark the order paid elsewhere');
    return { unavailable: `pos could not be asked whether order ${checkout.orderNumber} was paid in bitcoin` };
  }
}

/** pos's answers that will not change by asking again. */
const REFUSALS = new Set(['failed_precondition', 'not_found', 'validation_failed']);

async function applyRefund(context: ProviderContext, event: NewProviderEvent, paymentId: string, refundedMinor: bigint, parkedId?: string) {
  const now = context.now();
  const result = await context.payments.refund(
    event,
    paymentId,
    (locked) => refundFigures(locked, refundedMinor),
    (updated, figures, orderNumber) => providerRefundedEvent(updated, figures, orderNumber, now),
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

function summary(notice: ProviderNotice, outcome: EventOutcome, reason: string): Omit<ReceivedEvent, 'duplicate'> {
  return { eventId: notice.eventId, eventType: notice.eventType, outcome, reason };
}
