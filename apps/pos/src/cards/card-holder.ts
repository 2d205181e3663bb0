import { addressOfPublicKey, networkAddress, type ChainNetwork } from '@ctk/chain';
import type { CardHolder } from '@ctk/proto/ctk/pos/v1/cards';
import { AppError } from '@ctk/shared';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A card's holder as pos keeps it: the customer's address (and the public key it came from), and/or a user. */
export type Holder = { address: string | null; publicKey: string | null; userId: string | null };

/**
 * The holder a request names (docs/decisions/0017-customer-cards.md): a P2PKH address of the chain's
 * network, or a compressed public key (its address is kept beside it; given both, they must agree), and/or
 * the gateway's user id. A 422 naming `field.address`, `field.public_key` or `field.user_id` otherwise.
 */
export function readCardHolder(holder: CardHolder | undefined, network: ChainNetwork, field: string): Holder {
  const publicKey = holder?.publicKey ? holder.publicKey.toLowerCase() : null;
  const fromKey = publicKey ? addressOfPublicKey(publicKey, network, `${field}.public_key`) : null;
  const address = holder?.address ? networkAddress(holder.address, network, `${field}.address`) : fromKey;
  if (fromKey && address !== fromKey) {
    throw new AppError('validation_failed', `${field}.address is not the address of ${field}.public_key; give one of them.`, {
      field: `${field}.address`,
    });
  }
  const userId = holder?.userId || null;
  if (userId && !UUID.test(userId)) {
    throw new AppError('validation_failed', `${field}.user_id must be a user id (a UUID).`, { field: `${field}.user_id` });
  }
  return { address, publicKey, userId };
}

/** The holder as the proto answers it (the gateway hides it from public reads): an address or key it has not, unset. */
export function holderMessage(holder: Holder): CardHolder {
  return { address: holder.address ?? undefined, publicKey: holder.publicKey ?? undefined, userId: holder.userId ?? '' };
}
