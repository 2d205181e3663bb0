import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script, createContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBED_DIR } from '../src/pages/serve-checkout-script.js';
import { startTestGateway, type Gateway } from './harness.js';
import { SERVICES_DOWN } from './support.js';

const ROOT = join(import.meta.dirname, '../../..');
/** The version new snippets quote: v2, the stablecoin beside bitcoin. */
const FILE = join(EMBED_DIR, 'v2/checkout.js');
/** v1 as merchants pinned it when it was released: it must be served byte for byte as it was. */
const V1 = join(EMBED_DIR, 'v1/checkout.js');
const V1_INTEGRITY = 'sha384-j0/Fn/dI+5sS1y0JXE5jngwQdX0eJF4sOEB35TmoFkiPcgwS840CjMPf6mNeKuzo';

let gateway: Gateway;

beforeAll(async () => {
  gateway = await startTestGateway(SERVICES_DOWN);
});
afterAll(async () => {
  await gateway?.close();
});

const get = (url: string) => gateway.app.inject({ method: 'GET', url, headers: { origin: 'https://shop.example' } });

describe('checkout.js, the Buy button merchants embed', () => {
  it('is served at its versioned URL as a script any site may load and check, cached for a year', async () => {
    const response = await get('/checkout/v2/checkout.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // crossorigin="anonymous" (needed for the SRI check) fetches it with CORS.
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.rawPayload.equals(readFileSync(FILE))).toBe(true);
  });

  it('still serves v1 unchanged, so the pages that pinned its hash keep their Buy button', async () => {
    const response = await get('/checkout/v1/checkout.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(subresourceIntegrity(response.rawPayload)).toBe(V1_INTEGRITY);
    expect(response.rawPayload.equals(readFileSync(V1))).toBe(true);
  });

  it.each([
    ['/checkout/v3/checkout.js'],
    ['/checkout/v1/other.js'],
    ['/checkout/latest/checkout.js'],
    ['/checkout/v1/..%2F..%2Fpackage.json'],
  ])('%s is 404', async (url) => {
    expect((await get(url)).statusCode).toBe(404);
  });

  it.each([[V1], [FILE]])('%s is one classic script that does nothing where there is no browser window', (file) => {
    const source = readFileSync(file, 'utf8');
    expect(source).not.toMatch(/^\s*(import|export)\s/m);
    // Runs in an empty context: it must not throw on load, and defines nothing global.
    const context = createContext({});
    new Script(source, { filename: 'checkout.js' }).runInContext(context);
    expect(Object.keys(context)).toEqual([]);
  });

  /** The `integrity` attribute of a script tag for these bytes: sha384, base64. */
  const subresourceIntegrity = (body: Buffer) => `sha384-${createHash('sha384').update(body).digest('base64')}`;

  it('has the SRI hash the README, decision 0018 and the demo shop quote', () => {
    const integrity = subresourceIntegrity(readFileSync(FILE));
    for (const doc of ['README.md', 'docs/decisions/0018-commerce-checkout.md', 'examples/demo-shop/index.html']) {
      const text = readFileSync(join(ROOT, doc), 'utf8');
      const quoted = [...text.matchAll(/integrity="(sha\d+-[A-Za-z0-9+/=]+)"/g)].map((match) => match[1]);
      expect(quoted.length, `${doc} quotes the script tag with its integrity`).toBeGreaterThan(0);
      expect(new Set(quoted), `${doc}: the hash of apps/gateway/embed/v2/checkout.js`).toEqual(new Set([integrity]));
    }
  });
});
