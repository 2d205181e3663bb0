import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../src/catalog/endpoints.js';
import { onboard, startTestGateway, type Gateway } from './harness.js';
import { concreteUrl, SERVICES_DOWN, uniqueName } from './support.js';

/**
 * CORS across the whole catalog (README, "API conventions"; docs/decisions/0024-proof-holds-and-privacy.md):
 * open where a browser on another site must call without a secret (commerce-key, public and optional-key
 * routes), closed on every route that takes a secret: a route a key is needed for answers 401 without one,
 * and such a route sends no CORS header, answered or refused, nor on its preflight.
 */

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startTestGateway(SERVICES_DOWN);
});
afterAll(() => gateway?.close());

const ORIGIN = 'https://elsewhere.example';

describe('CORS on every catalog route', () => {
  it('is open exactly on the routes that take no secret', async () => {
    const owner = await onboard(gateway, uniqueName('Cors Cafe'));
    const wrong: string[] = [];
    for (const endpoint of ENDPOINTS) {
      const url = concreteUrl(endpoint.path, owner.handle);
      // Without a key: a route that needs one (a user's, a payment gate's, a webhook's signature) says 401.
      const anonymous = await gateway.app.inject({
        method: endpoint.method,
        url,
        headers: {
          origin: ORIGIN,
          ...(endpoint.method === 'GET' || endpoint.method === 'DELETE' ? {} : { 'content-type': 'application/json' }),
        },
        ...(endpoint.method === 'GET' || endpoint.method === 'DELETE' ? {} : { payload: '{}' }),
      });
      const takesSecret = endpoint.auth !== 'commerce_key' && anonymous.statusCode === 401;
      const preflight = await gateway.app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin: ORIGIN, 'access-control-request-method': endpoint.method, 'access-control-request-headers': 'authorization' },
      });
      const seen = {
        answer: anonymous.headers['access-control-allow-origin'] ?? null,
        preflight: preflight.headers['access-control-allow-origin'] ?? null,
      };
      const expected = takesSecret ? { answer: null, preflight: null } : { answer: '*', preflight: '*' };
      if (JSON.stringify(seen) !== JSON.stringify(expected)) {
        wrong.push(`${endpoint.method} ${endpoint.path} (${endpoint.auth}, ${anonymous.statusCode}): ${JSON.stringify(seen)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('closes the wallet passes and POST /api/v1/items with a key too', async () => {
    const owner = await onboard(gateway, uniqueName('Cors Key Cafe'));
    const headers = { origin: ORIGIN, authorization: `Bearer ${owner.key}` };
    for (const [method, url] of [
      ['GET', '/api/v1/passes/coffee/6d1b7c4e-8f0a-4b8e-9a51-3f3c1a2b9e77/apple'],
      ['GET', '/api/v1/passes/coffee/6d1b7c4e-8f0a-4b8e-9a51-3f3c1a2b9e77/google'],
      ['POST', '/api/v1/items'],
    ] as const) {
      const answered = await gateway.app.inject({ method, url, headers, ...(method === 'POST' ? { payload: {} } : {}) });
      expect({ url, cors: answered.headers['access-control-allow-origin'] ?? null }).toEqual({ url, cors: null });
    }
  });
});
