import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalChain, type RunningLocalChain } from '@ctk/chain/local';
import { configSchema as booksConfigSchema, service as booksService } from '@ctk/books';
import { configSchema as commerceConfigSchema, service as commerceService } from '@ctk/commerce';
import { configSchema as federationConfigSchema, service as federationService } from '@ctk/federation';
import { configSchema as p2pConfigSchema, service as p2pService } from '@ctk/p2p';
import { configSchema as posConfigSchema, service as posService } from '@ctk/pos';
import { loadConfig, startService, type RunningService } from '@ctk/shared';
import { createTestDatabase, TEST_DATA_DIR } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBED_DIR } from '../src/pages/serve-checkout-script.js';
import { addMember, bearer, onboard, startTestGateway, type Gateway, type Onboarded } from './harness.js';
import { SERVICES_DOWN, uniqueName } from './support.js';

async function database(prefix: string) {
  const url = await createTestDatabase(prefix);
  return { CTK_DATA_DIR: TEST_DATA_DIR, LOG_LEVEL: 'silent', GRPC_PORT: '0', ...(url ? { DATABASE_URL: url } : {}) };
}

const PUBLIC_URL = 'https://shops.example.com';
const SETTINGS = {
  sections: ['hero', 'menu', 'hours', 'contact'],
  colors: { background: '#ffffff', text: '#1a1a1a', accent: '#0b5394', accent_text: '#ffffff' },
  title: 'Blue Bottle',
  tagline: 'Coffee on Mission Street',
  about: '',
  target: { kind: 'folder' },
};

