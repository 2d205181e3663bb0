import { startLocalChain, type RunningLocalChain } from '@ctk/chain/local';
import { configSchema as booksConfigSchema, service as booksService } from '@ctk/books';
import { configSchema as federationConfigSchema, service as federationService } from '@ctk/federation';
import { configSchema as p2pConfigSchema, service as p2pService } from '@ctk/p2p';
import { configSchema as posConfigSchema, service as posService } from '@ctk/pos';
import { loadConfig, startService, type RunningService } from '@ctk/shared';
import { createTestDatabase, TEST_DATA_DIR } from '@ctk/shared/testing';
import { verifyEvent } from 'nostr-tools';
import { PrivateKey } from '@bsv/sdk';
import { signPeerList } from '@ctk/federation/testing';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, onboard, startTestGateway, type Gateway, type Onboarded } from './harness.js';
import { SERVICES_DOWN, uniqueName } from './support.js';

async function database(prefix: string) {
  const url = await createTestDatabase(prefix);
  return { CTK_DATA_DIR: TEST_DATA_DIR, LOG_LEVEL: 'silent', GRPC_PORT: '0', ...(url ? { DATABASE_URL: url } : {}) };
}

const WHOLE_WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => ({ day, opens: '00:00', closes: '24:00' }));

describe('federation through the gateway: hours and the open sign, a published feed, discovery and pins', () => {
  let chain: RunningLocalChain;
  const services: RunningService[] = [];
  let gateway: Gateway;
  let owner: Onboarded;
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
    const federation = await startService(
      federationService,
      loadConfig(federationConfigSchema, {
        ...urls,
        POS_GRPC_URL: `127.0.0.1:${pos.port}`,
        FEDERATION_PUBLIC_URL: 'https://shops.example.com',
        FEDERATION_PULL_INTERVAL_MS: '0',
        ...(await database('federation')),
      }),
    );
    services.push(federation, pos, books, p2p);
    gateway = await startTestGateway({
      ...SERVICES_DOWN,
      ...urls,
      POS_GRPC_URL: `127.0.0.1:${pos.port}`,
      FEDERATION_GRPC_URL: `127.0.0.1:${federation.port}`,
      CTK_PUBLIC_URL: 'https://shops.example.com',
    });
    owner = await onboard(gateway, uniqueName('Blue Bottle'), {
      category: 'Cafe',
      latitude: 37.7765,
      longitude: -122.4172,
      time_zone: 'America/Los_Angeles',
    });
  });
  afterAll(async () => {
    await gateway?.close();
    for (const service of services) await service.close();
    await chain?.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, key?: string, payload?: object) =>
    gateway.app.inject({ method, url, headers: key ? bearer(key) : {}, ...(payload ? { payload } : {}) });

  it('keeps the hours its admin sets, refuses bad ones naming the field, and lets staff read but not change them', async () => {
    const staff = await addMember(gateway, owner, 'staff');
    const refused = await call('PUT', `/api/v1/orgs/${owner.handle}/hours`, owner.key, {
      regular: [{ day: 'mon', opens: '09:00', closes: '25:00' }],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.details.field).toMatch(/closes/);
    expect((await call('PUT', `/api/v1/orgs/${owner.handle}/hours`, staff.key, { regular: WHOLE_WEEK })).statusCode).toBe(403);
    const saved = await call('PUT', `/api/v1/orgs/${owner.handle}/hours`, owner.key, { regular: WHOLE_WEEK, special: [] });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ time_zone: 'America/Los_Angeles', override: null });
    expect(saved.json().regular).toHaveLength(7);
    const read = await call('GET', `/api/v1/orgs/${owner.handle}/hours`, staff.key);
    expect(read.json()).toEqual(saved.json());
  });

  it('answers the open sign to anyone as JSON and as an SVG badge, and 404 for a shop that does not exist', async () => {
    const sign = await call('GET', `/api/v1/shops/${owner.handle}/sign`);
    expect(sign.statusCode).toBe(200);
    expect(sign.json()).toMatchObject({ handle: owner.handle, sign: { open: true, reason: 'regular', time_zone: 'America/Los_Angeles' } });
    const badge = await call('GET', `/api/v1/shops/${owner.handle}/sign?format=svg`);
    expect(badge.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(badge.body).toMatch(/^<svg[^>]+xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(badge.body).toContain('Open');
    expect((await call('GET', '/api/v1/shops/no-such-shop/sign')).statusCode).toBe(404);
  });

  it("publishes the organisation's feed for its admin only, signed, and derives NIP-99 listings that verify", async () => {
    const item = await call('POST', `/api/v1/orgs/${owner.handle}/items`, owner.key, {
      name: 'Oat milk latte',
      price_cents: 450,
      category: 'Coffee',
    });
    expect(item.statusCode).toBe(201);
    expect((await call('POST', '/api/v1/feeds', undefined, { org_handle: owner.handle })).statusCode).toBe(401);
    const staff = await addMember(gateway, owner, 'staff');
    expect((await call('POST', '/api/v1/feeds', staff.key, { org_handle: owner.handle })).statusCode).toBe(403);
    const published = await call('POST', '/api/v1/feeds', owner.key, { org_handle: owner.handle });
    expect(published.statusCode).toBe(200);
    expect(published.json()).toMatchObject({ id: owner.handle, local: true, item_count: 1, sequence: 1, merchant_signed: false });

    const feed = await call('GET', `/api/v1/feeds/${owner.handle}`);
    const document = feed.json().document;
    expect(document.dataFeedElement[0].offers).toMatchObject({ price: '4.50', priceCurrency: 'USD', 'ctk:priceMinor': 450 });
    expect(document.about.openingHoursSpecification).toHaveLength(7);
    expect(document.proof[0].publicKey).toBe(document['ctk:origin'].publicKey);

    const { events } = (await call('GET', `/api/v1/feeds/${owner.handle}/nostr`)).json();
    expect(events).toHaveLength(1);
    expect(events[0].kind).toBe(30402);
    expect(verifyEvent(events[0])).toBe(true);
    expect(verifyEvent({ ...JSON.parse(JSON.stringify(events[0])), content: 'changed' })).toBe(false);

    // A copy changed after signing is refused, naming the proof that no longer holds.
    document.about.name = 'Someone Else';
    const tampered = await call('POST', '/api/v1/feeds', undefined, { feed: document });
    expect(tampered.statusCode).toBe(422);
    expect(tampered.json().error.details.field).toBe('feed.proof[0].signature');
  });

  it('finds the merchant and its item by search, nearby and by category, with its open state', async () => {
    const search = (await call('GET', '/api/v1/discover/search?q=oat%20lat')).json();
    expect(search.items).toEqual([
      expect.objectContaining({ name: 'Oat milk latte', price_minor: 450, currency: 'USD', merchant_id: owner.handle }),
    ]);
    const nearby = (await call('GET', '/api/v1/discover/nearby?latitude=37.7766&longitude=-122.4171&radius_m=500')).json().data;
    expect(nearby).toEqual([
      expect.objectContaining({ id: owner.handle, distance_m: 14, local: true, sign: expect.objectContaining({ open: true }) }),
    ]);
    expect((await call('GET', '/api/v1/discover/nearby?latitude=40.7&longitude=-74&radius_m=500')).json().data).toEqual([]);
    expect((await call('GET', '/api/v1/discover/categories')).json().data).toContainEqual({ name: 'Cafe', merchants: 1 });
    expect((await call('GET', '/api/v1/discover/categories/cafe')).json().data.map((m: { id: string }) => m.id)).toContain(owner.handle);
    const page = (await call('GET', `/api/v1/discover/merchants/${owner.handle}`)).json();
    expect(page.merchant).toMatchObject({ name: expect.stringContaining('Blue Bottle'), origin_url: 'https://shops.example.com' });
    expect(page.items.map((i: { name: string }) => i.name)).toEqual(['Oat milk latte']);
    expect((await call('GET', '/api/v1/discover/merchants/nobody@elsewhere.example')).statusCode).toBe(404);
    expect((await call('GET', '/api/v1/discover/search?q=%20%20')).statusCode).toBe(422);
  });

  it('publishes under concurrent requests without a server error, each answer a kept sequence, and refuses NUL anywhere', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call('POST', '/api/v1/feeds', owner.key, { org_handle: owner.handle })),
    );
    for (const answer of answers) expect([200, 409]).toContain(answer.statusCode);
    const sequences = answers.filter((answer) => answer.statusCode === 200).map((answer) => answer.json().sequence as number);
    const kept = (await call('GET', `/api/v1/feeds/${owner.handle}`)).json().summary.sequence;
    expect(Math.max(...sequences)).toBe(kept);
    expect((await call('GET', '/api/v1/feeds/bad%00id')).statusCode).toBe(422);
    expect((await call('POST', '/api/v1/feeds', undefined, { feed: { identifier: 'x\u0000' } })).statusCode).toBe(422);
    expect((await call('GET', '/api/v1/discover/categories/caf%00e')).statusCode).toBe(422);
  });

  it('takes pins from anyone, bounds an anonymous address per day, and refuses control characters', async () => {
    const pin = (payload: object) => gateway.app.inject({ method: 'POST', url: '/api/v1/pins', payload, remoteAddress: '203.0.113.9' });
    // Twenty at once from one address: the day's five are made, the rest refused, however they interleave.
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, n) => pin({ latitude: 51.5007, longitude: -0.1246, label: `Stall ${n}` })),
    );
    expect(burst.filter((answer) => answer.statusCode === 201)).toHaveLength(5);
    expect(burst.filter((answer) => answer.statusCode === 429)).toHaveLength(15);
    expect((await call('POST', '/api/v1/pins', owner.key, { latitude: 51.5007, longitude: -0.1246, label: 'bad\u0000' })).statusCode).toBe(
      422,
    );
    const mine = await call('POST', '/api/v1/pins', owner.key, { latitude: 51.5008, longitude: -0.1246, label: 'Our market stall' });
    expect(mine.statusCode).toBe(201);
    expect(mine.json().expires_at).toBeNull();
    const near = (await call('GET', '/api/v1/pins/nearby?latitude=51.5007&longitude=-0.1246&radius_m=100')).json().data;
    expect(near.map((p: { label: string }) => p.label)).toContain('Our market stall');
    expect(near).toHaveLength(6);
  });

  it('refuses a peer on a loopback address without the operator allowance, before any request reaches it', async () => {
    let reached = 0;
    const server = createServer((_request, response) => {
      reached++;
      response.end('{}');
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const key = PrivateKey.fromRandom();
      const list = signPeerList({ url, key, publicKey: key.toPublicKey().toString() }, [], new Date());
      const exchanged = await call('POST', '/api/v1/peers/exchange', undefined, {
        self: { url, public_key: list.self.publicKey },
        peers: [],
        signed_at: list.signedAt,
        signature: list.signature,
      });
      expect(exchanged.statusCode).toBe(422);
      expect(exchanged.json().error.message).toContain('FEDERATION_ALLOW_PRIVATE_PEERS');
      expect(exchanged.json().error.details.field).toBe('self.url');
      expect(reached).toBe(0);
      // A list signed by another key than the one it names is refused before anything is asked.
      const forged = await call('POST', '/api/v1/peers/exchange', undefined, {
        self: { url: 'https://elsewhere.example', public_key: PrivateKey.fromRandom().toPublicKey().toString() },
        peers: [],
        signed_at: list.signedAt,
        signature: list.signature,
      });
      expect(forged.statusCode).toBe(422);
      expect(forged.json().error.details.field).toBe('signature');
    } finally {
      server.close();
    }
  });
});
