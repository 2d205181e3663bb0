import type { GateAccount } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError } from '@ctk/shared';
import type { FastifyRequest } from 'fastify';
import type { Credentials } from '../auth/credentials.js';
import { orgRef } from '../routes/service-call.js';

/**
 * The payment-gate account a request's key belongs to, with its organisation's facts for p2p (the wallet
 * xpub its 402s derive fresh outputs from). The organisation comes from the credentials' cache, as a
 * handle's does on other routes, so a /check costs no database round trip.
 */
export async function resolveGateAccount(credentials: Credentials, request: FastifyRequest): Promise<GateAccount> {
  const caller = request.caller;
  if (caller.kind !== 'paygate') throw new AppError('internal', 'a payment-gate route without a payment-gate caller');
  const org = await credentials.orgById(caller.organizationId);
  if (!org) throw new AppError('invalid_api_key', 'The payment-gate key belongs to no organisation any more.');
  return { org: orgRef({ ...org, role: null }), accountId: caller.accountId };
}
