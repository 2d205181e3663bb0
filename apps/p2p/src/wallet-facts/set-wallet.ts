import type { SetWalletRequest, Wallet } from '@ctk/proto/ctk/p2p/v1/p2p';
import { orgOf, prismaQueries, validate } from '@ctk/shared';
import { findWallet, saveWallet } from '../data/wallet-repository.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { walletMessage } from './wallet-message.js';
import { walletFields } from './wallet-fields.js';

/**
 * Registers the public side of an organisation's wallet: every field given is checked first, and one
 * refused (validation_failed naming it, as the API names it) stores nothing. With `validate_only` it
 * stores nothing either way, so the gateway can have every owner check its part of a change before any
 * owner writes. Setting a value again is the same write: a retried change answers the same.
 */
export async function setWallet(prisma: PrismaClient, request: SetWalletRequest): Promise<Wallet> {
  const org = orgOf(request.org);
  const fields = validate(walletFields, {
    receiving_address: request.receivingAddress,
    wallet_xpub: request.walletXpub,
    identity_public_key: request.identityPublicKey,
  });
  const facts = {
    receivingAddress: fields.receiving_address,
    walletXpub: fields.wallet_xpub,
    identityPublicKey: fields.identity_public_key,
  };
  if (request.validateOnly) return walletMessage(org.id, { ...(await findWallet(prismaQueries(prisma), org.id)), ...definedOnly(facts) });
  return walletMessage(org.id, await saveWallet(prisma, org.id, facts));
}

function definedOnly<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}
