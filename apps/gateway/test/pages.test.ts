import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES_DIR } from '../src/pages/serve-pages.js';
import { startTestGateway, type Gateway } from './harness.js';
import { SERVICES_DOWN } from './support.js';

let gateway: Gateway;

beforeAll(async () => {
  gateway = await startTestGateway(SERVICES_DOWN);
});
afterAll(async () => {
  await gateway?.close();
});

const get = (url: string) => gateway.app.inject({ method: 'GET', url });

/** The asset URLs a page names (`/ui/<version>/<file>`). */
const assetUrls = (html: string) => [...html.matchAll(/(?:src|href)="(\/ui\/[^"]+)"/g)].map((match) => match[1]!);

describe('the counter screen and the customer page', () => {
  it.each([['/pos'], ['/pay/7KQ2M9XB4T'], ['/l/3b0f6f0e-2a53-4a55-9a43-1e1f7f0c9d21'], ['/r/ref_gKVtvg7o_KyiMpa7-v_udnxO']])(
    '%s is an HTML page with a strict policy and no inline script',
    async (url) => {
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe('no-cache');
      // Every script is a module from the gateway itself; no script element has a body, no on* attribute.
      expect(response.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(response.body).not.toMatch(/\son[a-z]+=/i);
      expect(response.body).not.toContain('%ASSETS%');
      expect(assetUrls(response.body).length).toBeGreaterThanOrEqual(3);
    },
  );

  it('serves every asset a page names, versioned and cached for a year, with the right type', async () => {
    const page = await get('/pos');
    for (const url of assetUrls(page.body)) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers['content-security-policy']).toContain("default-src 'none'");
      const file = url.split('/').at(-1)!;
      expect(response.body).toBe(readFileSync(join(PAGES_DIR, file), 'utf8'));
    }
    const script = await get(assetUrls(page.body).find((url) => url.endsWith('counter.js'))!);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('serves the modules a module imports, from the same versioned folder', async () => {
    const page = await get('/pos');
    const base = assetUrls(page.body)
      .find((url) => url.endsWith('counter.js'))!
      .replace(/counter\.js$/, '');
    for (const page of ['counter.js', 'link.js']) {
      const imports = [...readFileSync(join(PAGES_DIR, page), 'utf8').matchAll(/from '\.\/([\w-]+\.js)'/g)].map((m) => m[1]!);
      expect(imports).toContain(page === 'counter.js' ? 'order-watch.js' : 'api.js');
      for (const file of imports) expect((await get(`${base}${file}`)).statusCode, file).toBe(200);
    }
  });

  it('an asset asked for under an older version is today’s file, not cached as the old one', async () => {
    const response = await get('/ui/000000000000/pages.css');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it.each([
    ['a file that is not there', '/ui/000000000000/secrets.js'],
    ['a page by its file name', '/ui/000000000000/counter.html'],
    ['a climb out of the folder', '/ui/000000000000/..%2F..%2Fpackage.json'],
    ['an encoded slash', '/ui/000000000000/%2Fetc%2Fpasswd'],
    ['an order number with a slash', '/pay/..%2Fpos'],
    ['an order number of junk', '/pay/%00abc'],
    ['a pay link id that is no id', '/l/..%2Fpos'],
    ['a referral link id that is no id', '/r/ref_%00'],
  ])('%s is 404 in the API’s error body', async (_label, url) => {
    const response = await get(url);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toMatch(/not_found/);
  });
});
