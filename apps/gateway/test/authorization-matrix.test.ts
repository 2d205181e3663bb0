import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, type Endpoint } from '../src/catalog/endpoints.js';
import { addMember, bearer, onboard, startTestGateway, type Onboarded, type Gateway } from './harness.js';
import {
  bsvaliasErrorShapeProblems,
  concreteUrl,
  errorShapeProblems,
  forwardsToService,
  isBsvalias,
  SERVICES_DOWN,
  uniqueName,
} from './support.js';

/** What the spec's rules say a credential gets on an endpoint. */
type Expected = 'unauthenticated' | 'forbidden' | 'passes' | 'unspecified';

type Credential = {
  name: string;
  headers: () => Promise<Record<string, string>> | Record<string, string>;
  expect: (endpoint: Endpoint) => Expected;
};

let gateway: Gateway;
let orgA: Onboarded;
let orgB: Onboarded;
let staffA: { key: string; userId: string };
let adminA: { key: string; userId: string };
let revokedKey: string;

beforeAll(async () => {
  gateway = await startTestGateway(SERVICES_DOWN);
  orgA = await onboard(gateway, uniqueName('Matrix A'));
  orgB = await onboard(gateway, uniqueName('Matrix B'));
  staffA = await addMember(gateway, orgA, 'staff');
  adminA = await addMember(gateway, orgA, 'admin');
  const created = await gateway.app.inject({
    method: 'POST',
    url: '/api/v1/me/api-keys',
    headers: bearer(orgA.key),
    payload: { name: 'to revoke' },
  });
  expect(created.statusCode).toBe(201);
  const revoked = await gateway.app.inject({
    method: 'DELETE',
    url: `/api/v1/me/api-keys/${created.json().id}`,
    headers: bearer(orgA.key),
  });
  expect(revoked.statusCode).toBe(200);
  revokedKey = created.json().key;
});
afterAll(async () => {
  await gateway?.close();
});

/** One request to an endpoint as the matrix sends it: A's handle in the path, `{"org_handle": A}` as the body or query. */
function call(endpoint: Endpoint, headers: Record<string, string>, handle = orgA.handle): Promise<LightMyRequestResponse> {
  const hasBody = ['POST', 'PUT', 'PATCH'].includes(endpoint.method);
  const url = concreteUrl(endpoint.path, handle);
  const query = endpoint.method === 'GET' && endpoint.role && !/:(handle|shop_id)\b/.test(endpoint.path) ? `?org_handle=${handle}` : '';
  return gateway.app.inject({
    method: endpoint.method,
    url: url + query,
    headers: hasBody ? { 'content-type': 'application/json', ...headers } : headers,
    ...(hasBody ? { payload: JSON.stringify({ org_handle: handle }) } : {}),
  });
}

/** Everything wrong with one answer: the rule's status, no 500, 503 only where a service is down, the error body shape. */
function violations(endpoint: Endpoint, expected: Expected, response: LightMyRequestResponse): string[] {
  const status = response.statusCode;
  const where = `${endpoint.method} ${endpoint.path} -> ${status}`;
  const problems: string[] = [];
  if (expected === 'unauthenticated' && status !== 401) problems.push(`${where}, expected 401`);
  if (expected === 'forbidden' && status !== 403) problems.push(`${where}, expected 403`);
  if (expected === 'passes' && (status === 401 || status === 403)) problems.push(`${where}, expected to pass auth`);
  if (status >= 500 && status !== 501 && !(status === 503 && forwardsToService(endpoint)))
    problems.push(`${where}: server error ${response.body.slice(0, 120)}`);
  if (status === 501 && response.json().error?.code !== 'not_implemented') problems.push(`${where}: 501 without not_implemented`);
  const shapeProblems = isBsvalias(endpoint) ? bsvaliasErrorShapeProblems : errorShapeProblems;
  if (status >= 400) for (const problem of shapeProblems(response)) problems.push(`${where}: ${problem}`);
  return problems;
}

