import { addressOfPublicKey, networkAddress } from '@ctk/chain';
import { AppError } from '@ctk/shared';
import { z } from 'zod';
import type { CardContext } from '../cards/card-context.js';
import type { PosCard } from '../data/pos-card-repository.js';

/** An address has one card per shop; an answer lists at most this many of them, newest first. */
export const MAX_CARDS_OF_ADDRESS = 100;

const cardId = z.guid();
const PUBLIC_KEY = /^0[23][0-9a-fA-F]{64}$/;

/**
 * Public: a POS card by its id (not found for an id no card has, or that is no id: nothing is looked up),
 * or an address's cards, one per shop it has a card at (none is an empty list). The address may be given
 * as the public key it was made from; one of another network, or that is no address, is a 422 naming `address`.
 */
export async function getPosCard(context: CardContext, input: { id: string; address: string }): Promise<PosCard[]> {
  if (Boolean(input.id) === Boolean(input.address)) {
    throw new AppError('validation_failed', 'Give the card id or an address, one of them.', { field: input.id ? 'address' : 'id' });
  }
  if (input.id) {
    const card = cardId.safeParse(input.id).success ? await context.posCards.byId(input.id) : null;
    if (!card) throw new AppError('not_found', 'No such POS card');
    return [card];
  }
  return context.posCards.byAddress(readAddress(context, input.address), MAX_CARDS_OF_ADDRESS);
}

/** An address as a customer's wallet shows it: P2PKH of the chain's network, or the public key it came from; else a 422 naming `address`. */
export function readAddress(context: CardContext, address: string): string {
  return PUBLIC_KEY.test(address)
    ? addressOfPublicKey(address, context.network, 'address')
    : networkAddress(address, context.network, 'address');
}
