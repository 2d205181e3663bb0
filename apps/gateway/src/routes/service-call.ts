import type { CallOptions } from '@ctk/shared';
import type { FastifyRequest } from 'fastify';
import type { OrgContext } from '../auth/types.js';

/**
 * Who a call is for: the organisation's id and handle, nothing of its settings. Each service keeps its own
 * facts about an organisation (p2p its wallet, books its tax settings; decision 0028).
 */
export function orgRef(org: Pick<OrgContext, 'id' | 'handle'> & Partial<OrgContext>) {
  return { id: org.id, handle: org.handle };
}

/** The request id and the caller travel with every call, for the services' logs. */
export function callOptions(request: FastifyRequest): CallOptions {
  const caller = request.caller;
  const callerId =
    caller.kind === 'user' ? `user:${caller.userId}` : caller.kind === 'paygate' ? `paygate:${caller.accountId}` : caller.kind;
  return { requestId: request.id, callerId };
}
