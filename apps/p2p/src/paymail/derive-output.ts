import { P2PKH } from '@bsv/sdk';
import { AppError, type SqlQueries } from '@ctk/shared';
import { allocateDerivationIndex } from '../data/allocate-derivation-index.js';
import { childScript } from './child-script.js';
import type { WalletOrg } from '../domain/org-wallet.js';

export type DerivedOutput = { script: string; derivationIndex: number | null; xpub: string | null };

/**
 * The window children of the xpub are handed out from: `gapLimit` past the highest paid one, `staffReserved`
 * of it kept for staff, at most `perClient` held by one anonymous client.
 */
export type AddressWindow = { gapLimit: number; staffReserved: number; perClient: number };

/**
 * How a child is handed out (decision 0022): within the window, held until `holdUntil` for `purpose` and
 * for nothing else, and bounded with the other anonymous opens when `anonymous`, and with the client's own
 * when its `client` address is known.
 */
export type DerivationRules = AddressWindow & { holdUntil: Date; purpose: string; anonymous: boolean; client: string };

/**
 * A receiving script for the organisation, in the caller's transaction (`prismaQueries(tx)` of a Prisma one) or
 * in a statement of its own (`Sql`): from its xpub, a child on the external chain (`0/n`) held for nothing else
 * while it may be paid, within the gap limit, so payments are told apart (data/allocate-derivation-index.ts);
 * else its single receiving address.
 */
export async function deriveOutput(tx: SqlQueries, org: WalletOrg, rules: DerivationRules): Promise<DerivedOutput> {
  if (org.walletXpub) {
    const index = await allocateDerivationIndex(tx, { organizationId: org.id, xpub: org.walletXpub, ...rules });
    return { script: childScript(org.walletXpub, index), derivationIndex: index, xpub: org.walletXpub };
  }
  if (org.receivingAddress) return { script: new P2PKH().lock(org.receivingAddress).toHex(), derivationIndex: null, xpub: null };
  throw new AppError(
    'failed_precondition',
    `${org.handle} has not registered a wallet to be paid to: an owner or admin sets wallet_xpub (a fresh address per payment) or receiving_address with PATCH /api/v1/organizations/${org.handle}.`,
  );
}
