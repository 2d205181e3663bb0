import { randomUUID } from 'node:crypto';
import { PrivateKey } from '@bsv/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, onboard, startTestGateway, type Gateway } from './harness.js';
import { startOwnersStack } from './owners-harness.js';
import { errorShapeProblems, expectError, SERVICES_DOWN, uniqueName } from './support.js';

let gateway: Gateway;

beforeAll(async () => {
  gateway = await startOwnersStack();
});
afterAll(async () => {
  await gateway?.close();
});

const get = (url: string, key: string) => gateway.app.inject({ method: 'GET', url, headers: bearer(key) });
const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, key: string, payload?: Record<string, unknown>) =>
  gateway.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });

describe('API keys', () => {
  it('creating a key returns the secret once; listing never shows a secret', async () => {
    const owner = await onboard(gateway, uniqueName('Keys'));
    const created = await send('POST', '/api/v1/me/api-keys', owner.key, { name: 'laptop' });
    expect(created.statusCode).toBe(201);
    const key = created.json();
    expect(key).toMatchObject({
      name: 'laptop',
      id: expect.any(String),
      prefix: expect.any(String),
      key: expect.stringMatching(/^ctk_sk_/),
    });
    expect(key.key.startsWith(key.prefix)).toBe(true);
    expect((await get('/api/v1/me', key.key)).json().id).toBe(owner.userId);

    const list = await get('/api/v1/me/api-keys', owner.key);
    expect(list.statusCode).toBe(200);
    expect(
      list
        .json()
        .data.map((k: { name: string }) => k.name)
        .sort(),
    ).toEqual(['laptop', 'onboarding']);
    for (const entry of list.json().data) {
      expect(Object.keys(entry).sort()).toEqual(['created_at', 'expires_at', 'id', 'name', 'prefix', 'revoked_at']);
      // Keys made here or at onboarding work until revoked; only a sign-in's key is a session.
      expect(entry.expires_at).toBeNull();
    }
    expect(list.body).not.toContain(key.key);
    expect(list.body).not.toContain(owner.key);
  });

  it('payment-gate keys keep the names they were made with, each its own; the list shows no secret', async () => {
    const owner = await onboard(gateway, uniqueName('Gate keys'));
    const url = `/api/v1/orgs/${owner.handle}/paygate-keys`;
    const weather = await send('POST', url, owner.key, { name: 'Weather API' });
    const maps = await send('POST', url, owner.key, { name: 'Maps API' });
    expect(weather.statusCode, weather.body).toBe(201);
    expect(weather.json()).toMatchObject({ name: 'Weather API', key: expect.stringMatching(/^ctk_pg_/) });
    expect(maps.json()).toMatchObject({ name: 'Maps API', account_id: weather.json().account_id });
    const listed = (await get(url, owner.key)).json().data;
    expect(listed.map((k: { id: string; name: string }) => [k.id, k.name])).toEqual([
      [maps.json().id, 'Maps API'],
      [weather.json().id, 'Weather API'],
    ]);
    for (const entry of listed)
      expect(Object.keys(entry).sort()).toEqual(['account_id', 'created_at', 'id', 'name', 'prefix', 'revoked_at']);
    expect(JSON.stringify(listed)).not.toContain(weather.json().key);
  });

  it('a revoked key is refused with 401 at once, and shows as revoked', async () => {
    const owner = await onboard(gateway, uniqueName('Revoke'));
    const created = (await send('POST', '/api/v1/me/api-keys', owner.key, { name: 'old phone' })).json();
    expect((await get('/api/v1/me', created.key)).statusCode).toBe(200); // resolved and cached once
    const revoked = await send('DELETE', `/api/v1/me/api-keys/${created.id}`, owner.key);
    expect(revoked.statusCode).toBe(200);
    expectError(await get('/api/v1/me', created.key), 401, 'invalid_api_key');
    expect((await get('/api/v1/me', owner.key)).statusCode).toBe(200);
    const listed = (await get('/api/v1/me/api-keys', owner.key)).json().data.find((k: { id: string }) => k.id === created.id);
    expect(listed.revoked_at).not.toBeNull();
  });

  it('a key can revoke itself, and is refused right after', async () => {
    const owner = await onboard(gateway, uniqueName('Self Revoke'));
    const me = (await get('/api/v1/me', owner.key)).json();
    expect((await send('DELETE', `/api/v1/me/api-keys/${me.api_key.id}`, owner.key)).statusCode).toBe(200);
    expectError(await get('/api/v1/me', owner.key), 401, 'invalid_api_key');
  });

  it("a user cannot revoke another user's key: 404, and the key keeps working", async () => {
    const alice = await onboard(gateway, uniqueName('Alice'));
    const mallory = await onboard(gateway, uniqueName('Mallory'));
    const alicesKeyId = (await get('/api/v1/me', alice.key)).json().api_key.id;
    expectError(await send('DELETE', `/api/v1/me/api-keys/${alicesKeyId}`, mallory.key), 404, 'not_found');
    expect((await get('/api/v1/me', alice.key)).statusCode).toBe(200);
  });

  it('revoking a key twice is 404 the second time', async () => {
    const owner = await onboard(gateway, uniqueName('Twice'));
    const created = (await send('POST', '/api/v1/me/api-keys', owner.key, { name: 'once' })).json();
    expect((await send('DELETE', `/api/v1/me/api-keys/${created.id}`, owner.key)).statusCode).toBe(200);
    expectError(await send('DELETE', `/api/v1/me/api-keys/${created.id}`, owner.key), 404, 'not_found');
  });
});

