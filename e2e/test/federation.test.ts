import { PrivateKey } from '@bsv/sdk';
import { signPeerList } from '@ctk/federation/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyEvent } from 'nostr-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, freePort, startInstance, stopInstance, wallet, type Instance } from './instance.js';

/** Every instance here may reach the others on loopback (the operator's allowance), and federates every 300 ms. */
const FEDERATION = { FEDERATION_ALLOW_PRIVATE_PEERS: 'true', FEDERATION_PULL_INTERVAL_MS: '300' };
const WHOLE_WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => ({ day, opens: '00:00', closes: '24:00' }));

/** Asks until `check` holds (federation works in rounds), or fails with the last answer. */
async function eventually<T>(ask: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await ask();
    if (check(value)) return value;
    if (Date.now() > until) throw new Error(`still not so after ${timeoutMs} ms: ${JSON.stringify(value).slice(0, 600)}`);
    await new Promise((later) => setTimeout(later, 200));
  }
}

describe('three instances on one machine: A publishes, B and C learn of A by peer exchange, C finds what A sells', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-federation-'));
  const running: Instance[] = [];
  let a: Instance;
  let b: Instance;
  let c: Instance;
  let redirecting: Server;
  let chainPort: number;
  beforeAll(async () => {
    chainPort = await freePort();
    const [portA, portB, portC] = [await freePort(), await freePort(), await freePort()];
    const start = async (port: number, name: string, seeds: string) => {
      const instance = await startInstance({
        port,
        dataDir: join(dir, name),
        chainPort,
        env: { ...FEDERATION, FEDERATION_SEED_PEERS: seeds },
      });
      running.push(instance);
      return instance;
    };
    // B knows nobody; A and C know only B.
    b = await start(portB, 'b', '');
    [a, c] = await Promise.all([start(portA, 'a', `http://localhost:${portB}`), start(portC, 'c', `http://localhost:${portB}`)]);
    // A "peer" whose peer list redirects to the cloud metadata address.
    redirecting = createServer((_request, response) =>
      response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
    );
    await new Promise<void>((listening) => redirecting.listen(0, '127.0.0.1', listening));
  }, 600_000);
  afterAll(async () => {
    redirecting?.close();
    for (const instance of running.reverse()) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  it("finds A's item, price, place and open state on C, and refuses on B a feed changed after signing", async () => {
    const merchantWallet = join(dir, 'merchant.json');
    const merchant = await wallet(chainPort, merchantWallet, 'create');
    const onboarded = await api(a.base, 'POST', '/api/v1/onboard', undefined, {
      name: 'Blue Bottle',
      receiving_address: merchant.address,
      identity_public_key: merchant.public_key,
      category: 'Cafe',
      latitude: 37.7765,
      longitude: -122.4172,
      time_zone: 'America/Los_Angeles',
    });
    expect(onboarded.status).toBe(201);
    const key = onboarded.body.api_key.key as string;
    const handle = onboarded.body.organization.handle as string;
    expect((await api(a.base, 'PUT', `/api/v1/orgs/${handle}/hours`, key, { regular: WHOLE_WEEK })).status).toBe(200);
    const item = await api(a.base, 'POST', `/api/v1/orgs/${handle}/items`, key, { name: 'Cortado', price_cents: 375, category: 'Coffee' });
    expect(item.status).toBe(201);
    const published = await api(a.base, 'POST', '/api/v1/feeds', key, { org_handle: handle });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ id: handle, item_count: 1, local: true });

    // The merchant signs the same digest with its identity key in its own wallet; the instance never holds that key.
    const signed = await wallet(chainPort, merchantWallet, 'sign-feed', `${a.base}/api/v1/feeds/${handle}`);
    expect(signed.feed).toMatchObject({ id: handle, sequence: 1, merchant_signed: true });

    const hostA = new URL(a.base).host;
    const id = `${handle}@${hostA}`;
    // C never named A: it learns of A from B's list, confirms A at A's own URL, and pulls its feed.
    const found = await eventually(
      () => api(c.base, 'GET', '/api/v1/discover/search?q=cortado'),
      (answer) => answer.body.items?.length > 0,
    );
    expect(found.body.items).toEqual([
      expect.objectContaining({ name: 'Cortado', price_minor: 375, currency: 'USD', merchant_id: id, origin_url: `http://${hostA}` }),
    ]);
    const nearby = await api(c.base, 'GET', '/api/v1/discover/nearby?latitude=37.7765&longitude=-122.4172&radius_m=200');
    expect(nearby.body.data).toEqual([expect.objectContaining({ id, name: 'Blue Bottle', distance_m: 0, local: false })]);
    const page = await api(c.base, 'GET', `/api/v1/discover/merchants/${encodeURIComponent(id)}`);
    expect(page.status).toBe(200);
    expect(page.body.items.map((i: { name: string }) => i.name)).toEqual(['Cortado']);
    const sign = await api(a.base, 'GET', `/api/v1/shops/${handle}/sign`);
    expect(page.body.merchant.sign).toMatchObject({ open: sign.body.sign.open, reason: 'regular', time_zone: 'America/Los_Angeles' });
    expect(page.body.merchant.sign.open).toBe(true);

    // C carries the feed with both proofs: the instance's and the merchant's.
    const carried = await eventually(
      () => api(c.base, 'GET', `/api/v1/feeds/${encodeURIComponent(id)}`),
      (answer) => answer.body.summary?.merchant_signed === true,
    );
    expect(carried.body.document.proof.map((proof: { proofPurpose: string }) => proof.proofPurpose)).toEqual([
      'ctk:instance',
      'ctk:merchant',
    ]);

    // B learnt of A by A's own exchange, and C by B's list.
    const peersOfB = await api(b.base, 'GET', '/api/v1/peers');
    expect(peersOfB.body.peers.map((peer: { url: string }) => peer.url)).toContain(`http://${hostA}`);

    // A copy of A's feed changed after signing is refused on B, naming the proof that no longer holds.
    const feed = await api(a.base, 'GET', `/api/v1/feeds/${handle}`);
    const document = feed.body.document;
    document.dataFeedElement[0].name = 'Free coffee';
    const tampered = await api(b.base, 'POST', '/api/v1/feeds', undefined, { feed: document });
    expect(tampered.status).toBe(422);
    expect(tampered.body.error.details.field).toBe('feed.proof[0].signature');

    // The NIP-99 listing derived from A's feed is a valid signed Nostr event.
    const nostr = await api(a.base, 'GET', `/api/v1/feeds/${handle}/nostr`);
    expect(nostr.body.events).toHaveLength(1);
    expect(nostr.body.events[0]).toMatchObject({ kind: 30402, pubkey: document['ctk:origin'].publicKey.slice(2) });
    expect(verifyEvent(nostr.body.events[0])).toBe(true);
  }, 120_000);

  it('refuses a peer whose list redirects to a link-local address, even with the operator allowing private peers', async () => {
    const port = (redirecting.address() as { port: number }).port;
    const key = PrivateKey.fromRandom();
    const url = `http://127.0.0.1:${port}`;
    const list = signPeerList({ url, key, publicKey: key.toPublicKey().toString() }, [], new Date());
    const exchanged = await api(b.base, 'POST', '/api/v1/peers/exchange', undefined, {
      self: { url, public_key: list.self.publicKey },
      peers: [],
      signed_at: list.signedAt,
      signature: list.signature,
    });
    expect(exchanged.status).toBe(422);
    expect(exchanged.body.error.message).toMatch(/169\.254\.169\.254|link-local/);
    expect(exchanged.body.error.message).toContain('FEDERATION_ALLOW_PRIVATE_PEERS');
  });
});
