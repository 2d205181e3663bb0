import type { CallOptions } from '@ctk/shared';
import type { FastifyRequest } from 'fastify';
import type { OrgContext } from '../auth/types.js';

/** The organisation's facts a service needs, passed in the call (services trust the gateway). */
export function orgRef(org: OrgContext) {
  return {
    id: org.id,
    handle: org.handle,
    jurisdiction: org.jurisdiction ?? '',
    receivingAddress: org.receivingAddress ?? '',
    pricesIncludeTax: org.pricesIncludeTax,
    walletXpub: org.walletXpub ?? '',
    identityPublicKey: org.identityPublicKey ?? '',
  };
}

/** The request id and the caller travel with every call, for the services' logs. */
export function callOptions(request: FastifyRequest): CallOptions {
  const caller = request.caller;
  const callerId =
    caller.kind === 'user' ? `user:${caller.userId}` : caller.kind === 'paygate' ? `paygate:${caller.accountId}` : caller.kind;
  return { requestId: request.id, callerId };
}
