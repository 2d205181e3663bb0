import type { OrderChanged } from '@ctk/proto/ctk/events/v1/order_event';
import { AppError } from '@ctk/shared';

export const CHECKOUT_STATUSES = ['pending', 'paid', 'confirmed', 'expired', 'cancelled', 'refunded'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

const FROM_ORDER: Record<string, CheckoutStatus> = {
  open: 'pending',
  paid: 'paid',
  confirmed: 'confirmed',
  expired: 'expired',
  // Staff cancelled the order at the counter: it takes no payment.
  cancelled: 'cancelled',
  // Paid at a provider (decision 0019): commerce records that payment right after pos marks the order.
  paid_elsewhere: 'paid',
};

/** The checkout's status from its pos order's state. */
export function checkoutStatusOf(orderStatus: string): CheckoutStatus {
  const status = FROM_ORDER[orderStatus];
  if (!status) throw new AppError('internal', `pos answered an order in an unknown state "${orderStatus}"`);
  return status;
}

/** An order's state (its change, or pos's GetOrderState) as its checkout records and answers it (decision 0046). */
export function checkoutStateOf(state: OrderChanged) {
  return {
    status: checkoutStatusOf(state.status),
    satoshis: state.satoshis,
    paidSatoshis: state.paidSatoshis,
    paidAt: state.paidAt ?? null,
    confirmedAt: state.confirmedAt ?? null,
  };
}
