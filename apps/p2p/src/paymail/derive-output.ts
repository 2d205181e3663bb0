import { HD, P2PKH } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import { nextDerivationIndex } from '../data/next-derivation-index.js';
import type { WalletOrg } from '../domain/org-wallet.js';
import type { PrismaClient } from '../generated/prisma/client.js';

export type DerivedOutput = { script: string; derivationIndex: number | null };

/**
 * A receiving script for the organisation: from its xpub, the next unused child on the external chain
 * (`0/n`), so payments are told apart and addresses are not reused; else its single receiving address.
 */
export async function deriveOutput(sql: Pick<PrismaClient, '$queryRawUnsafe'>, org: WalletOrg): Promise<DerivedOutput> {
  if (org.walletXpub) {
    const index = await nextDerivationIndex(sql, org.id, org.walletXpub);
    const child = HD.fromString(org.walletXpub).derive(`m/0/${index}`);
    return { script: new P2PKH().lock(child.pubKey.toHash() as number[]).toHex(), derivationIndex: index };
  }
  if (org.receivingAddress) return { script: new P2PKH().lock(org.receivingAddress).toHex(), derivationIndex: null };
  throw new AppError('failed_precondition', `${org.handle} has not registered a wallet to be paid to (wallet_xpub or receiving_address).`);
}
