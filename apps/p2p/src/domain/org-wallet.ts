import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { AppError, orgOf, type Org } from '@ctk/shared';

/** The organisation of a call, with the public side of its wallet as the gateway registered it. */
export type WalletOrg = Org & { walletXpub: string | null; receivingAddress: string | null; identityPublicKey: string | null };

export function walletOrgOf(ref: OrgRef | undefined): WalletOrg {
  const org = orgOf(ref);
  return {
    ...org,
    walletXpub: ref?.walletXpub || null,
    receivingAddress: ref?.receivingAddress || null,
    identityPublicKey: ref?.identityPublicKey || null,
  };
}

/** The paymail a call is about, `alias@domain`, as the gateway resolved it. */
export function paymailOf(paymail: string): string {
  if (!/^[^@\s]+@[^@\s]+$/.test(paymail))
    throw new AppError('bad_request', 'The call must name the paymail (alias@domain)', { field: 'target.paymail' });
  return paymail;
}
