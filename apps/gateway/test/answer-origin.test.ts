import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type Gateway } from './harness.js';
import { SERVICES_DOWN } from './support.js';

// The URLs of an answer follow the origin the caller reached (a page loaded from
// 127.0.0.1 while CTK_PUBLIC_URL says localhost), yet no Host header can make them point anywhere odd.

let gateway: Gateway;
let proxied: Gateway;

beforeAll(async () => {
  gateway = await startTestGateway({ ...SERVICES_DOWN, CTK_PUBLIC_URL: 'https://pay.example.com' });
  proxied = await startTestGateway({ ...SERVICES_DOWN, CTK_PUBLIC_URL: 'https://pay.example.com', CTK_TRUSTED_PROXIES: '10.0.0.1' });
});
afterAll(async () => {
  await gateway?.close();
  await proxied?.close();
});

const servers = async (app: Gateway, headers: Record<string, string>, remoteAddress = '192.0.2.7', url = '/api/v1/openapi.json') => {
  const response = await app.app.inject({ method: 'GET', url, headers, remoteAddress });
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  return response.json().servers;
};

describe("the OpenAPI document's servers (what /docs 'Try it out' calls)", () => {
  it('are the origin the reader reached: 127.0.0.1 or localhost, with its port, in /api/v1/openapi.json and /docs/json', async () => {
    expect(await servers(gateway, { host: '127.0.0.1:8080' })).toEqual([{ url: 'http://127.0.0.1:8080' }]);
    expect(await servers(gateway, { host: 'localhost:8080' })).toEqual([{ url: 'http://localhost:8080' }]);
    expect(await servers(gateway, { host: '[::1]:8080' }, undefined, '/docs/json')).toEqual([{ url: 'http://[::1]:8080' }]);
    // The configured host keeps the configured scheme (a TLS proxy in front that is not declared as trusted).
    expect(await servers(gateway, { host: 'pay.example.com' })).toEqual([{ url: 'https://pay.example.com' }]);
  });

  it.each([
    ['a path', 'evil.example/phish'],
    ['credentials', 'user@evil.example'],
    ['a query', 'evil.example?x=1'],
    ['a port beyond 65535', 'localhost:99999'],
    ['spaces', 'evil example'],
  ])('fall back to CTK_PUBLIC_URL for a Host header with %s', async (_what, host) => {
    expect(await servers(gateway, { host })).toEqual([{ url: 'https://pay.example.com' }]);
  });

  it('take X-Forwarded-Host and -Proto only from a proxy of CTK_TRUSTED_PROXIES', async () => {
    const forwarded = { host: '127.0.0.1:8080', 'x-forwarded-host': 'shop.example.net', 'x-forwarded-proto': 'https' };
    expect(await servers(gateway, forwarded, '10.0.0.1')).toEqual([{ url: 'http://127.0.0.1:8080' }]);
    expect(await servers(proxied, forwarded, '192.0.2.7')).toEqual([{ url: 'http://127.0.0.1:8080' }]);
    expect(await servers(proxied, forwarded, '10.0.0.1')).toEqual([{ url: 'https://shop.example.net' }]);
    // Even a trusted proxy's header must be a bare host.
    expect(await servers(proxied, { ...forwarded, 'x-forwarded-host': 'shop.example.net/x' }, '10.0.0.1')).toEqual([
      { url: 'https://pay.example.com' },
    ]);
  });
});
