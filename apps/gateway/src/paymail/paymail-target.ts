import { AppError } from '@ctk/shared';
import type { OrgContext } from '../auth/types.js';
import type { Credentials } from '../auth/credentials.js';

export type PaymailTarget = { paymail: string; org: OrgContext };

/**
 * The organisation a paymail of this instance names: `alias@<domain of CTK_PUBLIC_URL>`, the alias an
 * organisation chose. Any other domain, or an alias nobody holds, is 404.
 */
export async function resolvePaymail(credentials: Credentials, paymail: string, domain: string): Promise<PaymailTarget> {
  // No control characters: a NUL is no name, and the database cannot even look it up.
  const match = /^([^@\s\p{Cc}]{1,64})@([^@\s\p{Cc}]{1,255})$/u.exec(paymail);
  if (!match)
    throw new AppError('validation_failed', `${JSON.stringify(paymail.slice(0, 80))} is not a paymail (alias@domain).`, {
      field: 'paymail',
    });
  const alias = match[1]!.toLowerCase();
  if (match[2]!.toLowerCase() !== domain.toLowerCase())
    throw new AppError('not_found', `This host serves paymails @${domain}, not @${match[2]}.`);
  const org = await credentials.orgByPaymailAlias(alias);
  if (!org) throw new AppError('not_found', `No paymail ${alias}@${domain} here.`);
  return { paymail: `${alias}@${domain}`, org: { ...org, role: null } };
}
