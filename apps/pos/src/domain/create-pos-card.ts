import { AppError, lineOfText, type Org, validate } from '@ctk/shared';
import type { CardHolder } from '@ctk/proto/ctk/pos/v1/cards';
import { z } from 'zod';
import type { CardContext } from '../cards/card-context.js';
import { readCardHolder } from '../cards/card-holder.js';
import type { PosCard } from '../data/pos-card-repository.js';

const labelSchema = z.object({ label: lineOfText('label', 120) });

/**
 * The customer's card at the organisation's shop for an address or public key
 * (docs/decisions/0017-customer-cards.md, "POS cards"): one per (shop, address). Asked again, it answers
 * the card the address already has there, unchanged (its label and public key stay as first given), with
 * `created` false.
 */
export async function createPosCard(
  context: CardContext,
  org: Org,
  input: { holder: CardHolder | undefined; label: string },
): Promise<{ card: PosCard; created: boolean }> {
  // A POS card is bound to the customer's own address; a user id has no part in it.
  const holder = readCardHolder(
    { address: input.holder?.address ?? '', publicKey: input.holder?.publicKey ?? '', userId: '' },
    context.network,
    'holder',
  );
  if (!holder.address) {
    throw new AppError('validation_failed', "holder needs the customer's address or public_key: the card is bound to it.", {
      field: 'holder.address',
    });
  }
  const { label } = validate(labelSchema, { label: input.label });
  return context.posCards.createOnce({
    organizationId: org.id,
    shopId: org.handle,
    address: holder.address,
    publicKey: holder.publicKey,
    label,
    createdAt: context.orders.now(),
  });
}
