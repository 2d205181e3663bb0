import { findUsableCredential, takeCredentialCall } from '../data/gate-payment-repository.js';
import type { GatePayment, GateResource } from '../generated/prisma/client.js';
import { readCredential } from './credential.js';
import type { Account } from './gate-account.js';
import type { GateDeps } from './gate-deps.js';

/** A credential used for one call, or why not. */
export type CredentialUse = { payment: GatePayment } | { refused: string };

/**
 * One call on a credential, checked and counted in the database (the middleware counts in its process
 * instead): signed by the gate, this account's, for this resource, unexpired, not revoked, and for a calls
 * grant a call left, taken by one conditional update so that concurrent calls never take more than bought.
 */
export async function useCredential(deps: GateDeps, account: Account, resource: GateResource, token: string): Promise<CredentialUse> {
  const claims = readCredential(await deps.signingKey(), token);
  if (!claims || claims.sub !== account.id) return { refused: 'The x-ctk-credential is not a credential this gate issued.' };
  if (claims.res !== resource.id) return { refused: `The credential pays for another resource than ${resource.method} ${resource.path}.` };
  if (claims.exp * 1000 <= Date.now())
    return { refused: `The credential expired at ${new Date(claims.exp * 1000).toISOString()}: pay again.` };
  const now = new Date();
  if (claims.calls !== undefined && !(await takeCredentialCall(deps.prisma, claims.jti, claims.calls, now)))
    return { refused: `The credential's ${claims.calls} call(s) are used up, or it was revoked: pay again.` };
  const payment = await findUsableCredential(deps.prisma, claims.jti, now);
  return payment ? { payment } : { refused: 'The credential was revoked: pay again.' };
}
