import { AppError } from '@ctk/shared';
import type { OrderWithParts } from '../data/order-repository.js';
import { ORDER_NUMBER } from './order-number.js';

/** The status as of `now`: an open order past its expiry is expired even before the watcher writes it. */
export function statusAt(order: Pick<OrderWithParts, 'status' | 'expiresAt'>, now: Date): string {
  return order.status === 'open' && now > order.expiresAt ? 'expired' : order.status;
}

/** Satoshis still to pay while the order takes payment; 0 once paid (here or elsewhere), cancelled or expired. */
export function dueSatoshis(order: Pick<OrderWithParts, 'status' | 'expiresAt' | 'satoshis' | 'paidSatoshis'>, now: Date): bigint {
  if (statusAt(order, now) !== 'open') return 0n;
  const due = order.satoshis - order.paidSatoshis;
  return due > 0n ? due : 0n;
}

/**
 * What a payment of the order pays now (decision 0040): the shop's output what is due; for an order sold
 * through a referral link and not paid at all yet, that less the referrer's commission, and the commission to
 * the referrer's script beside it. Once anything was paid, the rest is the shop's alone.
 */
export function dueOutputs(
  order: Pick<OrderWithParts, 'status' | 'expiresAt' | 'satoshis' | 'paidSatoshis' | 'script' | 'commissionScript' | 'commissionSatoshis'>,
  now: Date,
): Array<{ script: string; minSatoshis: bigint }> {
  const due = dueSatoshis(order, now);
  if (!order.commissionScript || order.paidSatoshis > 0n || due <= order.commissionSatoshis)
    return [{ script: order.script, minSatoshis: due }];
  return [
    { script: order.script, minSatoshis: due - order.commissionSatoshis },
    { script: order.commissionScript, minSatoshis: order.commissionSatoshis },
  ];
}

/** Flags as of `now`: an expired order holding a partial payment is `paid_partial`. */
export function flagsAt(order: Pick<OrderWithParts, 'status' | 'expiresAt' | 'paidSatoshis' | 'flags'>, now: Date): string[] {
  const flags = new Set(order.flags);
  if (statusAt(order, now) === 'expired' && order.paidSatoshis > 0n) flags.add('paid_partial');
  return [...flags];
}

/** A status after which nothing changes: WatchOrder ends there. */
export function isFinal(order: Pick<OrderWithParts, 'status' | 'expiresAt'>, now: Date, latePaymentSeconds: number): boolean {
  const status = statusAt(order, now);
  if (status === 'confirmed' || status === 'cancelled' || status === 'paid_elsewhere') return true;
  return status === 'expired' && now.getTime() > order.expiresAt.getTime() + latePaymentSeconds * 1000;
}

/** The order number of a request, checked before any lookup: anything else is a 422 naming the field. */
export function checkedOrderNumber(orderNumber: string): string {
  const number = orderNumber.toUpperCase();
  if (!ORDER_NUMBER.test(number)) {
    throw new AppError('validation_failed', 'order_number must be 10 characters of Crockford base32 such as "7Q2M9K4X1C"', {
      field: 'order_number',
    });
  }
  return number;
}
