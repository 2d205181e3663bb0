import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addMember, bearer, onboard, startTestGateway, type Onboarded, type Gateway } from './harness.js';
import { expectError, SERVICES_DOWN, tableCounts, uniqueName } from './support.js';

let gateway: Gateway;
let owner: Onboarded;

beforeAll(async () => {
  gateway = await startTestGateway(SERVICES_DOWN);
  owner = await onboard(gateway, uniqueName('Control'));
});
afterAll(async () => {
  await gateway?.close();
});

type Case = {
  label: string;
  method: 'POST' | 'PATCH' | 'GET' | 'DELETE';
  url: () => string;
  payload?: unknown;
  field: string;
  key?: boolean;
};

const NUL = '\u0000';

/** Text with a NUL (which PostgreSQL cannot store) or another control character in a name, in every place a client can put it. */
const CASES: Case[] = [
  { label: 'a NUL in the onboarding name', method: 'POST', url: () => '/api/v1/onboard', payload: { name: `Cafe${NUL}` }, field: 'name' },
  { label: 'a bell in the onboarding name', method: 'POST', url: () => '/api/v1/onboard', payload: { name: 'Cafe\u0007' }, field: 'name' },
  {
    label: 'a NUL in the user name',
    method: 'POST',
    url: () => '/api/v1/onboard',
    payload: { name: 'Cafe', user: { name: `A${NUL}n` } },
    field: 'user.name',
  },
  {
    label: 'a NUL in the email',
    method: 'POST',
    url: () => '/api/v1/onboard',
    payload: { name: 'Cafe', user: { email: `ann${NUL}@example.com` } },
    field: 'user.email',
  },
  {
    label: 'a NUL in the category',
    method: 'POST',
    url: () => '/api/v1/onboard',
    payload: { name: 'Cafe', category: `cof${NUL}fee` },
    field: 'category',
  },
  {
    label: 'a NUL in an unknown field',
    method: 'POST',
    url: () => '/api/v1/onboard',
    payload: { name: 'Cafe', [`x${NUL}`]: 1 },
    field: `x${NUL}`,
  },
  {
    label: 'a new organisation name',
    method: 'POST',
    url: () => '/api/v1/organizations',
    payload: { name: `Two${NUL}` },
    field: 'name',
    key: true,
  },
  {
    label: 'a renamed organisation',
    method: 'PATCH',
    url: () => `/api/v1/organizations/${owner.handle}`,
    payload: { name: `Renamed${NUL}` },
    field: 'name',
    key: true,
  },
  {
    label: 'a line feed in a renamed organisation',
    method: 'PATCH',
    url: () => `/api/v1/organizations/${owner.handle}`,
    payload: { name: 'Two\nlines' },
    field: 'name',
    key: true,
  },
  {
    label: 'an API key name',
    method: 'POST',
    url: () => '/api/v1/me/api-keys',
    payload: { name: `laptop${NUL}` },
    field: 'name',
    key: true,
  },
  {
    label: 'a member name',
    method: 'POST',
    url: () => `/api/v1/orgs/${owner.handle}/members`,
    payload: { name: `New${NUL}hire`, role: 'staff' },
    field: 'name',
    key: true,
  },
  {
    label: 'a payment-gate key name',
    method: 'POST',
    url: () => `/api/v1/orgs/${owner.handle}/paygate-keys`,
    payload: { name: `gate${NUL}` },
    field: 'name',
    key: true,
  },
  {
    label: 'an item name',
    method: 'POST',
    url: () => `/api/v1/orgs/${owner.handle}/items`,
    payload: { name: `Latte${NUL}`, price_cents: 450 },
    field: 'name',
    key: true,
  },
  {
    label: 'an item description',
    method: 'POST',
    url: () => `/api/v1/orgs/${owner.handle}/items`,
    payload: { name: 'Latte', description: `hot${NUL}`, price_cents: 450 },
    field: 'description',
    key: true,
  },
  { label: 'a page cursor', method: 'GET', url: () => '/api/v1/me/api-keys?cursor=%00', field: 'cursor', key: true },
  { label: 'a did', method: 'POST', url: () => '/api/auth/challenge', payload: { did: `did:key:z${NUL}` }, field: 'did' },
];

describe('control characters in text are a 422 naming the field, never a 500', () => {
  it.each(CASES)('$label', async ({ method, url, payload, field, key }) => {
    const before = await tableCounts(gateway);
    const response = await gateway.app.inject({
      method,
      url: url(),
      headers: key ? bearer(owner.key) : {},
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    expectError(response, 422, 'validation_failed');
    expect(response.json().error.details.issues.map((i: { field: string }) => i.field)).toContain(field);
    expect(await tableCounts(gateway)).toEqual(before);
  });

  it('a tab or a line feed is still welcome in an item description (only names refuse them)', async () => {
    const response = await gateway.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${owner.handle}/items`,
      headers: bearer(owner.key),
      payload: { name: 'Latte', description: 'hot\nmilk\tfoam', price_cents: 450 },
    });
    // The pos service is down in this test: the input passed validation.
    expectError(response, 503, 'unavailable');
  });
});

describe('a handle in the path is checked before any lookup', () => {
  it.each([
    ['a NUL', '/api/v1/orgs/%00/items'],
    ['a NUL after a real handle', () => `/api/v1/orgs/${owner.handle}%00/members`],
    ['upper case and spaces', '/api/v1/orgs/Not%20A%20Handle/members'],
    ['a NUL in organisations', '/api/v1/organizations/%00'],
  ])('%s is 422 validation_failed on handle, without looking the organisation up', async (_label, url) => {
    const lookups = vi.spyOn(gateway.deps.credentials, 'org');
    try {
      const response = await gateway.app.inject({ method: 'GET', url: typeof url === 'string' ? url : url(), headers: bearer(owner.key) });
      expectError(response, 422, 'validation_failed');
      expect(response.json().error.details.field).toBe('handle');
      expect(lookups).not.toHaveBeenCalled();
    } finally {
      lookups.mockRestore();
    }
  });

  it('a NUL in org_handle (routes that name the organisation in the body) is 422 on org_handle', async () => {
    const staff = await addMember(gateway, owner, 'staff');
    const lookups = vi.spyOn(gateway.deps.credentials, 'org');
    try {
      const response = await gateway.app.inject({
        method: 'POST',
        url: '/api/pos/orders',
        headers: bearer(staff.key),
        payload: { org_handle: `${owner.handle}${NUL}` },
      });
      expectError(response, 422, 'validation_failed');
      expect(response.json().error.details.field).toBe('org_handle');
      expect(lookups).not.toHaveBeenCalled();
    } finally {
      lookups.mockRestore();
    }
  });

  it('a NUL in a path id is 422 on the id', async () => {
    const response = await gateway.app.inject({ method: 'DELETE', url: '/api/v1/me/api-keys/%00', headers: bearer(owner.key) });
    expectError(response, 422, 'validation_failed');
    expect(response.json().error.details.field).toBe('id');
  });
});
