import { P2PKH } from '@bsv/sdk';
import { AppError, type Org, type SqlQueries } from '@ctk/shared';
import { allocateWalletChild, type DerivationWindow } from '../data/allocate-derivation-index.js';
import { childScript } from './child-script.js';

export type DerivedOutput = { script: string; derivationIndex: number | null; xpub: string | null };

/**
 * The window children of the xpub are handed out from: `gapLimit` past the highest paid one, `staffReserved`
 * of it kept for staff, at most `perClient` held by one anonymous client.
 */
export type AddressWindow = Pick<DerivationWindow, 'gapLimit' | 'staffReserved' | 'perClient'>;

/**
 * A receiving script for the organisation, from its wallet as p2p keeps it, read in the same statement as the
 * child is taken (decision 0052): in the caller's transaction (`prismaQueries(tx)` of a Prisma one) or in a
 * statement of its own (`Sql`). From its xpub, a child on the external chain (`0/n`) held for nothing else while
 * it may be paid, within the gap limit, so payments are told apart (data/allocate-derivation-index.ts); else its
 * single receiving address.
 */
export async function deriveOutput(tx: SqlQueries, org: Org, rules: DerivationWindow): Promise<DerivedOutput> {
  const child = await allocateWalletChild(tx, org.id, rules);
  if (child?.walletXpub && child.index !== null)
    return { script: childScript(child.walletXpub, child.index), derivationIndex: child.index, xpub: child.walletXpub };
  if (child?.receivingAddress) return { script: new P2PKH().lock(child.receivingAddress).toHex(), derivationIndex: null, xpub: null };
  throw new AppError(
    'failed_precondition',
    `${org.handle} has not registered a wallet to be paid to: an owner or admin sets wallet_xpub (a fresh address per payment) or receiving_address with PATCH /api/v1/organizations/${org.handle}.`,
  );
}
