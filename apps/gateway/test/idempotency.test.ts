import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, onboard, startTestGateway, type Gateway } from './harness.js';
import { expectError, SERVICES_DOWN, tableCounts, uniqueName } from './support.js';

let gateway: Gateway;

beforeAll(async () => {
  gateway = await startTestGateway(SERVICES_DOWN);
});
afterAll(async () => {
  await gateway?.close();
});

function onboardWith(key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return gateway.app.inject({ method: 'POST', url: '/api/v1/onboard', headers: { 'idempotency-key': key, ...headers }, payload: body });
}

const orgsNamed = (name: string) => gateway.deps.prisma.organization.count({ where: { name } });

describe('Idempotency-Key on POST /api/v1/onboard', () => {
  it('replays the first answer to a retry with the same key and body, and creates one organisation', async () => {
    const key = randomUUID();
    const name = uniqueName('Retry Cafe');
    const first = await onboardWith(key, { name });
    const second = await onboardWith(key, { name });

    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());

    const organizations = await gateway.app.inject({
      method: 'GET',
      url: '/api/v1/organizations',
      headers: bearer(first.json().api_key.key),
    });
    expect(organizations.statusCode).toBe(200);
    expect(organizations.json().data.map((o: { name: string }) => o.name)).toEqual([name]);
    expect(await orgsNamed(name)).toBe(1);
  });

  it('answers 422 idempotency_key_reused to the same key with a different body, creating nothing', async () => {
    const key = randomUUID();
    const name = uniqueName('Reuse Cafe');
    expect((await onboardWith(key, { name })).statusCode).toBe(201);
    const before = await tableCounts(gateway);
    const other = await onboardWith(key, { name: `${name} two` });
    expectError(other, 422, 'idempotency_key_reused');
    expect(await tableCounts(gateway)).toEqual(before);
    expect(await orgsNamed(`${name} two`)).toBe(0);
  });

  it(
    'answers two concurrent identical requests with at most one 201 body and creates exactly one organisation',
    { tags: ['concurrency'] },
    async () => {
      const key = randomUUID();
      const name = uniqueName('Race Cafe');
      const responses = await Promise.all([onboardWith(key, { name }), onboardWith(key, { name })]);

      const created = responses.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === undefined);
      const replayed = responses.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === 'true');
      const inProgress = responses.filter((r) => r.statusCode === 409 && r.json().error.code === 'idempotency_in_progress');
      expect(created).toHaveLength(1);
      expect(replayed.length + inProgress.length).toBe(1);
      for (const replay of replayed) expect(replay.json()).toEqual(created[0]?.json());
      expect(await orgsNamed(name)).toBe(1);
    },
  );

  it('scopes keys per caller: two users sending the same key and body each get their own organisation', async () => {
    const alice = await onboard(gateway, uniqueName('Alice'));
    const bob = await onboard(gateway, uniqueName('Bob'));
    const key = randomUUID();
    const name = uniqueName('Shared Name');
    const create = (owner: { key: string }) =>
      gateway.app.inject({
        method: 'POST',
        url: '/api/v1/organizations',
        headers: { ...bearer(owner.key), 'idempotency-key': key },
        payload: { name },
      });

    const forAlice = await create(alice);
    const forBob = await create(bob);
    expect([forAlice.statusCode, forBob.statusCode]).toEqual([201, 201]);
    expect(forBob.headers['idempotent-replayed']).toBeUndefined();
    expect(forBob.json().organization.id).not.toBe(forAlice.json().organization.id);
    expect(await orgsNamed(name)).toBe(2);

    const bobsOrgs = await gateway.app.inject({ method: 'GET', url: '/api/v1/organizations', headers: bearer(bob.key) });
    expect(bobsOrgs.json().data.map((o: { id: string }) => o.id)).toContain(forBob.json().organization.id);
    expect(bobsOrgs.json().data.map((o: { id: string }) => o.id)).not.toContain(forAlice.json().organization.id);
  });

  it("scopes keys per caller: a user's key does not collide with the same key used by a newcomer", async () => {
    const key = randomUUID();
    const name = uniqueName('Scoped');
    expect((await onboardWith(key, { name })).statusCode).toBe(201);
    const owner = await onboard(gateway, uniqueName('Keyed Owner'));
    const keyed = await onboardWith(key, { name }, bearer(owner.key));
    expect(keyed.statusCode).toBe(201);
    expect(keyed.headers['idempotent-replayed']).toBeUndefined();
    expect(keyed.json().user.id).toBe(owner.userId);
    expect(await orgsNamed(name)).toBe(2);
  });

  it.each([
    ['300 characters long', 'k'.repeat(300)],
    ['containing a space', 'two words'],
    ['containing a non-ASCII character', 'clé-1'],
  ])('answers 400 bad_request to a key %s, creating nothing', async (_label, key) => {
    const name = uniqueName('Bad Key');
    const before = await tableCounts(gateway);
    const response = await onboardWith(key, { name });
    expectError(response, 400, 'bad_request');
    expect(await tableCounts(gateway)).toEqual(before);
  });

  it('accepts a key of exactly 255 visible characters', async () => {
    const response = await onboardWith('k'.repeat(255), { name: uniqueName('Long Key') });
    expect(response.statusCode).toBe(201);
  });
});

