import { AppError } from '@ctk/shared';
import type { StablecoinIntentRow } from '../data/stablecoin-repository.js';
import { INTENT_ID } from './intent-id.js';
import { intentStatus } from './intent-message.js';
import type { StablecoinContext } from './stablecoin-context.js';

/**
 * An intent by its payment id (anyone holding it may read it). One still awaiting payment whose order was
 * cancelled at pos is canceled from then on: pos is asked while the intent could still be paid.
 */
export async function getIntent(context: StablecoinContext, paymentId: string): Promise<StablecoinIntentRow> {
  const intent = await findIntent(context, paymentId);
  if (intentStatus(intent, context.now()) !== 'requires_payment') return intent;
  const { order } = await context.pos.getOrder({ orderNumber: intent.orderNumber });
  if (order?.status !== 'cancelled') return intent;
  return context.intents.cancel(intent.id);
}

/** The intent of a payment id, or 404 (an id of another shape is refused before any lookup). */
export async function findIntent(context: Pick<StablecoinContext, 'intents'>, paymentId: string): Promise<StablecoinIntentRow> {
  const intent = INTENT_ID.test(paymentId) ? await context.intents.byId(paymentId) : null;
  if (!intent) throw new AppError('not_found', `No stablecoin payment intent ${paymentId}`, { field: 'payment_id' });
  return intent;
}
