import type { ServiceClients } from '@ctk/shared';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rpcRoute } from '../src/contract/rpc-route.js';

/** A loyalty card as pos answers it: everything, for the gateway to show each reader their view of it. */
const CARD = {
  id: '9f2c4e1a-7b3d-4c8e-a5f6-0d1e2b3c4a5f',
  merchantHandle: 'blue-bottle-cafe',
  status: 'active',
  stamps: 9,
  stampsForReward: 8,
  rewardsAvailable: 1,
  reward: 'A free coffee',
  rewardsRedeemed: 2,
  identifierLast4: 'V4PN',
  identifier: '7K3M-Q9TX-2HDR-V4PN',
  createdAt: '2026-01-08T08:30:00.000Z',
  activities: [],
  holder: { address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', publicKey: undefined, userId: '5d0f3c2a-1b4e-4a6f-9c8d-7e2b1a0f3d4c' },
  organizationId: 'c0ffee00-0000-4000-8000-000000000001',
};

const calls: { request: unknown; options: unknown }[] = [];
const services = {
  pos: {
    getLoyaltyCard: async (request: unknown, options: unknown) => {
      calls.push({ request, options });
      return { card: CARD };
    },
  },
} as unknown as ServiceClients;
const input = (params: object) =>
  ({ params, query: {}, body: undefined, request: { id: 'req-1', caller: { kind: 'anonymous' } }, reply: {} }) as never;

describe('rpcRoute views', () => {
  it("shows the answer as the view's message: only its fields, by name, never the rest of what the service answered", async () => {
    const route = rpcRoute(
      { services: services, config: {} as never, credentials: {} as never },
      {
        rpc: ['pos', 'getLoyaltyCard'],
        params: z.object({ id: z.string() }),
        answer: 'card',
        view: 'ctk.pos.v1.PublicLoyaltyCard',
        timeoutMs: 30_000,
      },
    );
    const json = (await route.handle(input({ id: CARD.id }))) as Record<string, unknown>;
    expect(json).toEqual({
      id: CARD.id,
      merchant_handle: 'blue-bottle-cafe',
      status: 'active',
      stamps: 9,
      stamps_for_reward: 8,
      rewards_available: 1,
      reward: 'A free coffee',
      identifier_last4: 'V4PN',
    });
    expect(route.answer?.safeParse(json).success).toBe(true);
    expect(calls.at(-1)).toMatchObject({ request: { id: CARD.id }, options: { requestId: 'req-1', timeoutMs: 30_000 } });
  });

  it('shows nested messages by the view too, and the holder with null for what it has not, never its user', async () => {
    const route = rpcRoute(
      { services: services, config: {} as never, credentials: {} as never },
      { rpc: ['pos', 'getLoyaltyCard'], answer: 'card', view: 'ctk.pos.v1.StaffLoyaltyCard' },
    );
    const json = (await route.handle(input({}))) as Record<string, unknown>;
    expect(json.holder).toEqual({ address: CARD.holder.address, public_key: null });
    expect(JSON.stringify(json)).not.toContain(CARD.identifier);
    expect(JSON.stringify(json)).not.toContain(CARD.organizationId);
    expect(JSON.stringify(json)).not.toContain(CARD.holder.userId);
  });

  it('refuses at start a view the contracts do not have', () => {
    expect(() =>
      rpcRoute(
        { services: services, config: {} as never, credentials: {} as never },
        { rpc: ['pos', 'getLoyaltyCard'], answer: 'card', view: 'ctk.pos.v1.NoSuchView' },
      ),
    ).toThrow(/NoSuchView/);
  });
});