async function walk(credential: Credential, endpoints: readonly Endpoint[] = ENDPOINTS): Promise<string[]> {
  const headers = await credential.headers();
  const problems: string[] = [];
  for (const endpoint of endpoints) problems.push(...violations(endpoint, credential.expect(endpoint), await call(endpoint, headers)));
  return problems;
}

/** A credential that is not a valid user key: refused on every route that reads a bearer key. */
const notAUserKey = (endpoint: Endpoint): Expected => {
  switch (endpoint.auth) {
    case 'none':
      return 'passes';
    default:
      return 'unauthenticated';
  }
};

/**
 * bearer_optional routes whose body may name an organisation to act for as its admin (publishing its feed):
 * the matrix's `{"org_handle": A}` asks that of them.
 */
const ACTS_AS_ADMIN_OF_NAMED_ORG = new Set(['POST /api/v1/feeds']);

/** A valid user key with the given role in A (null: a stranger to A). */
const userKey =
  (roleInA: 'owner' | 'admin' | 'staff' | null) =>
  (endpoint: Endpoint): Expected => {
    const satisfied = { owner: ['owner'], admin: ['owner', 'admin'], staff: ['owner', 'admin', 'staff'] };
    switch (endpoint.auth) {
      case 'none':
        return 'passes';
      case 'bearer_optional':
        if (!ACTS_AS_ADMIN_OF_NAMED_ORG.has(`${endpoint.method} ${endpoint.path}`)) return 'passes';
        return roleInA && satisfied.admin.includes(roleInA) ? 'passes' : 'forbidden';
      case 'bearer':
        if (!endpoint.role) return 'passes';
        return roleInA && satisfied[endpoint.role].includes(roleInA) ? 'passes' : 'forbidden';
      default:
        return 'unauthenticated';
    }
  };

const CREDENTIALS: Credential[] = [
  {
    name: 'no credentials',
    headers: () => ({}),
    expect: (endpoint) => (endpoint.auth === 'none' ? 'passes' : endpoint.auth === 'bearer_optional' ? 'unspecified' : 'unauthenticated'),
  },
  { name: 'a malformed Authorization header', headers: () => ({ authorization: 'Bearer not a key' }), expect: notAUserKey },
  { name: 'a well-formed but unknown key', headers: () => bearer(`ctk_sk_${randomBytes(32).toString('base64url')}`), expect: notAUserKey },
  { name: 'a revoked key', headers: () => bearer(revokedKey), expect: notAUserKey },
  { name: 'the owner key of another organisation (B)', headers: () => bearer(orgB.key), expect: userKey(null) },
  { name: 'a staff key of A', headers: () => bearer(staffA.key), expect: userKey('staff') },
  { name: 'an admin key of A', headers: () => bearer(adminA.key), expect: userKey('admin') },
  { name: 'the owner key of A', headers: () => bearer(orgA.key), expect: userKey('owner') },
];

