import { addressOfPublicKey, networkAddress, type ChainNetwork } from '@ctk/chain';
import { AppError, MAX_SATOSHIS_BIGINT, type Org } from '@ctk/shared';
import { z } from 'zod';
import type { ContractsContext } from './contracts-context.js';

/** The least a contract's lock holds: its settlement's fee must leave the payee something worth the trouble. */
export const MIN_LOCKED_SATOSHIS = 1_000n;

/** What a contract's lock holds, as the API takes it. */
export const lockedSatoshisSchema = z
  .bigint({ error: 'satoshis must be a whole number' })
  .min(MIN_LOCKED_SATOSHIS, `satoshis must be at least ${MIN_LOCKED_SATOSHIS}`)
  .max(MAX_SATOSHIS_BIGINT, `satoshis must be at most ${MAX_SATOSHIS_BIGINT}`);

/** A party's compressed public key, as the API takes it. */
export const publicKeySchema = (field: string) =>
  z.string().regex(/^0[23][0-9a-f]{64}$/, `${field} must be a compressed public key: 66 lower-case hex characters`);

/**
 * The shop's wallet identity key as p2p knows it: its side of a contract's lock (the merchant's wallet signs with
 * it). None registered is failed_precondition saying how to register it.
 */
export async function shopIdentityKey(context: Pick<ContractsContext, 'p2p'>, org: Org): Promise<string> {
  const key = await registeredIdentityKey(context, org);
  if (!key)
    throw new AppError(
      'failed_precondition',
      `${org.handle} has registered no wallet identity key, which is the shop's key in the lock: register it (PATCH /api/v1/organizations/${org.handle} {"identity_public_key"}).`,
      { reason: 'no_identity_key' },
    );
  return key;
}

/** The address of the shop's wallet identity key, if it registered one (a joint transaction's, decision 0037). */
export async function shopIdentityAddress(context: Pick<ContractsContext, 'p2p' | 'chain'>, org: Org): Promise<string | undefined> {
  const key = await registeredIdentityKey(context, org);
  return key ? addressOfPublicKey(key, context.chain.network, 'identity_public_key') : undefined;
}

async function registeredIdentityKey(context: Pick<ContractsContext, 'p2p'>, org: Org): Promise<string | undefined> {
  const { wallets } = await context.p2p.getWallets({ organizationIds: [org.id] }, { timeoutMs: 20_000 });
  return wallets[0]?.identityPublicKey || undefined;
}

/**
 * Where a contract's release pays (the shop) and its refund pays (the buyer): the addresses given, checked as
 * the chain's network's, else the addresses of the shop's and the buyer's keys.
 */
export function payeeAddresses(
  network: ChainNetwork,
  keys: { seller: string; buyer: string },
  given: { releaseAddress: string; refundAddress: string },
): { releaseAddress: string; refundAddress: string } {
  return {
    releaseAddress: given.releaseAddress
      ? networkAddress(given.releaseAddress, network, 'release_address')
      : addressOfPublicKey(keys.seller, network, 'seller'),
    refundAddress: given.refundAddress
      ? networkAddress(given.refundAddress, network, 'refund_address')
      : addressOfPublicKey(keys.buyer, network, 'buyer_public_key'),
  };
}