describe('the site builder through the gateway: settings, preview and publish, with roles', () => {
  let chain: RunningLocalChain;
  const services: RunningService[] = [];
  let gateway: Gateway;
  let owner: Onboarded;
  let staff: { key: string };
  const sitesDir = mkdtempSync(join(tmpdir(), 'ctk-gateway-sites-'));

  beforeAll(async () => {
    chain = await startLocalChain({ port: 0 });
    const chainEnv = { CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: chain.url, CHAIN_RETRIES: '1' };
    const p2p = await startService(p2pService, loadConfig(p2pConfigSchema, { ...chainEnv, ...(await database('p2p')) }));
    const books = await startService(booksService, loadConfig(booksConfigSchema, await database('books')));
    const urls = { P2P_GRPC_URL: `127.0.0.1:${p2p.port}`, BOOKS_GRPC_URL: `127.0.0.1:${books.port}` };
    const pos = await startService(
      posService,
      loadConfig(posConfigSchema, { POS_WATCH_INTERVAL_MS: '0', ...urls, ...(await database('pos')) }),
    );
    const posUrl = { POS_GRPC_URL: `127.0.0.1:${pos.port}` };
    const federation = await startService(
      federationService,
      loadConfig(federationConfigSchema, {
        ...urls,
        ...posUrl,
        FEDERATION_PUBLIC_URL: PUBLIC_URL,
        FEDERATION_PULL_INTERVAL_MS: '0',
        ...(await database('federation')),
      }),
    );
    const federationUrl = { FEDERATION_GRPC_URL: `127.0.0.1:${federation.port}` };
    const commerce = await startService(
      commerceService,
      loadConfig(commerceConfigSchema, { ...posUrl, ...federationUrl, COMMERCE_SITES_DIR: sitesDir, ...(await database('commerce')) }),
    );
    services.push(commerce, federation, pos, books, p2p);
    gateway = await startTestGateway({
      ...SERVICES_DOWN,
      ...urls,
      ...posUrl,
      ...federationUrl,
      COMMERCE_GRPC_URL: `127.0.0.1:${commerce.port}`,
      CTK_PUBLIC_URL: PUBLIC_URL,
    });
    owner = await onboard(gateway, uniqueName('Blue Bottle'), { time_zone: 'America/Los_Angeles' });
    staff = await addMember(gateway, owner, 'staff');
  }, 180_000);
  afterAll(async () => {
    await gateway?.close();
    for (const service of services) await service.close();
    await chain?.close();
    rmSync(sitesDir, { recursive: true, force: true });
  });

  const call = (method: 'GET' | 'POST' | 'PUT', path: string, key?: string, payload?: object, headers: Record<string, string> = {}) =>
    gateway.app.inject({
      method,
      url: `/api/v1/orgs/${owner.handle}${path}`,
      headers: { ...(key ? bearer(key) : {}), ...headers },
      ...(payload ? { payload } : {}),
    });

  it('answers the defaults at version 0 to staff; only an admin replaces them, from the version read (If-Match)', async () => {
    const read = await call('GET', '/site', staff.key);
    expect(read.statusCode).toBe(200);
    expect(read.headers.etag).toBe('"0"');
    expect(read.json()).toMatchObject({
      version: 0,
      sections: ['hero', 'about', 'menu', 'hours', 'location', 'contact'],
      target: { kind: 'folder' },
      updated_at: null,
      last_publication: null,
    });
    expect((await call('GET', '/site')).statusCode).toBe(401);
    expect((await call('PUT', '/site', staff.key, SETTINGS, { 'if-match': '"0"' })).statusCode).toBe(403);

    const unmatched = await call('PUT', '/site', owner.key, SETTINGS);
    expect(unmatched.statusCode).toBe(412);
    expect(unmatched.json().error).toMatchObject({ code: 'precondition_failed', details: { current_version: 0 } });
    const saved = await call('PUT', '/site', owner.key, SETTINGS, { 'if-match': '"0"' });
    expect(saved.statusCode).toBe(200);
    expect(saved.headers.etag).toBe('"1"');
    expect(saved.json()).toMatchObject({ version: 1, title: 'Blue Bottle', sections: SETTINGS.sections, colors: SETTINGS.colors });
    const stale = await call('PUT', '/site', owner.key, SETTINGS, { 'if-match': '"0"' });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error.details.current_version).toBe(1);
  });

  it('refuses a NUL or another control character in a text, and unreadable colours, naming the field (422); nothing changes', async () => {
    const version = (await call('GET', '/site', owner.key)).json().version as number;
    const put = (body: object) => call('PUT', '/site', owner.key, body, { 'if-match': `"${version}"` });
    const nul = await put({ ...SETTINGS, title: 'Blue\u0000Bottle' });
    expect(nul.statusCode).toBe(422);
    expect(nul.json().error.details.field).toMatch(/title/);
    const bell = await put({ ...SETTINGS, tagline: 'ring \u0007' });
    expect(bell.statusCode).toBe(422);
    expect(bell.json().error.details.field).toBe('tagline');
    const grey = await put({ ...SETTINGS, colors: { ...SETTINGS.colors, text: '#eeeeee' } });
    expect(grey.statusCode).toBe(422);
    expect(grey.json().error).toMatchObject({ code: 'validation_failed', details: { field: 'colors.text' } });
    expect(grey.json().error.message).toMatch(/unreadable: contrast 1\.\d+:1, at least 4\.5:1/);
    const unknown = await put({ ...SETTINGS, sections: ['menu', 'blog'] });
    expect(unknown.statusCode).toBe(422);
    expect((await call('GET', '/site', owner.key)).json().version).toBe(version);
  });

  it('keeps an S3 secret sealed: answered as its last 4 characters only, never the secret', async () => {
    const version = (await call('GET', '/site', owner.key)).json().version as number;
    const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    const target = {
      kind: 's3',
      endpoint: 'https://s3.eu-west-1.amazonaws.com',
      bucket: 'blue-bottle-site',
      region: 'eu-west-1',
      prefix: 'www',
      access_key_id: 'AKIAIOSFODNN7EXAMPLE',
    };
    const saved = await call(
      'PUT',
      '/site',
      owner.key,
      { ...SETTINGS, target: { ...target, secret_access_key: secret } },
      { 'if-match': `"${version}"` },
    );
    expect(saved.statusCode).toBe(200);
    expect(saved.json().target).toEqual({ ...target, prefix: 'www/', secret_access_key_last4: 'EKEY' });
    expect(saved.body).not.toContain(secret);
    const read = await call('GET', '/site', staff.key);
    expect(read.body).not.toContain(secret);
    expect(read.json().target.secret_access_key_last4).toBe('EKEY');
    // Back to the folder for the publishes below.
    const back = await call('PUT', '/site', owner.key, SETTINGS, { 'if-match': `"${version + 1}"` });
    expect(back.json().target).toEqual({ kind: 'folder' });
  });

  it('publishes for an admin only: the Buy buttons need the commerce key; then the site is written with the true script hash, and a second publish writes nothing', async () => {
    const latte = await gateway.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${owner.handle}/items`,
      headers: bearer(owner.key),
      payload: { name: 'Oat milk latte', price_cents: 575, category: 'Coffee' },
    });
    expect(latte.statusCode).toBe(201);
    expect((await call('POST', '/site/publish', staff.key)).statusCode).toBe(403);
    expect((await call('POST', '/site/publish')).statusCode).toBe(401);
    const noKey = await call('POST', '/site/publish', owner.key);
    expect(noKey.statusCode).toBe(409);
    expect(noKey.json().error.code).toBe('failed_precondition');

    const key = (await call('POST', '/commerce-key', owner.key)).json().commerce_public_key as string;
    const published = await call('POST', '/site/publish', owner.key);
    expect(published.statusCode).toBe(200);
    expect(published.json()).toMatchObject({ target: 'folder', files_uploaded: 3, files_unchanged: 0, files_deleted: 0 });
    expect(published.json().site_url).toBe(`file://${sitesDir}/${owner.handle}/index.html`);
    const index = readFileSync(join(sitesDir, owner.handle, 'index.html'), 'utf8');
    const integrity = `sha384-${createHash('sha384')
      .update(readFileSync(join(EMBED_DIR, 'v2/checkout.js')))
      .digest('base64')}`;
    expect(index).toContain(
      `<script src="${PUBLIC_URL}/checkout/v2/checkout.js" integrity="${integrity}" crossorigin="anonymous" defer></script>`,
    );
    expect(index).toContain(`merchant="${owner.handle}" item="${latte.json().id}" commerce-key="${key}"`);
    expect(index).toContain(`src="${PUBLIC_URL}/api/v1/shops/${owner.handle}/sign?format=svg"`);

    const again = await call('POST', '/site/publish', owner.key);
    expect(again.json()).toMatchObject({ manifest_digest: published.json().manifest_digest, files_uploaded: 0, files_unchanged: 3 });
    expect((await call('GET', '/site', staff.key)).json().last_publication).toEqual(again.json());
    const capabilities = await gateway.app.inject({
      method: 'GET',
      url: `/api/v1/orgs/${owner.handle}/capabilities`,
      headers: bearer(owner.key),
    });
    const siteBuilder = capabilities
      .json()
      .rungs.flatMap((rung: { capabilities: object[] }) => rung.capabilities)
      .find((capability: { id: string }) => capability.id === 'site_builder');
    expect(siteBuilder).toMatchObject({ set_up: true });
  });

  it('previews the home page to staff as its HTML in JSON (for a sandboxed frame), with its stylesheet inline, never cached', async () => {
    const preview = await call('GET', '/site/preview', staff.key);
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['cache-control']).toBe('no-store');
    const { html } = preview.json();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<h1>Blue Bottle</h1>');
    expect(html).toContain('<style>');
    expect((await call('GET', '/site/preview')).statusCode).toBe(401);
  });
});
