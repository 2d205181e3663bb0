import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../src/app.js';
import { bearer, onboard, startTestGateway } from './harness.js';
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

  it('answers two concurrent identical requests with at most one 201 body and creates exactly one organisation', async () => {
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
  });

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
