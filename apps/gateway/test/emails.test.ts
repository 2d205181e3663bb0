import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, onboard, startTestGateway, type Gateway } from './harness.js';
import { expectError, SERVICES_DOWN, uniqueName } from './support.js';

let gateway: Gateway;

beforeAll(async () => {
  gateway = await startTestGateway(SERVICES_DOWN);
});
afterAll(async () => {
  await gateway?.close();
});

const me = async (key: string) => (await gateway.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(key) })).json();
const onboardWithEmail = (email: string) =>
  gateway.app.inject({ method: 'POST', url: '/api/v1/onboard', payload: { name: uniqueName('Email'), user: { email } } });

/** The answer's shape: every key, nested, with the type of each value, but not the values. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]));
  return value === null ? 'null' : typeof value;
}

describe('emails', () => {
  it('are one address whatever their case, stored in lower case', async () => {
    const local = `ann-${randomUUID()}`;
    const first = await onboardWithEmail(`  ${local.toUpperCase()}@Example.COM `);
    expect(first.statusCode).toBe(201);
    expect((await me(first.json().api_key.key)).email).toBe(`${local}@example.com`);
    expect(await gateway.deps.prisma.user.count({ where: { email: { equals: `${local}@example.com`, mode: 'insensitive' } } })).toBe(1);

    const again = await onboardWithEmail(`${local}@example.com`);
    expect(again.statusCode).toBe(201);
    expect(await gateway.deps.prisma.user.count({ where: { email: { equals: `${local}@example.com`, mode: 'insensitive' } } })).toBe(1);
  });

  it('anonymous onboarding answers a taken email exactly as a free one: the account is made, without the email', async () => {
    const taken = `taken-${randomUUID()}@example.com`;
    expect((await onboardWithEmail(taken)).statusCode).toBe(201);

    const withTaken = await onboardWithEmail(taken.toUpperCase());
    const withFree = await onboardWithEmail(`free-${randomUUID()}@example.com`);
    expect([withTaken.statusCode, withFree.statusCode]).toEqual([201, 201]);
    expect(shape(withTaken.json())).toEqual(shape(withFree.json()));
    expect(withTaken.body).not.toMatch(/exist|taken|already/i);
    expect((await me(withTaken.json().api_key.key)).email).toBeNull();
  });

  it('adding a new member whose email differs from a taken one only in case is 409 already_exists', async () => {
    const owner = await onboard(gateway, uniqueName('Team'));
    const email = `bob-${randomUUID()}@example.com`;
    const add = (address: string, name: string) =>
      gateway.app.inject({
        method: 'POST',
        url: `/api/v1/orgs/${owner.handle}/members`,
        headers: bearer(owner.key),
        payload: { name, email: address, role: 'staff' },
      });
    expect((await add(email, 'Bob')).statusCode).toBe(201);
    expectError(await add(email.toUpperCase(), 'Bob again'), 409, 'already_exists');
  });
});
