import type { GateAccount } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError } from '@ctk/shared';
import type { FastifyRequest } from 'fastify';
import { requireOrg } from '../auth/authenticate.js';
import type { Credentials } from '../auth/credentials.js';
import { orgRef } from '../routes/service-call.js';

/**
 * The payment-gate account a request acts on, with its organisation's facts for p2p (the wallet xpub its
 * 402s derive fresh outputs from): a payment-gate key's own account, or for a member of the organisation
 * the path names (the back office), that organisation's account. A key's organisation comes from the
 * credentials' cache, as a handle's does on other routes, so a /check costs no database round trip.
 */
export async function resolveGateAccount(credentials: Credentials, request: FastifyRequest): Promise<GateAccount> {
  const caller = request.caller;
  if (caller.kind === 'user') {
    const org = requireOrg(request);
    const accountId = await credentials.paygateAccountId(org.id);
    if (!accountId)
      throw new AppError(
        'failed_precondition',
        `${org.handle} has no payment-gate account yet: make a payment-gate key first (POST /api/v1/orgs/${org.handle}/paygate-keys).`,
      );
    return { org: orgRef({ ...org, role: null }), accountId };
  }
  if (caller.kind !== 'paygate') throw new AppError('internal', 'a payment-gate route without a payment-gate caller');
  const org = await credentials.orgById(caller.organizationId);
  if (!org) throw new AppError('invalid_api_key', 'The payment-gate key belongs to no organisation any more.');
  return { org: orgRef({ ...org, role: null }), accountId: caller.accountId };
}
