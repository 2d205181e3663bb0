import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type Gateway } from './harness.js';
import { SERVICES_DOWN } from './support.js';

/** A built back office as `vite build` leaves it: index.html naming hashed assets under /app/assets/. */
function builtBackOffice(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-back-office-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html lang="en"><head><script type="module" src="/app/assets/index-AbC123.js"></script></head><body><div id="app"></div></body></html>',
  );
  writeFileSync(join(dir, 'assets', 'index-AbC123.js'), 'console.log("back office");');
  writeFileSync(join(dir, 'assets', 'index-AbC123.css'), 'body { margin: 0; }');
  return dir;
}

describe('the back office, served from its build (CTK_BACK_OFFICE_DIR)', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ ...SERVICES_DOWN, CTK_BACK_OFFICE_DIR: builtBackOffice() });
  });
  afterAll(async () => {
    await gateway?.close();
  });
  const get = (url: string) => gateway.app.inject({ method: 'GET', url });

  it.each([['/'], ['/settings']])('%s is its page, under the pages’ strict policy, never cached stale', async (url) => {
    const response = await get(url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(response.body).toContain('/app/assets/index-AbC123.js');
  });

  it('serves the page of every capability of the descriptor, at its path for an organisation', async () => {
    const descriptor = (await get('/api/v1/capabilities')).json() as { rungs: { capabilities: { id: string; path: string }[] }[] };
    const capabilities = descriptor.rungs.flatMap((rung) => rung.capabilities);
    expect(capabilities).toHaveLength(24);
    for (const { id, path } of capabilities) {
      expect(path, id).toBe(`/o/:handle/${id.replaceAll('_', '-')}`);
      const page = await get(path.replace(':handle', 'corner-cafe'));
      expect(page.statusCode, path).toBe(200);
      expect(page.body).toContain('/app/assets/index-AbC123.js');
    }
    // And the organisation's orders, the point of sale's.
    expect((await get('/o/corner-cafe/orders')).statusCode).toBe(200);
  });

  it('serves its hashed assets with their types, cached for a year', async () => {
    const script = await get('/app/assets/index-AbC123.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/app/assets/index-AbC123.css')).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it.each([
    ['an asset that is not there', '/app/assets/secrets.js'],
    ['a climb out of the folder', '/app/assets/..%2Findex.html'],
    ['a page it does not have', '/dashboard-of-someone-else'],
    ['a capability it does not have', '/o/corner-cafe/mining'],
    ['a handle that cannot be one', '/o/Corner%00Cafe/ledger'],
  ])('%s is 404 in the API’s error body', async (_label, url) => {
    const response = await get(url);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toMatch(/not_found/);
  });

  it('refuses to start on a folder with no build, saying what to run', async () => {
    await expect(startTestGateway({ ...SERVICES_DOWN, CTK_BACK_OFFICE_DIR: mkdtempSync(join(tmpdir(), 'ctk-empty-')) })).rejects.toThrow(
      /pnpm build/,
    );
  });
});

describe('without a back office', () => {
  it('/ is the API’s documentation', async () => {
    const gateway = await startTestGateway(SERVICES_DOWN);
    try {
      const response = await gateway.app.inject({ method: 'GET', url: '/' });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('/docs');
    } finally {
      await gateway.close();
    }
  });
});
