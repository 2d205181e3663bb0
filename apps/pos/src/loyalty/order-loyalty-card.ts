import { AppError, type Org } from '@ctk/shared';
import { z } from 'zod';
import { loyaltyCardById } from '../data/loyalty-card-repository.js';
import type { PrismaClient } from '../generated/prisma/client.js';

const cardId = z.guid();

/**
 * The loyalty card an order is created with (`loyalty_card_id`), which the order stamps when it is paid:
 * one of the organisation's cards, else a 422 naming the field (another organisation's card is simply
 * not found); null when none is given.
 */
export async function orderLoyaltyCard(prisma: PrismaClient, org: Org, loyaltyCardId: string): Promise<string | null> {
  if (!loyaltyCardId) return null;
  const card = cardId.safeParse(loyaltyCardId).success ? await loyaltyCardById(prisma, loyaltyCardId) : null;
  if (!card || card.organizationId !== org.id) {
    throw new AppError('validation_failed', `loyalty_card_id names no loyalty card of ${org.handle}`, { field: 'loyalty_card_id' });
  }
  return card.id;
}
