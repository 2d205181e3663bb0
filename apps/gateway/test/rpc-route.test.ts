import type { ServiceClients } from '@ctk/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { rpcRoute } from '../src/contract/rpc-route.js';

const org = {
  id: '0f8e2c4a-6b1d-4e3f-9a7c-5d2b8e0f1a36',
  handle: 'blue-bottle-cafe',
  name: 'Blue Bottle Cafe',
  jurisdiction: null,
  pricesIncludeTax: false,
  receivingAddress: null,
  walletXpub: null,
  identityPublicKey: null,
  role: 'admin' as const,
};
const request = { id: 'req-1', caller: { kind: 'api_key' }, org } as unknown as FastifyRequest;

/** A commerce client that records the options of each call. */
function recordingServices() {
  const calls: unknown[] = [];
  const commerce = {
    replaceTicketCatalog: async (_request: unknown, options: unknown) => {
      calls.push(options);
      return { events: [] };
    },
  };
  return { services: { commerce } as unknown as ServiceClients, calls };
}

describe('rpcRoute', () => {
  it("passes a route's deadline with the call, and only the caller's facts without one", async () => {
    const withDeadline = recordingServices();
    const route = rpcRoute(
      { services: withDeadline.services, config: {} as never, credentials: {} as never },
      { rpc: ['commerce', 'replaceTicketCatalog'], body: true, timeoutMs: 30_000 },
    );
    const input = { body: { events: [] }, query: {}, params: {}, request, reply: {} as FastifyReply };
    expect(await route.handle(input)).toEqual({ events: [] });
    expect(withDeadline.calls).toEqual([{ requestId: 'req-1', callerId: 'api_key', timeoutMs: 30_000 }]);

    const withoutDeadline = recordingServices();
    await rpcRoute(
      { services: withoutDeadline.services, config: {} as never, credentials: {} as never },
      { rpc: ['commerce', 'replaceTicketCatalog'], body: true },
    ).handle(input);
    expect(withoutDeadline.calls).toEqual([{ requestId: 'req-1', callerId: 'api_key' }]);
  });
});
