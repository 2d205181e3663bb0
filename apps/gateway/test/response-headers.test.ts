import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, onboard, startTestGateway, type Onboarded, type Gateway } from './harness.js';
import { SERVICES_DOWN, uniqueName } from './support.js';

let gateway: Gateway;
let owner: Onboarded;

beforeAll(async () => {
  gateway = await startTestGateway(SERVICES_DOWN);
  owner = await onboard(gateway, uniqueName('Headers'));
});
afterAll(async () => {
  await gateway?.close();
});

const call = (method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}, payload?: Record<string, unknown>) =>
  gateway.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

describe('X-Content-Type-Options: nosniff on every answer', () => {
  it.each([
    ['a public read', () => call('GET', '/api/v1')],
    ['an authenticated read', () => call('GET', '/api/v1/me', bearer(owner.key))],
    ['a refused key', () => call('GET', '/api/v1/me', bearer('ctk_sk_nope'))],
    ['an unknown route', () => call('GET', '/api/v1/nothing-here')],
    ['a malformed URL', () => call('GET', '/api/v1/organizations/%E0%A4%A')],
    ['the plain-text guide', () => call('GET', '/llms.txt')],
    ['the docs page', () => call('GET', '/docs')],
    ['a route not built yet', () => call('GET', '/api/v1/peers')],
  ])('%s', async (_label, send) => {
    expect((await send()).headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('Cache-Control: no-store on answers carrying a secret and on authenticated answers', () => {
  it.each([
    ['onboarding (a new API key)', () => call('POST', '/api/v1/onboard', {}, { name: uniqueName('Fresh') })],
    ['a new API key', () => call('POST', '/api/v1/me/api-keys', bearer(owner.key), { name: 'laptop' })],
    ['a new payment-gate key', () => call('POST', `/api/v1/orgs/${owner.handle}/paygate-keys`, bearer(owner.key), { name: 'gate' })],
    [
      'a new member with a key',
      () => call('POST', `/api/v1/orgs/${owner.handle}/members`, bearer(owner.key), { name: 'Hire', role: 'staff' }),
    ],
    ['a rotated commerce key', () => call('POST', `/api/v1/orgs/${owner.handle}/commerce-key`, bearer(owner.key), {})],
    ['the caller', () => call('GET', '/api/v1/me', bearer(owner.key))],
    ["the caller's organisations", () => call('GET', '/api/v1/organizations', bearer(owner.key))],
    ['a list of keys', () => call('GET', '/api/v1/me/api-keys', bearer(owner.key))],
    ['a refused key', () => call('GET', '/api/v1/me', bearer('ctk_sk_nope'))],
  ])('%s', async (_label, send) => {
    const response = await send();
    expect(response.statusCode).toBeLessThan(500);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('a sign-in that returns a key is no-store', async () => {
    // A nonce never issued: the refusal of a route that answers with a key is no-store too.
    const response = await call('POST', '/api/auth/verify', {}, { nonce: '0123456789abcdef0123456789abcdef', signature: 'ab'.repeat(36) });
    expect(response.statusCode).toBe(401);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('public reads may be cached', async () => {
    expect((await call('GET', '/api/v1/capabilities')).headers['cache-control']).toBeUndefined();
  });
});
