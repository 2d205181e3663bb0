import { loadConfig, type RunningService } from '@ctk/shared';
import { createTestDatabase, startBuiltService, TEST_DATA_DIR } from '@ctk/shared/testing';
import type { FastifyInstance } from 'fastify';
import { buildGateway, service } from '../src/app.js';
import { configSchema } from '../src/config.js';
import type { GatewayDeps } from '../src/deps.js';

/** A running gateway: its port and close(), the Fastify app (called with `inject`) and its dependencies. */
export type Gateway = RunningService & { app: FastifyInstance; deps: GatewayDeps };

/**
 * A gateway on a fresh database (PostgreSQL when CTK_TEST_POSTGRES_URL is set, else in-memory PGlite),
 * started in-process on a free port and called with `app.inject`. `env` overrides configuration
 * (service addresses, limits, PORT).
 */
export async function startTestGateway(env: Record<string, string> = {}): Promise<Gateway> {
  const databaseUrl = await createTestDatabase('gateway');
  const config = loadConfig(configSchema, {
    LOG_LEVEL: 'silent',
    PORT: '0',
    CTK_DATA_DIR: TEST_DATA_DIR,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    CTK_RATE_LIMIT_PER_MINUTE: '100000',
    CTK_SIGNUP_RATE_LIMIT_PER_MINUTE: '100000',
    ...env,
  });
  return startBuiltService(service, buildGateway, config);
}

export type Onboarded = { key: string; handle: string; userId: string; orgId: string };

/** Onboards a new user and organisation without a key, as a newcomer would. */
export async function onboard(
  gateway: Gateway,
  name: string,
  extra: Record<string, unknown> = {},
  remoteAddress?: string,
): Promise<Onboarded> {
  const response = await gateway.app.inject({ method: 'POST', url: '/api/v1/onboard', payload: { name, ...extra }, remoteAddress });
  if (response.statusCode !== 201) throw new Error(`onboard failed: ${response.statusCode} ${response.body}`);
  const body = response.json();
  return { key: body.api_key.key, handle: body.organization.handle, userId: body.user.id, orgId: body.organization.id };
}

/** Adds a new member with a role (as the owner) and returns the member's own API key. */
export async function addMember(
  gateway: Gateway,
  owner: Onboarded,
  role: 'owner' | 'admin' | 'staff',
): Promise<{ key: string; userId: string }> {
  const response = await gateway.app.inject({
    method: 'POST',
    url: `/api/v1/orgs/${owner.handle}/members`,
    headers: bearer(owner.key),
    payload: { name: `${role} of ${owner.handle}`, role },
  });
  if (response.statusCode !== 201) throw new Error(`add member failed: ${response.statusCode} ${response.body}`);
  const body = response.json();
  return { key: body.api_key.key, userId: body.member.user_id };
}

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}
