import { randomBytes, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { grpcUrlVariable, SERVICE_NAMES } from '@ctk/shared';
import { expect } from 'vitest';
import type { Gateway } from './harness.js';
import type { Endpoint } from '../src/catalog/endpoints.js';

/**
 * Every service address points at a closed port, so a route that forwards to a service always meets
 * "service down" (503 unavailable), whatever else runs on this machine.
 */
export const SERVICES_DOWN: Record<string, string> = Object.fromEntries(
  SERVICE_NAMES.map((name) => [grpcUrlVariable(name), '127.0.0.1:1']),
);

/** A name no other test uses, so each test's organisations are its own. */
export function uniqueName(label: string): string {
  return `${label} ${randomBytes(4).toString('hex')}`;
}

/**
 * A client address (in 198.18.0.0/15, kept for tests) that no other test or run is likely to use, so what the
 * gateway or a service bounds per address starts empty for it: a repeated test (decision 0030) is a new client.
 */
export function uniqueClientAddress(): string {
  const [a, b] = randomBytes(2);
  return `198.18.${a}.${b}`;
}

/** The routes a service serves (the catalog's `service`): services are down in these tests, so they may answer 503. */
export function forwardsToService(endpoint: Pick<Endpoint, 'service'>): boolean {
  return endpoint.service !== 'gateway';
}

/**
 * A concrete URL for a catalog path: organisation parameters name `handle`, ids are random uuids
 * (unless given in `ids`), the wildcard is `tx/abc`, anything else a plausible string.
 */
export function concreteUrl(path: string, handle: string, ids: Record<string, string> = {}): string {
  return path
    .replace(/:(\w+)/g, (_match, name: string) => {
      if (ids[name] !== undefined) return ids[name];
      switch (name) {
        case 'handle':
        case 'shop_id':
        case 'merchant_handle':
        case 'org_handle':
          return handle;
        case 'user_id':
        case 'id':
          return randomUUID();
        case 'paymail':
          return 'shop@example.com';
        case 'pubkey':
          return `02${'ab'.repeat(32)}`;
        case 'payment_id':
          return 'pi_123';
        default:
          return `sample-${name.replace(/_/g, '-')}`;
      }
    })
    .replace(/\*\w+$/, 'tx/abc');
}

/** Problems with the one error body shape `{error: {code, message, request_id, details?}}`, or [] when it is right. */
export function errorShapeProblems(response: LightMyRequestResponse): string[] {
  let body: unknown;
  try {
    body = response.json();
  } catch {
    return [`body is not JSON: ${response.body.slice(0, 80)}`];
  }
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  if (!error || typeof error !== 'object') return [`no "error" object: ${response.body.slice(0, 80)}`];
  const problems: string[] = [];
  if (Object.keys(body as object).length !== 1) problems.push('other top-level keys than "error"');
  for (const key of ['code', 'message', 'request_id'])
    if (typeof error[key] !== 'string' || error[key] === '') problems.push(`error.${key} missing`);
  const extra = Object.keys(error).filter((key) => !['code', 'message', 'request_id', 'details'].includes(key));
  if (extra.length) problems.push(`unexpected keys ${extra.join(', ')}`);
  if (error.request_id !== response.headers['x-request-id']) problems.push('request_id differs from the x-request-id header');
  return problems;
}

/** The paymail routes answer errors in the bsvalias shape: `{code, message, request_id, details?}` at the top level. */
export function isBsvalias(endpoint: Pick<Endpoint, 'path'>): boolean {
  return endpoint.path.startsWith('/api/v1/bsvalias/') || endpoint.path === '/.well-known/bsvalias';
}

/** Problems with the bsvalias error shape, or [] when it is right. */
export function bsvaliasErrorShapeProblems(response: LightMyRequestResponse): string[] {
  let body: Record<string, unknown>;
  try {
    body = response.json();
  } catch {
    return [`body is not JSON: ${response.body.slice(0, 80)}`];
  }
  const problems: string[] = [];
  for (const key of ['code', 'message', 'request_id'])
    if (typeof body[key] !== 'string' || body[key] === '') problems.push(`${key} missing`);
  const extra = Object.keys(body).filter((key) => !['code', 'message', 'request_id', 'details'].includes(key));
  if (extra.length) problems.push(`unexpected keys ${extra.join(', ')}`);
  return problems;
}

/** Asserts an error answer: status, code and the error body shape. */
export function expectError(response: LightMyRequestResponse, status: number, code: string): void {
  expect({ status: response.statusCode, body: response.body }).toMatchObject({ status });
  expect(response.json().error.code).toBe(code);
  expect(errorShapeProblems(response)).toEqual([]);
}

/** Row counts of every identity table that a request could write to. */
export async function tableCounts(gateway: Gateway) {
  const prisma = gateway.deps.prisma;
  const [users, apiKeys, organizations, memberships, paygateAccounts, paygateKeys, signInChallenges] = await Promise.all([
    prisma.user.count(),
    prisma.apiKey.count(),
    prisma.organization.count(),
    prisma.membership.count(),
    prisma.paygateAccount.count(),
    prisma.paygateKey.count(),
    prisma.signInChallenge.count(),
  ]);
  return { users, apiKeys, organizations, memberships, paygateAccounts, paygateKeys, signInChallenges };
}

/** A refusal as the rules want it: a 4xx, the one error shape with a code, no stack trace, no 500. */
export function expectRefused(label: string, response: LightMyRequestResponse, code?: string) {
  expect({
    label,
    status: response.statusCode >= 400 && response.statusCode < 500 ? '4xx' : response.statusCode,
    body: response.body,
  }).toMatchObject({
    label,
    status: '4xx',
  });
  const body = response.json();
  expect({ label, code: typeof body.error?.code }).toEqual({ label, code: 'string' });
  // A rate limit is no proof that the input was checked: each probe comes from its own address.
  expect({ label, code: body.error.code }).not.toEqual({ label, code: 'rate_limited' });
  if (code) expect({ label, code: body.error.code }).toEqual({ label, code });
  expect(response.body).not.toMatch(/\bat .+\.(ts|js):\d+/);
}