describe('members and roles', () => {
  const members = async (handle: string, key: string) =>
    (await get(`/api/v1/orgs/${handle}/members`, key)).json().data as Array<{ user_id: string; role: string }>;

  it('an admin can add staff, who can then work in the organisation', async () => {
    const owner = await onboard(gateway, uniqueName('Team'));
    const admin = await addMember(gateway, owner, 'admin');
    const added = await send('POST', `/api/v1/orgs/${owner.handle}/members`, admin.key, { name: 'Barista', role: 'staff' });
    expect(added.statusCode).toBe(201);
    expect(added.json().member).toMatchObject({ role: 'staff', name: 'Barista' });
    const staffKey = added.json().api_key.key;
    expect((await get(`/api/v1/organizations/${owner.handle}`, staffKey)).json()).toMatchObject({ handle: owner.handle, role: 'staff' });
    expect((await get('/api/v1/me', staffKey)).json().organizations).toEqual([
      expect.objectContaining({ handle: owner.handle, role: 'staff' }),
    ]);
  });

  it('an admin can add an existing user by id', async () => {
    const owner = await onboard(gateway, uniqueName('Team'));
    const admin = await addMember(gateway, owner, 'admin');
    const other = await onboard(gateway, uniqueName('Elsewhere'));
    const added = await send('POST', `/api/v1/orgs/${owner.handle}/members`, admin.key, { user_id: other.userId, role: 'staff' });
    expect(added.statusCode).toBe(201);
    expect(added.json().api_key).toBeUndefined();
    expect((await get(`/api/v1/organizations/${owner.handle}`, other.key)).statusCode).toBe(200);
    expectError(
      await send('POST', `/api/v1/orgs/${owner.handle}/members`, admin.key, { user_id: other.userId, role: 'admin' }),
      409,
      'already_exists',
    );
  });

  it('staff cannot add anyone: 403, and no member is added', async () => {
    const owner = await onboard(gateway, uniqueName('Team'));
    const staff = await addMember(gateway, owner, 'staff');
    for (const role of ['staff', 'admin', 'owner']) {
      expectError(await send('POST', `/api/v1/orgs/${owner.handle}/members`, staff.key, { name: 'Friend', role }), 403, 'forbidden');
    }
    expect(await members(owner.handle, owner.key)).toHaveLength(2);
  });

  it('an admin cannot grant the owner role, by adding or by promoting: 403', async () => {
    const owner = await onboard(gateway, uniqueName('Team'));
    const admin = await addMember(gateway, owner, 'admin');
    const staff = await addMember(gateway, owner, 'staff');
    expectError(
      await send('POST', `/api/v1/orgs/${owner.handle}/members`, admin.key, { name: 'Partner', role: 'owner' }),
      403,
      'forbidden',
    );
    expectError(
      await send('PATCH', `/api/v1/orgs/${owner.handle}/members/${staff.userId}`, admin.key, { role: 'owner' }),
      403,
      'forbidden',
    );
    expectError(
      await send('PATCH', `/api/v1/orgs/${owner.handle}/members/${admin.userId}`, admin.key, { role: 'owner' }),
      403,
      'forbidden',
    );
    expect((await members(owner.handle, owner.key)).filter((m) => m.role === 'owner')).toHaveLength(1);
  });

  it('an admin cannot demote or remove an owner: 403', async () => {
    const owner = await onboard(gateway, uniqueName('Team'));
    const admin = await addMember(gateway, owner, 'admin');
    expectError(
      await send('PATCH', `/api/v1/orgs/${owner.handle}/members/${owner.userId}`, admin.key, { role: 'staff' }),
      403,
      'forbidden',
    );
    expectError(await send('DELETE', `/api/v1/orgs/${owner.handle}/members/${owner.userId}`, admin.key), 403, 'forbidden');
    expect((await get(`/api/v1/organizations/${owner.handle}`, owner.key)).json().role).toBe('owner');
  });

  it('an owner can grant the owner role, by adding and by promoting', async () => {
    const owner = await onboard(gateway, uniqueName('Team'));
    const added = await send('POST', `/api/v1/orgs/${owner.handle}/members`, owner.key, { name: 'Partner', role: 'owner' });
    expect(added.statusCode).toBe(201);
    expect(added.json().member.role).toBe('owner');
    const admin = await addMember(gateway, owner, 'admin');
    const promoted = await send('PATCH', `/api/v1/orgs/${owner.handle}/members/${admin.userId}`, owner.key, { role: 'owner' });
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json().member.role).toBe('owner');
    expect((await get(`/api/v1/orgs/${owner.handle}/paygate-keys`, admin.key)).statusCode).toBe(200);
  });

  it('the last owner can be neither demoted nor removed: 409 failed_precondition', async () => {
    const owner = await onboard(gateway, uniqueName('Team'));
    expectError(
      await send('PATCH', `/api/v1/orgs/${owner.handle}/members/${owner.userId}`, owner.key, { role: 'admin' }),
      409,
      'failed_precondition',
    );
    expectError(await send('DELETE', `/api/v1/orgs/${owner.handle}/members/${owner.userId}`, owner.key), 409, 'failed_precondition');
    expect(await members(owner.handle, owner.key)).toEqual([expect.objectContaining({ user_id: owner.userId, role: 'owner' })]);
  });

  it('with a second owner, the first can step down', async () => {
    const owner = await onboard(gateway, uniqueName('Team'));
    await addMember(gateway, owner, 'owner');
    const stepDown = await send('PATCH', `/api/v1/orgs/${owner.handle}/members/${owner.userId}`, owner.key, { role: 'admin' });
    expect(stepDown.statusCode).toBe(200);
    expect((await get(`/api/v1/organizations/${owner.handle}`, owner.key)).json().role).toBe('admin');
  });

  it('a removed member loses access at once: 403', async () => {
    const owner = await onboard(gateway, uniqueName('Team'));
    const staff = await addMember(gateway, owner, 'staff');
    expect((await get(`/api/v1/organizations/${owner.handle}`, staff.key)).statusCode).toBe(200); // resolved and cached once
    expect((await send('DELETE', `/api/v1/orgs/${owner.handle}/members/${staff.userId}`, owner.key)).statusCode).toBe(200);
    expectError(await get(`/api/v1/organizations/${owner.handle}`, staff.key), 403, 'forbidden');
    expectError(await get(`/api/v1/orgs/${owner.handle}/members`, staff.key), 403, 'forbidden');
  });

  it('a demoted admin loses admin access at once: 403', async () => {
    const owner = await onboard(gateway, uniqueName('Team'));
    const admin = await addMember(gateway, owner, 'admin');
    expect((await get(`/api/v1/orgs/${owner.handle}/paygate-keys`, admin.key)).statusCode).toBe(200);
    expect((await send('PATCH', `/api/v1/orgs/${owner.handle}/members/${admin.userId}`, owner.key, { role: 'staff' })).statusCode).toBe(
      200,
    );
    expectError(await get(`/api/v1/orgs/${owner.handle}/paygate-keys`, admin.key), 403, 'forbidden');
    expect((await get(`/api/v1/orgs/${owner.handle}/members`, admin.key)).statusCode).toBe(200);
  });

  it('changing or removing someone who is not a member is 404', async () => {
    const owner = await onboard(gateway, uniqueName('Team'));
    const stranger = await onboard(gateway, uniqueName('Stranger'));
    expectError(
      await send('PATCH', `/api/v1/orgs/${owner.handle}/members/${stranger.userId}`, owner.key, { role: 'staff' }),
      404,
      'not_found',
    );
    expectError(await send('DELETE', `/api/v1/orgs/${owner.handle}/members/${randomUUID()}`, owner.key), 404, 'not_found');
    expect((await get('/api/v1/me', stranger.key)).json().organizations).toEqual([
      expect.objectContaining({ handle: stranger.handle, role: 'owner' }),
    ]);
  });

  it('adding a new member with an email that already has an account answers 409 already_exists, not 500', async () => {
    const owner = await onboard(gateway, uniqueName('Team'));
    const email = `${randomUUID()}@example.com`;
    expect(
      (await send('POST', `/api/v1/orgs/${owner.handle}/members`, owner.key, { name: 'First', email, role: 'staff' })).statusCode,
    ).toBe(201);
    const again = await send('POST', `/api/v1/orgs/${owner.handle}/members`, owner.key, { name: 'Second', email, role: 'staff' });
    expectError(again, 409, 'already_exists');
    expect(await members(owner.handle, owner.key)).toHaveLength(2);
  });
});

