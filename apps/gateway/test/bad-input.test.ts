import { randomUUID } from 'node:crypto';
import { PrivateKey } from '@bsv/sdk';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { didKeyFromPublicKey } from './did-key.js';
import { ENDPOINTS } from '../src/catalog/endpoints.js';
import { addMember, bearer, onboard, startTestGateway, type Onboarded, type Gateway } from './harness.js';
import { errorShapeProblems, expectError, SERVICES_DOWN, tableCounts, uniqueName } from './support.js';

const BODY_LIMIT = 2048;

let gateway: Gateway;

beforeAll(async () => {
  gateway = await startTestGateway({ ...SERVICES_DOWN, CTK_BODY_LIMIT_BYTES: String(BODY_LIMIT) });
});
afterAll(async () => {
  await gateway?.close();
});

/** A write route ready to call: its URL and credentials for a fresh organisation, a valid body and a mistyped one. */
type Target = {
  method: 'POST' | 'PATCH';
  url: string;
  headers: Record<string, string>;
  valid: Record<string, unknown>;
  /** A body with one field of the wrong type and that field's name; absent for routes that take no body. */
  wrongType?: { body: Record<string, unknown>; field: string };
  owner: Onboarded;
};

type Route = { name: string; takesBody: boolean; target: () => Promise<Target> };

const did = () => didKeyFromPublicKey(PrivateKey.fromRandom().toPublicKey());

/** Every implemented POST and PATCH route except items (tested elsewhere, against the pos service). */
const ROUTES: Route[] = [
  {
    name: 'POST /api/v1/onboard',
    takesBody: true,
    target: async () => ({
      method: 'POST',
      url: '/api/v1/onboard',
      headers: {},
      owner: await onboard(gateway, uniqueName('Bad Input')),
      valid: { name: uniqueName('Newcomer') },
      wrongType: { body: { name: 42 }, field: 'name' },
    }),
  },
  {
    name: 'POST /api/v1/organizations',
    takesBody: true,
    target: async () => {
      const owner = await onboard(gateway, uniqueName('Bad Input'));
      return {
        method: 'POST',
        url: '/api/v1/organizations',
        headers: bearer(owner.key),
        owner,
        valid: { name: uniqueName('Second') },
        wrongType: { body: { name: 42 }, field: 'name' },
      };
    },
  },
  {
    name: 'PATCH /api/v1/organizations/:handle',
    takesBody: true,
    target: async () => {
      const owner = await onboard(gateway, uniqueName('Bad Input'));
      return {
        method: 'PATCH',
        url: `/api/v1/organizations/${owner.handle}`,
        headers: bearer(owner.key),
        owner,
        valid: { name: 'Renamed' },
        wrongType: { body: { latitude: 'north' }, field: 'latitude' },
      };
    },
  },
  {
    name: 'POST /api/auth/challenge',
    takesBody: true,
    target: async () => ({
      method: 'POST',
      url: '/api/auth/challenge',
      headers: {},
      owner: await onboard(gateway, uniqueName('Bad Input')),
      valid: { did: did() },
      wrongType: { body: { did: 42 }, field: 'did' },
    }),
  },
  {
    name: 'POST /api/auth/verify',
    takesBody: true,
    target: async () => ({
      method: 'POST',
      url: '/api/auth/verify',
      headers: {},
      owner: await onboard(gateway, uniqueName('Bad Input')),
      valid: { nonce: '0123456789abcdef0123456789abcdef', signature: 'ab'.repeat(36) },
      wrongType: { body: { nonce: 42, signature: 'ab'.repeat(36) }, field: 'nonce' },
    }),
  },
  {
    name: 'POST /api/v1/me/api-keys',
    takesBody: true,
    target: async () => {
      const owner = await onboard(gateway, uniqueName('Bad Input'));
      return {
        method: 'POST',
        url: '/api/v1/me/api-keys',
        headers: bearer(owner.key),
        owner,
        valid: { name: 'laptop' },
        wrongType: { body: { name: 42 }, field: 'name' },
      };
    },
  },
  {
    name: 'POST /api/v1/orgs/:handle/members',
    takesBody: true,
    target: async () => {
      const owner = await onboard(gateway, uniqueName('Bad Input'));
      return {
        method: 'POST',
        url: `/api/v1/orgs/${owner.handle}/members`,
        headers: bearer(owner.key),
        owner,
        valid: { name: 'New hire', role: 'staff' },
        wrongType: { body: { name: 'New hire', role: 'boss' }, field: 'role' },
      };
    },
  },
  {
    name: 'PATCH /api/v1/orgs/:handle/members/:user_id',
    takesBody: true,
    target: async () => {
      const owner = await onboard(gateway, uniqueName('Bad Input'));
      const staff = await addMember(gateway, owner, 'staff');
      return {
        method: 'PATCH',
        url: `/api/v1/orgs/${owner.handle}/members/${staff.userId}`,
        headers: bearer(owner.key),
        owner,
        valid: { role: 'admin' },
        wrongType: { body: { role: 42 }, field: 'role' },
      };
    },
  },
  {
    name: 'POST /api/v1/orgs/:handle/paygate-keys',
    takesBody: true,
    target: async () => {
      const owner = await onboard(gateway, uniqueName('Bad Input'));
      return {
        method: 'POST',
        url: `/api/v1/orgs/${owner.handle}/paygate-keys`,
        headers: bearer(owner.key),
        owner,
        valid: { name: 'gate' },
        wrongType: { body: { name: 42 }, field: 'name' },
      };
    },
  },
  {
    name: 'POST /api/v1/orgs/:handle/commerce-key',
    takesBody: false,
    target: async () => {
      const owner = await onboard(gateway, uniqueName('Bad Input'));
      return { method: 'POST', url: `/api/v1/orgs/${owner.handle}/commerce-key`, headers: bearer(owner.key), owner, valid: {} };
    },
  },
];

