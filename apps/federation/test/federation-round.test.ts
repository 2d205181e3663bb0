import { FederationServiceDefinition } from '@ctk/proto/ctk/federation/v1/federation';
import { createGrpcClient, loadConfig, startService, type GrpcClient, type RunningService } from '@ctk/shared';
import { createTestDatabase, eventually, TEST_DATA_DIR } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema, service as federation } from '../src/app.js';
import { buildFeed, feedDigest, signFeed, type FeedDocument } from '../src/feeds/index.js';
import { SAMPLE_INSTANCE_KEY, SAMPLE_NOW, sampleSource } from '../src/feeds/sample-feed.js';
import { signPeerList } from '../src/peers/peer-list.js';
import { startTestPeer, type TestPeer } from '../src/peers/test-peer-server.js';

/**
 * One peer's feeds pulled in rounds, where some of them cannot be carried: one changed after signing, one the
 * peer lists but answers 404 for, one over this instance's limit of feeds from one peer. The others are carried
 * all the same, and the peer stays healthy: a newer version of a feed it carries is pulled in a later round.
 */
/** Federation on a free port with `peer` as its one seed (private addresses allowed), on `databaseUrl` or PGlite. */
function startFederation(peer: string, databaseUrl: string | undefined, settings: Record<string, string>): Promise<RunningService> {
  return startService(
    federation,
    loadConfig(configSchema, {
      GRPC_PORT: '0',
      LOG_LEVEL: 'silent',
      CTK_DATA_DIR: TEST_DATA_DIR,
      FEDERATION_SEED_PEERS: peer,
      FEDERATION_ALLOW_PRIVATE_PEERS: 'true',
      ...settings,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    }),
  );
}

/** A test peer's answer to GET /api/v1/peers and to an exchange: itself, signed, and no peers. */
function peerListOf(origin: string) {
  const list = signPeerList(
    { url: origin, key: SAMPLE_INSTANCE_KEY, publicKey: SAMPLE_INSTANCE_KEY.toPublicKey().toString() },
    [],
    new Date(),
  );
  return { self: { url: list.self.url, public_key: list.self.publicKey }, peers: [], signed_at: list.signedAt, signature: list.signature };
}

describe('a federation round over a peer with feeds that cannot be carried', () => {
  let peer: TestPeer;
  let service: RunningService;
  let client: GrpcClient<typeof FederationServiceDefinition>;
  const feeds = new Map<string, FeedDocument>();
  /** The feeds the peer lists, in its order (some it cannot serve). */
  const listed = ['tampered', 'gone', 'one', 'two', 'three'];

  function publish(handle: string, sequence: number, name = `Shop ${handle}`): FeedDocument {
    const origin = { originUrl: peer.origin, originPublicKey: SAMPLE_INSTANCE_KEY.toPublicKey().toString() };
    const doc = signFeed(buildFeed(sampleSource({ ...origin, handle, name, sequence })), SAMPLE_INSTANCE_KEY, SAMPLE_NOW);
    feeds.set(handle, doc);
    return doc;
  }
  const summary = (handle: string) => {
    const doc = feeds.get(handle);
    return { handle, digest: doc ? feedDigest(doc) : 'f'.repeat(64), merchant_signed: false };
  };

  beforeAll(async () => {
    peer = await startTestPeer((request, res) => {
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const path = request.path.split('?')[0]!;
      if (path === '/api/v1/peers' || path === '/api/v1/peers/exchange') return json(200, peerListOf(peer.origin));
      if (path === '/api/v1/feeds') return json(200, { data: listed.map(summary), next_cursor: null });
      const doc = feeds.get(decodeURIComponent(path.slice('/api/v1/feeds/'.length)));
      return doc ? json(200, { document: doc }) : json(404, { error: { code: 'not_found', message: 'No such feed.' } });
    });
    for (const handle of ['one', 'two', 'three']) publish(handle, 1);
    const tampered = publish('tampered', 1);
    feeds.set('tampered', { ...tampered, about: { ...tampered.about, name: 'Changed after signing' } });

    const url = await createTestDatabase('federation-round');
    service = await startFederation(peer.origin, url, { FEDERATION_PULL_INTERVAL_MS: '200', FEDERATION_FEEDS_PER_PEER: '2' });
    client = createGrpcClient(FederationServiceDefinition, `127.0.0.1:${service.port}`);
  });
  afterAll(async () => {
    client.close();
    await service?.close();
    await peer?.close();
  });

  const carried = async () => {
    const { feeds: list } = await client.listFeeds({ limit: 100 });
    return Object.fromEntries(list.map((feed) => [feed.handle, Number(feed.sequence)]));
  };
  const fetchesOf = (handle: string) => peer.received.filter((request) => request.path === `/api/v1/feeds/${handle}`).length;

  it('carries the feeds it can, skipping the tampered, the missing and those over its limit for the peer', async () => {
    await eventually(async () => expect(await carried()).toEqual({ one: 1, two: 1 }));
    // The tampered and the missing feeds were asked for and refused; "three" was never fetched: the limit was reached.
    expect(fetchesOf('tampered')).toBeGreaterThanOrEqual(1);
    expect(fetchesOf('gone')).toBeGreaterThanOrEqual(1);
    expect(fetchesOf('three')).toBe(0);
  });

  it('visits the peer again at its interval and pulls a newer version of a feed it carries', async () => {
    publish('two', 2, 'Shop two, renamed');
    await eventually(async () => expect(await carried()).toEqual({ one: 1, two: 2 }), 5_000);
    expect(fetchesOf('three')).toBe(0);
  });
});

/**
 * Two replicas of federation on one PostgreSQL database, their rounds due at once, and a peer that answers slowly:
 * each round claims the peers it visits, so the peer is visited once, not once by each replica, and its next
 * visit is the one its interval sets. PGlite is one process's database: replicas need PostgreSQL.
 */
describe.skipIf(!process.env.CTK_TEST_POSTGRES_URL)('two replicas running federation rounds at once', () => {
  let peer: TestPeer;
  const replicas: RunningService[] = [];

  beforeAll(async () => {
    peer = await startTestPeer((request, res) => {
      const answer = () => {
        const body = request.path.startsWith('/api/v1/feeds') ? { data: [], next_cursor: null } : peerListOf(peer.origin);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      };
      // Slow enough that both replicas' first rounds find the peer due while one of them is visiting it.
      if (request.path === '/api/v1/peers/exchange') setTimeout(answer, 3_000);
      else answer();
    });
    const url = await createTestDatabase('federation-replicas');
    for (let i = 0; i < 2; i++) replicas.push(await startFederation(peer.origin, url, { FEDERATION_PULL_INTERVAL_MS: '60000' }));
  }, 60_000);
  afterAll(async () => {
    for (const replica of replicas) await replica.close();
    await peer?.close();
  });

  it('visits a due peer once, whichever replica claims it', async () => {
    const exchanges = () => peer.received.filter((request) => request.path === '/api/v1/peers/exchange').length;
    const listings = () => peer.received.filter((request) => request.path.startsWith('/api/v1/feeds?')).length;
    await eventually(() => expect(listings()).toBe(1), 20_000);
    // Both replicas' rounds have ticked again since (every 5 s): the peer is not due for a minute.
    await new Promise((later) => setTimeout(later, 6_000));
    expect(exchanges()).toBe(1);
    expect(listings()).toBe(1);
  }, 40_000);
});