describe('replays of answers that carry a key', () => {
  const post = (url: string, idempotencyKey: string, headers: Record<string, string> = {}, payload: Record<string, unknown> = {}) =>
    gateway.app.inject({ method: 'POST', url, headers: { ...headers, 'idempotency-key': idempotencyKey }, payload });

  it('replays a new API key while it works, and never after it is revoked', async () => {
    const owner = await onboard(gateway, uniqueName('Replay Keys'));
    const idempotencyKey = randomUUID();
    const first = await post('/api/v1/me/api-keys', idempotencyKey, bearer(owner.key), { name: 'laptop' });
    expect(first.statusCode).toBe(201);
    const secret = first.json().key as string;

    const live = await post('/api/v1/me/api-keys', idempotencyKey, bearer(owner.key), { name: 'laptop' });
    expect(live.headers['idempotent-replayed']).toBe('true');
    expect(live.json()).toEqual(first.json());

    const revoked = await gateway.app.inject({
      method: 'DELETE',
      url: `/api/v1/me/api-keys/${first.json().id}`,
      headers: bearer(owner.key),
    });
    expect(revoked.statusCode).toBe(200);
    const replay = await post('/api/v1/me/api-keys', idempotencyKey, bearer(owner.key), { name: 'laptop' });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).not.toContain(secret);
    expect(replay.json()).toEqual({ ...first.json(), key: null });
  });

  it("replays onboarding's key to the same client and key, but not once the key is revoked", async () => {
    const idempotencyKey = randomUUID();
    const name = uniqueName('Replay Onboard');
    const first = await onboardWith(idempotencyKey, { name });
    const secret = first.json().api_key.key as string;
    expect((await onboardWith(idempotencyKey, { name })).json().api_key.key).toBe(secret);

    const keyId = first.json().api_key.id as string;
    expect((await gateway.app.inject({ method: 'DELETE', url: `/api/v1/me/api-keys/${keyId}`, headers: bearer(secret) })).statusCode).toBe(
      200,
    );
    const replay = await onboardWith(idempotencyKey, { name });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).not.toContain(secret);
    expect(replay.json().api_key).toMatchObject({ id: keyId, key: null });
    expect(replay.json().organization).toEqual(first.json().organization);
  });

  it('does not replay an anonymous answer to another client address', async () => {
    const idempotencyKey = randomUUID();
    const name = uniqueName('Two Clients');
    const from = (remoteAddress: string) =>
      gateway.app.inject({
        method: 'POST',
        url: '/api/v1/onboard',
        remoteAddress,
        headers: { 'idempotency-key': idempotencyKey },
        payload: { name },
      });
    const first = await from('198.51.100.7');
    const second = await from('198.51.100.8');
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.body).not.toContain(first.json().api_key.key);
  });

  it('replays a rotated commerce key only while it is the current one, and a payment-gate key only until revoked', async () => {
    const owner = await onboard(gateway, uniqueName('Replay Org Keys'));
    const rotate = randomUUID();
    const first = await post(`/api/v1/orgs/${owner.handle}/commerce-key`, rotate, bearer(owner.key));
    expect((await post(`/api/v1/orgs/${owner.handle}/commerce-key`, rotate, bearer(owner.key))).json()).toEqual(first.json());
    expect((await post(`/api/v1/orgs/${owner.handle}/commerce-key`, randomUUID(), bearer(owner.key))).statusCode).toBe(201);
    const stale = await post(`/api/v1/orgs/${owner.handle}/commerce-key`, rotate, bearer(owner.key));
    expect(stale.headers['idempotent-replayed']).toBe('true');
    expect(stale.json()).toEqual({ commerce_public_key: null });

    const gate = randomUUID();
    const key = await post(`/api/v1/orgs/${owner.handle}/paygate-keys`, gate, bearer(owner.key), { name: 'gate' });
    const url = `/api/v1/orgs/${owner.handle}/paygate-keys/${key.json().id}`;
    expect((await gateway.app.inject({ method: 'DELETE', url, headers: bearer(owner.key) })).statusCode).toBe(200);
    const replay = await post(`/api/v1/orgs/${owner.handle}/paygate-keys`, gate, bearer(owner.key), { name: 'gate' });
    expect(replay.body).not.toContain(key.json().key);
    expect(replay.json().key).toBeNull();
  });

  it('keeps neither a usable key nor the Idempotency-Key in the database', async () => {
    const owner = await onboard(gateway, uniqueName('At Rest'));
    const idempotencyKey = `at-rest-${randomUUID()}`;
    const created = await post('/api/v1/me/api-keys', idempotencyKey, bearer(owner.key), { name: 'laptop' });
    const member = await post(`/api/v1/orgs/${owner.handle}/members`, `${idempotencyKey}-member`, bearer(owner.key), {
      name: 'Hire',
      role: 'staff',
    });
    const stored = JSON.stringify(await gateway.deps.prisma.idempotencyRecord.findMany());
    expect(stored).not.toContain(created.json().key);
    expect(stored).not.toContain(member.json().api_key.key);
    expect(stored).not.toContain(idempotencyKey);
    // Only the display prefix (12 characters) of a key may show.
    expect(stored).not.toMatch(/ctk_(sk|pg|pk)_[\w-]{20}/);
  });
});
