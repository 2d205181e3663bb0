import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { AppError, orgOf, type Org, type SqlQueries } from '@ctk/shared';
import { findWallet, type WalletFacts } from '../data/wallet-repository.js';

/** The organisation of a call, with the public side of its wallet as p2p keeps it (decision 0028). */
export type WalletOrg = Org & WalletFacts;

/** The organisation a call names, with its wallet read from p2p's own table (one read by primary key). */
export async function walletOrgOf(db: SqlQueries, ref: OrgRef | undefined): Promise<WalletOrg> {
  return walletOf(db, orgOf(ref));
}

export async function walletOf(db: SqlQueries, org: Org): Promise<WalletOrg> {
  return { ...org, ...(await findWallet(db, org.id)) };
}

/** The paymail a call is about, `alias@domain`, as the gateway resolved it. */
export function paymailOf(paymail: string): string {
  if (!/^[^@\s]+@[^@\s]+$/.test(paymail))
    throw new AppError('bad_request', 'The call must name the paymail (alias@domain)', { field: 'target.paymail' });
  return paymail;
}