/** Everything a rejected request could have written: row counts, and the organisation with its members. */
async function snapshot(owner: Onboarded) {
  const prisma = gateway.deps.prisma;
  return {
    counts: await tableCounts(gateway),
    organization: await prisma.organization.findUnique({ where: { id: owner.orgId } }),
    memberships: await prisma.membership.findMany({ where: { organizationId: owner.orgId }, orderBy: { id: 'asc' } }),
  };
}

/** Sends one bad request and checks it was refused as expected, without a 500 and without writing anything. */
async function expectRefusedWithoutWrites(
  target: Target,
  request: { payload: string; contentType: string },
  status: number,
  code: string,
): Promise<LightMyRequestResponse> {
  const before = await snapshot(target.owner);
  const response = await gateway.app.inject({
    method: target.method,
    url: target.url,
    headers: { ...target.headers, 'content-type': request.contentType },
    payload: request.payload,
  });
  expect({ status: response.statusCode, code: response.json().error?.code }).toEqual({ status, code });
  expect(errorShapeProblems(response)).toEqual([]);
  expect(await snapshot(target.owner)).toEqual(before);
  return response;
}

it('covers every implemented POST and PATCH route of the catalog but items', () => {
  const implemented = new Set(ROUTES.map((r) => r.name));
  const writeRoutes = ENDPOINTS.filter((e) => ['POST', 'PATCH'].includes(e.method)).map((e) => `${e.method} ${e.path}`);
  for (const name of implemented) expect(writeRoutes).toContain(name);
  expect(implemented.size).toBe(10);
});