describe('organisation settings', () => {
  const receivingAddress = (capabilities: {
    rungs: Array<{ capabilities: Array<{ id: string; set_up: boolean | null; next_step: string | null }> }>;
  }) => capabilities.rungs.flatMap((r) => r.capabilities).find((c) => c.id === 'receiving_address');

  it('an admin sets the receiving address, and the personalised capabilities then report it set up', async () => {
    const owner = await onboard(gateway, uniqueName('Wallet'));
    const admin = await addMember(gateway, owner, 'admin');
    const before = (await get(`/api/v1/orgs/${owner.handle}/capabilities`, admin.key)).json();
    expect(receivingAddress(before)).toMatchObject({
      set_up: false,
      next_step: expect.stringContaining(`/api/v1/organizations/${owner.handle}`),
    });

    const address = PrivateKey.fromRandom().toAddress() as string;
    const patched = await send('PATCH', `/api/v1/organizations/${owner.handle}`, admin.key, { receiving_address: address });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ handle: owner.handle, receiving_address: address });
    expect((await get(`/api/v1/organizations/${owner.handle}`, owner.key)).json().receiving_address).toBe(address);

    const after = await get(`/api/v1/orgs/${owner.handle}/capabilities`, admin.key);
    expect(after.statusCode).toBe(200);
    expect(after.json().organization).toBe(owner.handle);
    expect(receivingAddress(after.json())).toMatchObject({ set_up: true, next_step: null });
  });

  it.each([
    ['not an address', 'my-wallet'],
    ['a bad checksum', withLastCharacterChanged(PrivateKey.fromRandom().toAddress() as string)],
    ['a number', 12345],
  ])('an invalid receiving address (%s) is 422 and changes nothing', async (_label, address) => {
    const owner = await onboard(gateway, uniqueName('Wallet'));
    const response = await send('PATCH', `/api/v1/organizations/${owner.handle}`, owner.key, { receiving_address: address });
    expectError(response, 422, 'validation_failed');
    expect(response.json().error.details.issues.map((i: { field: string }) => i.field)).toContain('receiving_address');
    expect((await get(`/api/v1/organizations/${owner.handle}`, owner.key)).json().receiving_address).toBeNull();
  });

  it('staff cannot change the organisation: 403', async () => {
    const owner = await onboard(gateway, uniqueName('Wallet'));
    const staff = await addMember(gateway, owner, 'staff');
    expectError(await send('PATCH', `/api/v1/organizations/${owner.handle}`, staff.key, { name: 'Mine now' }), 403, 'forbidden');
  });
});

