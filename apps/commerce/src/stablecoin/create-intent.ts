import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import type { Order } from '@ctk/proto/ctk/pos/v1/pos';
import { AppError, lineOfText, orgOf, validate, type Org } from '@ctk/shared';
import { z } from 'zod';
import { PUBLIC_TOKEN } from '../checkouts/public-token.js';
import type { StablecoinIntentRow } from '../data/stablecoin-repository.js';
import { newIntentId } from './intent-id.js';
import type { StablecoinContext } from './stablecoin-context.js';
import { tokenUnitsOfCents } from './token-amount.js';

const STAFF_ROLES = new Set(['owner', 'admin', 'staff']);
/** What p2p records an intent's address held for. */
const PURPOSE = 'stablecoin.intent';
/** p2p holds an address at most 7 days ahead (decision 0022). */
const MAX_HOLD_MS = 7 * 86_400_000;
/** The largest amount one intent asks for: $1,000,000.00. */
const MAX_CENTS = 100_000_000n;

const intentSchema = z
  .object({
    checkout: z.string().regex(PUBLIC_TOKEN, 'checkout must be a checkout public token ("cko_" and 32 characters)').optional(),
    orderNumber: z
      .string()
      .regex(/^[A-Za-z0-9-]{1,40}$/, 'order_number must be an order number such as "A-1042"')
      .optional(),
    amountCents: z
      .bigint()
      .min(1n, 'amount_cents must be at least 1')
      .max(MAX_CENTS, `amount_cents must be at most ${MAX_CENTS}`)
      .optional(),
    description: lineOfText('description', 200).default(''),
    createdBy: z.string().default(''),
    callerRole: z.string().default(''),
    clientAddress: z.string().max(100).default(''),
    publicUrl: z.string().default(''),
  })
  .refine((input) => [input.checkout, input.orderNumber, input.amountCents].filter((given) => given !== undefined).length === 1, {
    message: 'give exactly one of checkout, order_number and amount_cents',
    path: ['checkout'],
  });

type IntentInput = z.output<typeof intentSchema>;

/**
 * Opens a stablecoin payment intent for a pos order (docs/decisions/0036-stablecoin-and-tokens.md): a checkout's
 * (anyone holding its public token), a counter order's or a new keypad order's for an amount (the shop's staff).
 * The order must be open and in US dollars. The order's intent is answered again (one address per order,
 * whoever asks, however many at once); otherwise a fresh address of the merchant's wallet is held for it alone.
 */
export async function createIntent(context: StablecoinContext, orgRef: OrgRef | undefined, input: unknown): Promise<StablecoinIntentRow> {
  const org = orgOf(orgRef);
  const request = validate(intentSchema, input);
  const staff = STAFF_ROLES.has(request.callerRole);
  if (request.checkout === undefined) requireStaff(request, org);
  const stablecoin = await context.chain.stablecoin();
  const order = await orderOf(context, orgRef as OrgRef, org, request);
  // The order's intent, whatever became of it since (paid, expired), is the answer for that order.
  const existing = await context.intents.byOrder(org.id, order.orderNumber);
  if (existing) return existing;
  const now = context.now();
  refuseUnpayable(order, now);
  return context.intents.openOnce(org.id, order.orderNumber, async () => {
    const expiresAt = new Date(order.expiresAt);
    const holdExpiresAt = new Date(Math.min(expiresAt.getTime() + context.lateHoldMs, now.getTime() + MAX_HOLD_MS));
    const destination = await context.p2p.allocateDestination({
      org: orgRef,
      expiresAt: holdExpiresAt.toISOString(),
      staff,
      purpose: PURPOSE,
      clientAddress: staff ? '' : request.clientAddress,
    });
    if (destination.derivationIndex === undefined)
      throw new AppError(
        'failed_precondition',
        `${org.handle} receives at a single address, which every payment shares: a stablecoin intent needs an address of its own. Set the wallet's xpub.`,
      );
    return {
      id: newIntentId(),
      organizationId: org.id,
      orgHandle: org.handle,
      orderNumber: order.orderNumber,
      checkoutToken: request.checkout ?? null,
      description: request.description || (order.note ?? ''),
      amountCents: order.totalMinor,
      taxCents: order.taxMinor,
      tokenId: stablecoin.tokenId,
      symbol: stablecoin.symbol,
      decimals: stablecoin.decimals,
      tokenAmount: tokenUnitsOfCents(order.totalMinor, stablecoin.decimals),
      cosignerKey: stablecoin.cosignerPublicKey,
      address: destination.address,
      derivationIndex: destination.derivationIndex,
      holdExpiresAt,
      expiresAt,
      createdAt: now,
    };
  });
}

function requireStaff(request: IntentInput, org: Org): void {
  const what = request.orderNumber !== undefined ? 'an order' : 'an amount';
  if (!request.createdBy)
    throw new AppError(
      'unauthenticated',
      `An intent for ${what} needs an API key of ${org.handle}'s staff; anyone may open one for a checkout.`,
    );
  if (!STAFF_ROLES.has(request.callerRole))
    throw new AppError('forbidden', `An intent for ${what} is for ${org.handle}'s staff; you are not a member.`);
}

/** The order the intent pays: the checkout's, the one named, or a new keypad order for the amount. */
async function orderOf(context: StablecoinContext, orgRef: OrgRef, org: Org, request: IntentInput): Promise<Order> {
  if (request.amountCents !== undefined) {
    const { order } = await context.pos.createOrder({
      org: orgRef,
      lines: [{ name: request.description || 'Stablecoin payment', unitPriceMinor: request.amountCents, modifiers: [] }],
      currency: 'USD',
      note: request.description || 'Stablecoin payment',
      publicUrl: request.publicUrl,
      createdBy: request.createdBy,
      staff: true,
    });
    if (!order) throw new AppError('internal', 'pos answered without the order');
    return order;
  }
  let orderNumber = request.orderNumber;
  if (request.checkout !== undefined) {
    const checkout = await context.checkouts.byToken(org.id, request.checkout);
    if (!checkout) throw new AppError('not_found', `No checkout ${request.checkout} at ${org.handle}`, { field: 'checkout' });
    orderNumber = checkout.orderNumber;
  }
  // Order numbers are public and unique across shops: the order must be this shop's.
  const { order } = await context.pos.getOrder({ orderNumber: orderNumber!, publicUrl: request.publicUrl }).catch((error: unknown) => {
    if (AppError.is(error) && error.code === 'not_found') return { order: undefined };
    throw error;
  });
  if (order?.merchantHandle !== org.handle)
    throw new AppError('not_found', `No order ${orderNumber} at ${org.handle}`, { field: 'order_number' });
  return order;
}

/** An order the stablecoin cannot pay: not open, past its expiry, in another currency, or part paid. */
function refuseUnpayable(order: Order, now: Date): void {
  const refuse = (why: string, reason: string) =>
    new AppError('failed_precondition', `Order ${order.orderNumber} ${why}: a stablecoin intent cannot pay it.`, { reason });
  if (order.status !== 'open') throw refuse(`is ${order.status}`, order.status);
  if (new Date(order.expiresAt) <= now) throw refuse('has expired', 'expired');
  if (order.currency !== 'USD') throw refuse(`is in ${order.currency}, and the stablecoin is a US dollar`, 'currency');
  if (order.paidSatoshis > 0n || order.cardPaidMinor > 0n) throw refuse('is part paid already', 'part_paid');
}