describe.each(ROUTES)('$name', (route) => {
  it('accepts its valid body (so the refusals below are about the input)', async () => {
    const target = await route.target();
    const response = await gateway.app.inject({ method: target.method, url: target.url, headers: target.headers, payload: target.valid });
    // Not an input error (verify with a nonce never issued is well-formed, and refused for its content with 401).
    expect([400, 413, 415, 422, 500]).not.toContain(response.statusCode);
    expect(response.statusCode).toBe(target.url === '/api/auth/verify' ? 401 : target.method === 'PATCH' ? 200 : 201);
  });

  it('answers 400 bad_request to a body that is not valid JSON', async () => {
    const target = await route.target();
    await expectRefusedWithoutWrites(target, { payload: '{"name": "unterminated', contentType: 'application/json' }, 400, 'bad_request');
  });

  it(`answers 413 payload_too_large to a body over the ${BODY_LIMIT}-byte limit`, async () => {
    const target = await route.target();
    const payload = JSON.stringify({ ...target.valid, padding: 'x'.repeat(BODY_LIMIT + 100) });
    await expectRefusedWithoutWrites(target, { payload, contentType: 'application/json' }, 413, 'payload_too_large');
  });

  it('answers 415 unsupported_media_type to a text/plain body', async () => {
    const target = await route.target();
    await expectRefusedWithoutWrites(
      target,
      { payload: JSON.stringify(target.valid), contentType: 'text/plain' },
      415,
      'unsupported_media_type',
    );
  });

  it('answers 415 unsupported_media_type to an application/xml body', async () => {
    const target = await route.target();
    await expectRefusedWithoutWrites(target, { payload: '<name>x</name>', contentType: 'application/xml' }, 415, 'unsupported_media_type');
  });

  // A route that takes no body has no fields to name (commerce-key).
  if (route.takesBody) {
    it('answers 422 validation_failed to a JSON array', async () => {
      const target = await route.target();
      await expectRefusedWithoutWrites(
        target,
        { payload: JSON.stringify([target.valid]), contentType: 'application/json' },
        422,
        'validation_failed',
      );
    });

    it('answers 422 validation_failed naming the field that has the wrong type', async () => {
      const target = await route.target();
      const wrong = target.wrongType as NonNullable<Target['wrongType']>;
      const response = await expectRefusedWithoutWrites(
        target,
        { payload: JSON.stringify(wrong.body), contentType: 'application/json' },
        422,
        'validation_failed',
      );
      expect(response.json().error.details.issues.map((i: { field: string }) => i.field)).toContain(wrong.field);
    });

    it('answers 422 validation_failed naming an unknown extra field', async () => {
      const target = await route.target();
      const payload = JSON.stringify({ ...target.valid, unexpected_field: true });
      const response = await expectRefusedWithoutWrites(target, { payload, contentType: 'application/json' }, 422, 'validation_failed');
      expect(response.json().error.details.issues.map((i: { field: string }) => i.field)).toContain('unexpected_field');
    });
  }
});

describe('errors stay small', () => {
  it('a body with many unknown fields is one short 422 listing the first 20 and counting the rest', async () => {
    const owner = await onboard(gateway, uniqueName('Many'));
    const body: Record<string, unknown> = { name: 'laptop' };
    // Short names: the body stays under this file's 2 KiB limit.
    for (let i = 0; i < 150; i++) body[`f${i}`] = 0;
    const response = await gateway.app.inject({ method: 'POST', url: '/api/v1/me/api-keys', headers: bearer(owner.key), payload: body });
    expectError(response, 422, 'validation_failed');
    const { details, message } = response.json().error;
    expect(details.issues).toHaveLength(20);
    expect(details.more_issues).toBe(130);
    expect(message).toMatch(/; and 130 more$/);
    expect(response.body.length).toBeLessThan(3000);
  });

  it('an unknown field with a very long name is not echoed whole', async () => {
    const owner = await onboard(gateway, uniqueName('Long'));
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/api/v1/me/api-keys',
      headers: bearer(owner.key),
      payload: { name: 'laptop', ['x'.repeat(1500)]: 1 },
    });
    expectError(response, 422, 'validation_failed');
    expect(response.body.length).toBeLessThan(1000);
  });
});

