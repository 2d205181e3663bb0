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
 * The shop's wallet as p2p knows it: its identity key, and the one address every pos order is paid to when it
 * registered no xpub (else none: each order has its own). pos's watcher takes what reaches an order's address for
 * the order's payment, so a contract must not pay the shop there (payeeAddresses).
 */
export type ShopWallet = { identityKey?: string; singleOrderAddress?: string };

export async function shopWallet(context: Pick<ContractsContext, 'p2p'>, org: Org): Promise<ShopWallet> {
  const { wallets } = await context.p2p.getWallets({ organizationIds: [org.id] }, { timeoutMs: 20_000 });
  const wallet = wallets[0];
  return {
    identityKey: wallet?.identityPublicKey || undefined,
    singleOrderAddress: wallet && !wallet.walletXpub && wallet.receivingAddress ? wallet.receivingAddress : undefined,
  };
}

/**
 * The shop's wallet identity key: its side of a contract's lock (the merchant's wallet signs with it). None
 * registered is failed_precondition saying how to register it.
 */
export async function shopIdentityKey(context: Pick<ContractsContext, 'p2p'>, org: Org): Promise<{ seller: string; wallet: ShopWallet }> {
  const wallet = await shopWallet(context, org);
  if (!wallet.identityKey)
    throw new AppError(
      'failed_precondition',
      `${org.handle} has registered no wallet identity key, which is the shop's key in the lock: register it (PATCH /api/v1/organizations/${org.handle} {"identity_public_key"}).`,
      { reason: 'no_identity_key' },
    );
  return { seller: wallet.identityKey, wallet };
}

/**
 * The address of the shop's wallet identity key, where what a joint transaction of its own pays the shop posts
 * (decision 0037): none if the shop registered no key, or if it is the single address its orders are paid to
 * (pos counts what reaches it as an order's payment, and the books must not see it twice).
 */
export async function shopIdentityAddress(context: Pick<ContractsContext, 'p2p' | 'chain'>, org: Org): Promise<string | undefined> {
  const wallet = await shopWallet(context, org);
  const address = wallet.identityKey ? addressOfPublicKey(wallet.identityKey, context.chain.network, 'identity_public_key') : undefined;
  return address === wallet.singleOrderAddress ? undefined : address;
}

/**
 * Where a contract's release pays (the shop) and its refund pays (the buyer): the addresses given, checked as
 * the chain's network's, else the addresses of the shop's and the buyer's keys. A release to the single address
 * the shop's orders are paid to is refused: pos would take it for an open order's payment.
 */
export function payeeAddresses(
  network: ChainNetwork,
  keys: { seller: string; buyer: string; wallet: ShopWallet },
  given: { releaseAddress: string; refundAddress: string },
): { releaseAddress: string; refundAddress: string } {
  const releaseAddress = given.releaseAddress
    ? networkAddress(given.releaseAddress, network, 'release_address')
    : addressOfPublicKey(keys.seller, network, 'seller');
  if (releaseAddress === keys.wallet.singleOrderAddress)
    throw new AppError(
      'validation_failed',
      `${releaseAddress} is the one address your orders are paid to: a release there would be taken for an order's payment. Give another release_address, or register your wallet's xpub so that each order has its own.`,
      { field: 'release_address' },
    );
  return {
    releaseAddress,
    refundAddress: given.refundAddress
      ? networkAddress(given.refundAddress, network, 'refund_address')
      : addressOfPublicKey(keys.buyer, network, 'buyer_public_key'),
  };
}