describe('rate limiting', () => {
  let limited: Gateway;
  beforeAll(async () => {
    limited = await startTestGateway({ ...SERVICES_DOWN, CTK_RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('answers the 6th request in a minute with 429 rate_limited, a retry-after header and the error body; another key is still served', async () => {
    const owner = await onboard(limited, uniqueName('Busy'));
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 6; i++) {
      last = await limited.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(owner.key) });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(last?.json().error.code).toBe('rate_limited');
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
    expect(errorShapeProblems(last as NonNullable<typeof last>)).toEqual([]);

    const other = await onboard(limited, uniqueName('Quiet'));
    expect((await limited.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(other.key) })).statusCode).toBe(200);
  });
});

describe('CORS', () => {
  it('answers a preflight on a commerce_key route with 204 and access-control-allow-origin *', async () => {
    const owner = await onboard(gateway, uniqueName('Shop'));
    const response = await gateway.app.inject({
      method: 'OPTIONS',
      url: `/api/v1/commerce/${owner.handle}/checkout`,
      headers: {
        origin: 'https://merchant.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-commerce-key, content-type',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(String(response.headers['access-control-allow-methods'])).toContain('POST');
    expect(String(response.headers['access-control-allow-headers'])).toContain('x-commerce-key');
  });

  it("sends access-control-allow-origin * on a commerce_key route's answer", async () => {
    const owner = await onboard(gateway, uniqueName('Shop'));
    const key = (await send('POST', `/api/v1/orgs/${owner.handle}/commerce-key`, owner.key)).json().commerce_public_key;
    const response = await gateway.app.inject({
      method: 'GET',
      url: `/api/v1/commerce/${owner.handle}/catalog`,
      headers: { origin: 'https://merchant.example', 'x-commerce-key': key },
    });
    // Commerce is down in these tests: the gateway's own answer carries the header too.
    expect(response.statusCode).toBe(503);
    expect(response.headers['access-control-allow-origin']).toBe('*');
  });

  it('sends no access-control-allow-origin on a bearer route, answered or refused, nor on its preflight', async () => {
    const owner = await onboard(gateway, uniqueName('Private'));
    const origin = { origin: 'https://evil.example' };
    const answered = await gateway.app.inject({ method: 'GET', url: '/api/v1/me', headers: { ...origin, ...bearer(owner.key) } });
    expect(answered.statusCode).toBe(200);
    expect(answered.headers['access-control-allow-origin']).toBeUndefined();
    const refused = await gateway.app.inject({ method: 'GET', url: '/api/v1/me', headers: origin });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await gateway.app.inject({
      method: 'OPTIONS',
      url: `/api/v1/orgs/${owner.handle}/members`,
      headers: { ...origin, 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('request ids and health', () => {
  it('echoes a valid x-request-id in the header and in error bodies', async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/api/v1/me', headers: { 'x-request-id': 'client-req.42_a' } });
    expect(response.headers['x-request-id']).toBe('client-req.42_a');
    expect(response.json().error.request_id).toBe('client-req.42_a');
  });

  it.each([
    ['containing spaces', 'not valid id'],
    ['longer than 64 characters', 'r'.repeat(65)],
    ['with markup characters', 'abc<script>'],
  ])('generates a request id when the one sent is invalid (%s)', async (_label, sent) => {
    const response = await gateway.app.inject({ method: 'GET', url: '/api/v1/me', headers: { 'x-request-id': sent } });
    const id = response.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.json().error.request_id).toBe(id);
  });

  it('generates a different request id for each request without one', async () => {
    const [a, b] = [
      await gateway.app.inject({ method: 'GET', url: '/healthz' }),
      await gateway.app.inject({ method: 'GET', url: '/healthz' }),
    ];
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it.each([['/healthz'], ['/readyz']])('%s answers 200', async (url) => {
    const response = await gateway.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.json().status).toEqual(expect.any(String));
  });
});

/** The address with its last character replaced by another one, so its checksum no longer holds. */
function withLastCharacterChanged(address: string): string {
  return address.slice(0, -1) + (address.endsWith('x') ? 'y' : 'x');
}
