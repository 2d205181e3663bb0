import type { OrderChanged } from '@ctk/proto/ctk/events/v1/order_event';
import { AppError, type Org } from '@ctk/shared';
import type { OrderWithParts } from '../data/order-repository.js';
import type { OrderContext } from '../orders/order-context.js';
import { checkedOrderNumber } from '../orders/order-state.js';

/** The order of a public number; not_found for a number no order has. */
export async function getOrder(context: OrderContext, orderNumber: string): Promise<OrderWithParts> {
  const number = checkedOrderNumber(orderNumber);
  const order = await context.orders.byNumber(number);
  if (!order) throw new AppError('not_found', `No order ${number}`);
  return order;
}

/** The order's state alone (GetOrderState); not_found for a number no order has. */
export async function getOrderState(context: OrderContext, orderNumber: string): Promise<OrderChanged> {
  const number = checkedOrderNumber(orderNumber);
  const state = await context.orders.stateByNumber(number);
  if (!state) throw new AppError('not_found', `No order ${number}`);
  return state;
}

/** The order of a number as the organisation's staff see it: another organisation's order is not found, as if it did not exist. */
export async function getOrgOrder(context: OrderContext, org: Org, orderNumber: string): Promise<OrderWithParts> {
  const order = await getOrder(context, orderNumber);
  if (order.organizationId !== org.id) throw new AppError('not_found', `No order ${order.orderNumber} in ${org.handle}`);
  return order;
}
