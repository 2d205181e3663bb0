import { AppError, type Org } from '@ctk/shared';
import { z } from 'zod';
import { refundWithOrder } from '../data/refund-repository.js';
import type { OrderContext } from '../orders/order-context.js';

const refundId = z.guid();

/** The refund of an id, with its order's public parts; not_found for an id no refund has (or not a UUID: 422). */
export async function getRefund(context: OrderContext, id: string) {
  if (!refundId.safeParse(id).success) throw new AppError('validation_failed', 'refund_id must be a UUID', { field: 'refund_id' });
  const refund = await refundWithOrder(context.prisma, id.toLowerCase());
  if (!refund) throw new AppError('not_found', `No refund ${id}`);
  return refund;
}

/** The refund as the organisation's staff see it: another organisation's is not found, as if it did not exist. */
export async function organisationRefund(context: OrderContext, org: Org, id: string) {
  const refund = await getRefund(context, id);
  if (refund.organizationId !== org.id) throw new AppError('not_found', `No refund ${id} in ${org.handle}`);
  return refund;
}