describe('rejected writes leave nothing behind', () => {
  it('an onboarding refused because the handle is taken creates no user, key or organisation', async () => {
    const existing = await onboard(gateway, uniqueName('Taken'));
    const before = await tableCounts(gateway);
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/api/v1/onboard',
      payload: { name: 'Another', handle: existing.handle },
    });
    expectError(response, 409, 'already_exists');
    expect(await tableCounts(gateway)).toEqual(before);
  });

  it('an onboarding refused because the paymail alias is taken creates nothing', async () => {
    const alias = `shop${randomUUID().slice(0, 8)}`;
    expect(
      (await gateway.app.inject({ method: 'POST', url: '/api/v1/onboard', payload: { name: uniqueName('Alias'), paymail_alias: alias } }))
        .statusCode,
    ).toBe(201);
    const before = await tableCounts(gateway);
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/api/v1/onboard',
      payload: { name: uniqueName('Alias'), paymail_alias: alias },
    });
    expectError(response, 409, 'already_exists');
    expect(await tableCounts(gateway)).toEqual(before);
  });

  it('a text/plain POST to the commerce-key route is refused and does not rotate the key', async () => {
    const owner = await onboard(gateway, uniqueName('Plain'));
    const key = (
      await gateway.app.inject({ method: 'POST', url: `/api/v1/orgs/${owner.handle}/commerce-key`, headers: bearer(owner.key) })
    ).json().commerce_public_key;
    const response = await gateway.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${owner.handle}/commerce-key`,
      headers: { ...bearer(owner.key), 'content-type': 'text/plain' },
      payload: 'rotate please',
    });
    expect(response.statusCode).toBe(415);
    expect(
      (await gateway.app.inject({ method: 'GET', url: `/api/v1/organizations/${owner.handle}`, headers: bearer(owner.key) })).json()
        .commerce_public_key,
    ).toBe(key);
  });

  it('a PATCH with one invalid field changes none of the valid ones', async () => {
    const owner = await onboard(gateway, uniqueName('Patch'));
    const response = await gateway.app.inject({
      method: 'PATCH',
      url: `/api/v1/organizations/${owner.handle}`,
      headers: bearer(owner.key),
      payload: { name: 'Renamed', latitude: 'north' },
    });
    expectError(response, 422, 'validation_failed');
    expect(response.json().error.details.issues.map((i: { field: string }) => i.field)).toEqual(['latitude']);
    const org = await gateway.app.inject({ method: 'GET', url: `/api/v1/organizations/${owner.handle}`, headers: bearer(owner.key) });
    expect(org.json().name).not.toBe('Renamed');
  });

  it('an empty body sent as application/json is 400 bad_request', async () => {
    const before = await tableCounts(gateway);
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/api/v1/onboard',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expectError(response, 400, 'bad_request');
    expect(await tableCounts(gateway)).toEqual(before);
  });
});

describe('unknown routes, paths and query parameters', () => {
  it.each([
    ['GET', '/api/v1/nothing-here'],
    ['POST', '/api/v2/onboard'],
    ['DELETE', '/api/v1/organizations'],
    ['GET', '/api/pos'],
  ] as const)('%s %s answers 404 route_not_found', async (method, url) => {
    expectError(await gateway.app.inject({ method, url }), 404, 'route_not_found');
  });

  it.each([
    ['a malformed percent-encoding', '/api/v1/organizations/%E0%A4%A'],
    ['a path segment over 1,000 characters', `/api/v1/organizations/${'a'.repeat(1001)}`],
  ])('%s in the URL is 400 bad_request in the error body', async (_, url) => {
    expectError(await gateway.app.inject({ method: 'GET', url }), 400, 'bad_request');
  });

  it('a paymail of 300 characters reaches its route (the router allows path segments up to 1,000)', async () => {
    const response = await gateway.app.inject({ method: 'GET', url: `/api/v1/bsvalias/id/${'a'.repeat(290)}@localhost` });
    expect(response.statusCode).not.toBe(400);
    expect(response.json().code).not.toBe('bad_request');
  });

  it('a path id that is not a uuid is 422 validation_failed naming it', async () => {
    const owner = await onboard(gateway, uniqueName('Path'));
    const response = await gateway.app.inject({ method: 'DELETE', url: '/api/v1/me/api-keys/not-a-uuid', headers: bearer(owner.key) });
    expectError(response, 422, 'validation_failed');
    expect(response.json().error.details.issues.map((i: { field: string }) => i.field)).toContain('id');
  });

  it.each([['0'], ['101'], ['ten'], ['1e2'], ['0x10'], ['5.0'], ['5&limit=6']])(
    'a page limit of %s is 422 validation_failed naming limit',
    async (limit) => {
      const owner = await onboard(gateway, uniqueName('Limit'));
      const response = await gateway.app.inject({ method: 'GET', url: `/api/v1/me/api-keys?limit=${limit}`, headers: bearer(owner.key) });
      expectError(response, 422, 'validation_failed');
      expect(response.json().error.details.issues).toContainEqual(
        expect.objectContaining({ field: 'limit', message: 'limit must be given once, as a whole number from 1 to 100' }),
      );
    },
  );
});

describe('cursors', () => {
  const cursor = (text: string) => Buffer.from(text).toString('base64url');

  it('a page cursor round-trips: the next page continues where the first stopped', async () => {
    const owner = await onboard(gateway, uniqueName('Pages'));
    for (let i = 0; i < 3; i++) {
      expect(
        (await gateway.app.inject({ method: 'POST', url: '/api/v1/me/api-keys', headers: bearer(owner.key), payload: { name: `k${i}` } }))
          .statusCode,
      ).toBe(201);
    }
    const first = (await gateway.app.inject({ method: 'GET', url: '/api/v1/me/api-keys?limit=2', headers: bearer(owner.key) })).json();
    expect(first.data).toHaveLength(2);
    const second = (
      await gateway.app.inject({
        method: 'GET',
        url: `/api/v1/me/api-keys?limit=2&cursor=${first.next_cursor}`,
        headers: bearer(owner.key),
      })
    ).json();
    expect(second.data).toHaveLength(2);
    expect(second.next_cursor).toBeNull();
    const ids = [...first.data, ...second.data].map((k: { id: string }) => k.id);
    expect(new Set(ids).size).toBe(4);
  });

  it.each([
    ['random text', 'garbage'],
    ['no separator', cursor('2026-01-01T00:00:00.000Z')],
    ['a date that is not a date', cursor(`yesterday|${randomUUID()}`)],
    ['an id of 36 hyphens', cursor(`2026-01-01T00:00:00.000Z|${'-'.repeat(36)}`)],
    ['an id that is not a uuid', cursor('2026-01-01T00:00:00.000Z|0123456789abcdef0123456789abcdef----')],
    ["a date far before the database's range", cursor(`-271821-04-20T00:00:00.000Z|${randomUUID()}`)],
    ['a cursor longer than 200 characters', 'a'.repeat(201)],
  ])('a bad cursor (%s) is 422 validation_failed on every list', async (_label, bad) => {
    const owner = await onboard(gateway, uniqueName('Cursor'));
    for (const path of [
      '/api/v1/me/api-keys',
      '/api/v1/organizations',
      `/api/v1/orgs/${owner.handle}/members`,
      `/api/v1/orgs/${owner.handle}/paygate-keys`,
    ]) {
      const response = await gateway.app.inject({ method: 'GET', url: `${path}?cursor=${bad}`, headers: bearer(owner.key) });
      expect({ path, status: response.statusCode, code: response.json().error?.code }).toEqual({
        path,
        status: 422,
        code: 'validation_failed',
      });
      expect(errorShapeProblems(response)).toEqual([]);
    }
  });
});