describe('the authorization matrix over every catalog endpoint', () => {
  it("covers the spec's 83 rows and the extra rows", () => {
    expect(ENDPOINTS.filter((e) => !e.extra)).toHaveLength(83);
    expect(ENDPOINTS.filter((e) => e.extra).length).toBeGreaterThan(0);
  });

  it.each(CREDENTIALS)("with $name, every endpoint answers as the spec's auth and role rules say, never 500", async (credential) => {
    expect(await walk(credential)).toEqual([]);
  });

  it('with a payment-gate key of A, paygate_key routes pass and every route reading a user key answers 401', async () => {
    const created = await gateway.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${orgA.handle}/paygate-keys`,
      headers: bearer(orgA.key),
      payload: { name: 'matrix' },
    });
    expect(created.statusCode).toBe(201);
    const problems = await walk({
      name: 'paygate key',
      headers: () => bearer(created.json().key),
      expect: (endpoint) => (endpoint.auth === 'paygate_key' || endpoint.auth === 'none' ? 'passes' : 'unauthenticated'),
    });
    expect(problems).toEqual([]);
  });

  describe('commerce_key routes', () => {
    const commerceRoutes = ENDPOINTS.filter((e) => e.auth === 'commerce_key');
    const rotate = async (owner: Onboarded) => {
      const response = await gateway.app.inject({
        method: 'POST',
        url: `/api/v1/orgs/${owner.handle}/commerce-key`,
        headers: bearer(owner.key),
      });
      expect(response.statusCode).toBe(201);
      return response.json().commerce_public_key as string;
    };

    it('are the seven of spec 4.13', () => {
      expect(commerceRoutes).toHaveLength(7);
    });

    it("pass with A's commerce key, which is refused with 401 everywhere a user key is read", async () => {
      const key = await rotate(orgA);
      const problems = await walk({
        name: 'A commerce key',
        headers: () => ({ 'x-commerce-key': key }),
        expect: (endpoint) =>
          endpoint.auth === 'commerce_key' || endpoint.auth === 'none'
            ? 'passes'
            : endpoint.auth === 'bearer_optional'
              ? 'unspecified'
              : 'unauthenticated',
      });
      expect(problems).toEqual([]);
    });

    it("answer 403 to B's commerce key on A's merchant paths", async () => {
      const key = await rotate(orgB);
      expect(
        await walk({ name: 'B commerce key', headers: () => ({ 'x-commerce-key': key }), expect: () => 'forbidden' }, commerceRoutes),
      ).toEqual([]);
    });

    it('answer 401 to a commerce key that has been rotated away', async () => {
      const old = await rotate(orgA);
      await rotate(orgA);
      expect(
        await walk(
          { name: 'rotated-away key', headers: () => ({ 'x-commerce-key': old }), expect: () => 'unauthenticated' },
          commerceRoutes,
        ),
      ).toEqual([]);
    });

    it('answer 401 to a user API key sent as the commerce key', async () => {
      expect(
        await walk(
          { name: 'user key as commerce key', headers: () => ({ 'x-commerce-key': orgA.key }), expect: () => 'unauthenticated' },
          commerceRoutes,
        ),
      ).toEqual([]);
    });
  });

  // The gateway's half of a webhook's authentication (decision 0019): the signature header and the
  // organisation of the URL. Commerce verifies the signature itself (test/provider-webhooks.test.ts).
  describe.each([
    ['card-provider' as const, 'stripe-signature'],
    ['wallet-provider' as const, 'x-wallet-provider-signature'],
  ])('the %s webhook', (provider, header) => {
    const deliver = (query: string, signature?: string) =>
      gateway.app.inject({
        method: 'POST',
        url: `/api/webhooks/${provider}${query}`,
        headers: { 'content-type': 'application/json', ...(signature ? { [header]: signature } : {}) },
        payload: JSON.stringify({
          id: `evt_${randomBytes(8).toString('hex')}`,
          type: 'payment.completed',
          data: { object: {}, payment_id: 'wp_1', amount_minor: 100, currency: 'USD' },
        }),
      });
    const signature = `t=${Math.floor(Date.now() / 1000)},v1=${'ab'.repeat(32)}`;

    it('answers 401 to an unsigned delivery', async () => {
      const response = await deliver(`?org=${orgA.handle}`);
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('invalid_signature');
      expect(errorShapeProblems(response)).toEqual([]);
    });

    it("answers 401 to a delivery signed with the other provider's header only", async () => {
      const other = header === 'stripe-signature' ? 'x-wallet-provider-signature' : 'stripe-signature';
      const response = await gateway.app.inject({
        method: 'POST',
        url: `/api/webhooks/${provider}?org=${orgA.handle}`,
        headers: { 'content-type': 'application/json', [other]: signature },
        payload: '{"id":"evt_1","type":"x","data":{"object":{}}}',
      });
      expect(response.statusCode).toBe(401);
    });

    it('answers 422 naming org without ?org=, and 404 for an organisation that does not exist', async () => {
      const missing = await deliver('', signature);
      expect(missing.statusCode).toBe(422);
      expect(missing.json().error.details.issues[0].field).toBe('org');
      expect((await deliver('?org=no-such-shop-0000', signature)).statusCode).toBe(404);
    });

    it('passes a signed delivery for a known organisation on to commerce (503 while it is down)', async () => {
      const response = await deliver(`?org=${orgA.handle}`, signature);
      expect(response.statusCode).toBe(503);
      expect(errorShapeProblems(response)).toEqual([]);
    });
  });
});

describe('spec 7.1: a bearer_optional endpoint that acts on a user', () => {
  it('answers 401 to POST /api/v1/organizations without a key, with a valid body', async () => {
    const response = await gateway.app.inject({ method: 'POST', url: '/api/v1/organizations', payload: { name: uniqueName('Nobody') } });
    expect(response.statusCode).toBe(401);
  });

  it('answers 401 to POST /api/v1/organizations without a key even when the body is invalid', async () => {
    const response = await gateway.app.inject({ method: 'POST', url: '/api/v1/organizations', payload: { org_handle: orgA.handle } });
    expect({ status: response.statusCode, code: response.json().error.code }).toEqual({ status: 401, code: 'unauthenticated' });
  });
});

describe('data isolation between organisations', () => {
  it("B's owner cannot read A's organisation, and the answer does not contain A's id", async () => {
    const a = await onboard(gateway, uniqueName('Isolated A'));
    const b = await onboard(gateway, uniqueName('Isolated B'));
    const response = await gateway.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.handle}`, headers: bearer(b.key) });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('forbidden');
    expect(response.body).not.toContain(a.orgId);
    expect(response.body).not.toContain(a.userId);
  });

  it("B's owner cannot list A's members, A's payment-gate keys or A's personalised capabilities", async () => {
    const a = await onboard(gateway, uniqueName('Isolated A'));
    const b = await onboard(gateway, uniqueName('Isolated B'));
    const key = await gateway.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${a.handle}/paygate-keys`,
      headers: bearer(a.key),
      payload: { name: 'secret' },
    });
    expect(key.statusCode).toBe(201);
    for (const path of ['members', 'paygate-keys', 'capabilities']) {
      const response = await gateway.app.inject({ method: 'GET', url: `/api/v1/orgs/${a.handle}/${path}`, headers: bearer(b.key) });
      expect({ path, status: response.statusCode }).toEqual({ path, status: 403 });
      expect(response.body).not.toContain(a.userId);
      expect(response.body).not.toContain(key.json().id);
    }
  });

  it("B's owner cannot change A's organisation or add themselves to it", async () => {
    const a = await onboard(gateway, uniqueName('Isolated A'));
    const b = await onboard(gateway, uniqueName('Isolated B'));
    const patch = await gateway.app.inject({
      method: 'PATCH',
      url: `/api/v1/organizations/${a.handle}`,
      headers: bearer(b.key),
      payload: { name: 'Taken over' },
    });
    expect(patch.statusCode).toBe(403);
    const join = await gateway.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${a.handle}/members`,
      headers: bearer(b.key),
      payload: { user_id: b.userId, role: 'owner' },
    });
    expect(join.statusCode).toBe(403);
    const org = await gateway.app.inject({ method: 'GET', url: `/api/v1/organizations/${a.handle}`, headers: bearer(a.key) });
    expect(org.json().name).not.toBe('Taken over');
    expect(await gateway.deps.prisma.membership.count({ where: { organizationId: a.orgId } })).toBe(1);
  });

  it("GET /api/v1/organizations for B's owner lists only B", async () => {
    await onboard(gateway, uniqueName('Isolated A'));
    const b = await onboard(gateway, uniqueName('Isolated B'));
    const response = await gateway.app.inject({ method: 'GET', url: '/api/v1/organizations', headers: bearer(b.key) });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.map((o: { id: string; handle: string; role: string }) => [o.id, o.handle, o.role])).toEqual([
      [b.orgId, b.handle, 'owner'],
    ]);
  });
});
