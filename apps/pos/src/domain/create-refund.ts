import { networkAddress, scriptOfAddress } from '@ctk/chain';
import { AppError, freeText, validate, type Org } from '@ctk/shared';
import { z } from 'zod';
import type { OrderRefund, OrderWithParts } from '../data/order-repository.js';
import type { OrderContext } from '../orders/order-context.js';
import { refundFigures, type RefundAsk } from '../refunds/refund-figures.js';
import { figuresOf, liveRefunds, REFUND_TTL_MS, refundableLines } from '../refunds/refund-state.js';
import { getOrgOrder } from './get-order.js';

/** The most minor units a request may name: far above any order (orders are capped well below it). */
const MAX_MINOR = 1_000_000_000_000_000n;
const MAX_LINES = 100;

const refundSchema = z.object({
  orderNumber: z.string(),
  whole: z.boolean(),
  lines: z
    .array(
      z.object({
        line: z.number().int().min(0, 'lines[].line must be 0 or more').max(10_000, 'lines[].line is not a line of the order'),
        quantity: z.bigint().min(1n, 'lines[].quantity must be at least 1').max(MAX_MINOR, 'lines[].quantity is too large').optional(),
      }),
    )
    .max(MAX_LINES, `lines may name at most ${MAX_LINES} lines`),
  amountMinor: z.bigint().min(0n, 'amount_minor must not be negative').max(MAX_MINOR, 'amount_minor is more than any order takes'),
  refundTo: z.string().trim().max(100, 'refund_to must be a P2PKH address'),
  reason: freeText('reason', 500),
  createdBy: z.string().max(100),
});

export type CreateRefundInput = z.input<typeof refundSchema>;

/**
 * Admin: a refund of a paid order (decision 0033), pending until the merchant's wallet pays it. What it
 * gives back is the rest of the order (`whole`), lines, or an amount; its tax, tip and satoshis are the
 * order's in proportion (refund-figures.ts). It goes to `refundTo`, else to the address the customer's
 * wallet gave with its BIP270 payment. It is reserved with the order's row locked: the live refunds of an
 * order (pending and unexpired, or paid) never add up to more than the order took, however many requests
 * arrive at once. Refused: an order not paid in bitcoin alone (409), one without an address to refund to
 * (422 naming refund_to), and more than is left (409 refund_exceeds_paid).
 */
export async function createRefund(
  context: OrderContext,
  org: Org,
  input: CreateRefundInput,
): Promise<{ refund: OrderRefund; order: OrderWithParts }> {
  const request = validate(refundSchema, input);
  const ask = askOf(request);
  const found = await getOrgOrder(context, org, request.orderNumber);
  refundable(found);
  const address = addressOf(context, found, request.refundTo);
  const script = scriptOfAddress(address, context.network, 'refund_to');
  const made = await context.orders.locked(
    found.id,
    async (tx, order) => {
      refundable(order);
      const now = context.now();
      const live = liveRefunds(order, now);
      const base = { amountMinor: order.totalMinor, taxMinor: order.taxMinor, tipMinor: order.tipMinor, satoshis: order.paidSatoshis };
      const figures = refundFigures(base, refundableLines(order, live), live.map(figuresOf), ask);
      const refund = await tx.orderRefund.create({
        data: {
          orderId: order.id,
          organizationId: order.organizationId,
          amountMinor: figures.amountMinor,
          taxMinor: figures.taxMinor,
          tipMinor: figures.tipMinor,
          satoshis: figures.satoshis,
          address,
          script,
          lines: figures.lines.map((line) => ({ line: line.line, quantity: line.quantity.toString() })),
          reason: request.reason.trim(),
          createdBy: request.createdBy,
          createdAt: now,
          expiresAt: new Date(now.getTime() + REFUND_TTL_MS),
        },
      });
      return { refund, order: { ...order, refunds: [...order.refunds, refund] } };
    },
    { patient: true },
  );
  // The order's watchers (its page, the back office) see the refund.
  context.notifier.changed(made.order.id);
  return made;
}

function askOf(request: z.output<typeof refundSchema>): RefundAsk {
  const asked = [request.whole, request.lines.length > 0, request.amountMinor > 0n].filter(Boolean).length;
  if (asked !== 1) {
    throw new AppError(
      'validation_failed',
      asked === 0
        ? 'Say what is refunded: whole (true), lines ([{ "line": 0, "quantity": 1 }]) or amount_minor'
        : 'Say what is refunded by one of whole, lines and amount_minor, not several',
      { field: 'whole' },
    );
  }
  if (request.whole) return { kind: 'whole' };
  if (request.amountMinor > 0n) return { kind: 'amount', amountMinor: request.amountMinor };
  return { kind: 'lines', lines: request.lines.map((line) => ({ line: line.line, quantity: line.quantity })) };
}

/** An order paid in bitcoin alone: paid or confirmed, with satoshis, no stored value in it (sold or spent). */
function refundable(order: OrderWithParts): void {
  if (order.status !== 'paid' && order.status !== 'confirmed') {
    const where = order.status === 'paid_elsewhere' ? ` (at the ${order.paidElsewhereBy}: refund it there)` : '';
    throw new AppError('failed_precondition', `Order ${order.orderNumber} is ${order.status}${where}: only a paid order is refunded here`, {
      reason: 'not_paid',
    });
  }
  if (order.cardPaidMinor > 0n || order.prepaidCardId || order.paidSatoshis <= 0n) {
    throw new AppError(
      'failed_precondition',
      `Order ${order.orderNumber} was paid in part with stored value (a prepaid card or credits), or sells a card: refunds here give back bitcoin payments alone`,
      { reason: 'prepaid_card' },
    );
  }
}

/** The address named, else the last one the customer's wallet gave with a BIP270 payment. */
function addressOf(context: OrderContext, order: OrderWithParts, refundTo: string): string {
  if (refundTo) return networkAddress(refundTo, context.network, 'refund_to');
  const given = [...order.payments].reverse().find((payment) => payment.refundTo)?.refundTo;
  if (given) return given;
  throw new AppError(
    'validation_failed',
    `Order ${order.orderNumber}'s payment gave no refund address: give the customer's P2PKH address as refund_to`,
    { field: 'refund_to' },
  );
}
