// Federation between two instances (decision 0034): how long instance B takes to carry a large feed of
// instance A's, and what that costs in memory. Both instances run in this process on one local chain, each
// with its own p2p, books, pos, gateway and federation (fresh PostgreSQL databases, or PGlite with --embedded).
// A's shop gets --items (10,000, pos's feed limit) items through pos's gRPC CreateItem, --concurrency at a
// time (setup, timed apart); A publishes its feed (POST /api/v1/feeds, timed; past the route's 30 s the
// bench waits until A lists it) and the bench reads it once as B will (GET /api/v1/feeds/:handle: bytes and
// time; if A cannot serve it, why, and B is not started). Then B's federation starts with A as its seed
// (private peers allowed on both: A confirms B at its loopback URL; rounds every --interval, 100 ms) and the
// clock runs until B's GET /api/v1/feeds lists handle@127.0.0.1:<A's port> with all the items and its GET
// /api/v1/discover/search finds A's last item, both polled every 50 ms (failed and slowest polls counted),
// while this process's memory is sampled every 50 ms (its peaks, over what it held before B's federation).
// Usage: pnpm bench:federation [--items N] [--concurrency N] [--interval MS] [--timeout S] [--postgres URL | --embedded]   (build first)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startLocalChain } from '@ctk/chain/local';
import { PosServiceDefinition } from '@ctk/proto/ctk/pos/v1/pos';
import { createGrpcClient, createLogger } from '@ctk/shared';
import { http } from '../apps/gateway/test/wallet-http.js';
import {
  getFeedAnswerBytes,
  GRPC_MAX_MESSAGE_BYTES,
  mib,
  sampleMemory,
  seededRandom,
  startInstance,
  type Instance,
} from './federation-support.js';
import { expectOk, freshDatabase } from './support.js';

const { values: args } = parseArgs({
  options: {
    items: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '16' },
    interval: { type: 'string', default: '100' },
    timeout: { type: 'string', default: '180' },
    postgres: { type: 'string', default: 'postgresql://postgres@127.0.0.1:5432/postgres' },
    embedded: { type: 'boolean', default: false },
  },
});
const ITEMS = Number(args.items);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const WORDS = ['Oat', 'Smoked', 'Wild', 'Toasted', 'Spiced', 'Roasted', 'Lemon', 'Honey', 'Sourdough', 'Matcha', 'Dark', 'Salted'];
const THINGS = ['latte', 'bagel', 'scone', 'granola', 'brownie', 'focaccia', 'soup', 'salad', 'tart', 'cold brew', 'toastie', 'bun'];
const CATEGORIES = ['Coffee', 'Bakery', 'Breakfast', 'Lunch', 'Sweets', 'Drinks'];
/** Item i's name, description and category: a word no other item has (`no<i>`) lets a search find exactly it. */
function item(i: number, random: () => number) {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const name = `${pick(WORDS)} ${pick(THINGS)} no${i}`;
  const description = `${name}, made in house every morning with ${pick(WORDS).toLowerCase()} ${pick(THINGS)} and seasonal produce.`;
  return { name, description, category: pick(CATEGORIES), priceCents: BigInt(200 + Math.floor(random() * 2_000)), currency: 'USD' };
}

const dataDir = mkdtempSync(join(tmpdir(), 'ctk-bench-federation-'));
/** An instance's fresh PostgreSQL database per app (none with --embedded: PGlite). */
async function databases(instance: string): Promise<(app: string) => string | undefined> {
  const urls: Record<string, string> = {};
  if (!args.embedded)
    for (const app of ['gateway', 'p2p', 'books', 'pos', 'federation'])
      urls[app] = await freshDatabase(args.postgres, `ctk_bench_fed_${instance}_${app}`);
  return (app) => urls[app];
}

const chain = await startLocalChain({ dataDir, port: 0, mineIntervalMs: 0, logger: createLogger('local-chain', 'warn') });
const instances: Instance[] = [];
try {
  const store = args.embedded ? 'PGlite' : 'PostgreSQL';
  console.log(`Federation exchange: ${ITEMS} items, A -> B, both in this process (${store})`);
  const a = await startInstance({
    chain,
    dataDir: join(dataDir, 'a'),
    database: await databases('a'),
    // A confirms B at B's own URL when B introduces itself: a loopback address, refused unless allowed here too.
    federation: { FEDERATION_PULL_INTERVAL_MS: '0', FEDERATION_ALLOW_PRIVATE_PEERS: 'true' },
  });
  instances.push(a);
  const onboarded = await expectOk(
    http('POST', `${a.base}/api/v1/onboard`, {
      name: 'Federation Bench Bakery',
      jurisdiction: 'US-CA',
      category: 'Cafe',
      latitude: 37.7765,
      longitude: -122.4172,
      time_zone: 'America/Los_Angeles',
    }),
    'onboard on A',
    201,
  );
  const owner = { authorization: `Bearer ${onboarded.api_key.key}` };
  const org = { id: onboarded.organization.id as string, handle: onboarded.organization.handle as string };

  let started = performance.now();
  const pos = createGrpcClient(PosServiceDefinition, a.addresses.POS_GRPC_URL!);
  const random = seededRandom(34);
  let next = 0;
  const createItems = async () => {
    for (let i = next++; i < ITEMS; i = next++) await pos.createItem({ org, ...item(i, random) }, { timeoutMs: 30_000 });
  };
  await Promise.all(Array.from({ length: Number(args.concurrency) }, createItems));
  pos.close();
  console.log(`  setup: ${ITEMS} items through pos's CreateItem in ${seconds(performance.now() - started)}`);

  started = performance.now();
  const published = await http('POST', `${a.base}/api/v1/feeds`, { org_handle: org.handle }, owner);
  let publishMs = performance.now() - started;
  let publishAnswer = `HTTP ${published.status}`;
  if (published.status === 504) {
    // The route's 30 s deadline passed, but federation goes on publishing: wait until A lists the feed.
    for (let kept = false; !kept && performance.now() - started < Number(args.timeout) * 1000; await sleep(50)) {
      const feeds = await http('GET', `${a.base}/api/v1/feeds?origin=self`);
      kept = ((feeds.json?.data ?? []) as { id: string; item_count: number }[]).some((f) => f.id === org.handle && f.item_count === ITEMS);
    }
    publishAnswer = `HTTP 504 after ${seconds(publishMs)}, then listed by A`;
    publishMs = performance.now() - started;
  } else if (published.status !== 200) throw new Error(`A could not publish: HTTP ${published.status} ${published.text.slice(0, 400)}`);
  started = performance.now();
  const feed = await http('GET', `${a.base}/api/v1/feeds/${org.handle}`);
  const readMs = performance.now() - started;
  const feedBytes = Buffer.byteLength(feed.text);
  if (feed.status !== 200) {
    // Say why: the size of federation's answer to the gateway, against the gRPC limit.
    const bytes = await getFeedAnswerBytes(a.addresses.FEDERATION_GRPC_URL!, org.handle);
    console.log(`  publish on A: ${seconds(publishMs)} (${publishAnswer})`);
    console.log(`  A's GET /api/v1/feeds/${org.handle}: HTTP ${feed.status} in ${seconds(readMs)}: ${feed.text.slice(0, 300)}`);
    console.log(`  federation's GetFeed answer is ${bytes} bytes (${mib(bytes)}, ${(bytes / ITEMS).toFixed(0)} an item);`);
    console.log(
      `  the gateway's gRPC client reads at most ${GRPC_MAX_MESSAGE_BYTES} (4 MiB): about ${Math.floor(GRPC_MAX_MESSAGE_BYTES / (bytes / ITEMS))} such items.`,
    );
    console.log(`  B pulls feeds through A's gateway, so B cannot carry this feed; B is not started.`);
    throw Object.assign(new Error('the feed could not be read'), { reported: true });
  }
  const documentBytes = Buffer.byteLength(JSON.stringify(feed.json.document));

  const b = await startInstance({
    chain,
    dataDir: join(dataDir, 'b'),
    database: await databases('b'),
    holdFederation: true,
    federation: { FEDERATION_SEED_PEERS: a.base, FEDERATION_ALLOW_PRIVATE_PEERS: 'true', FEDERATION_PULL_INTERVAL_MS: args.interval },
  });
  instances.push(b);
  const carriedId = `${org.handle}@127.0.0.1:${a.port}`;
  const memory = sampleMemory(50);
  const federationUp = performance.now();
  await b.startFederation();
  started = performance.now();
  let listedMs: number | undefined;
  let foundMs: number | undefined;
  let listed: { item_count?: number; sequence?: number } | undefined;
  const polls = { count: 0, failed: 0, slowestMs: 0 };
  while (foundMs === undefined || listedMs === undefined) {
    if (performance.now() - started > Number(args.timeout) * 1000) break;
    await sleep(50);
    const asked = performance.now();
    const [feeds, found] = await Promise.all([
      http('GET', `${b.base}/api/v1/feeds?limit=100`),
      http('GET', `${b.base}/api/v1/discover/search?q=no${ITEMS - 1}`),
    ]);
    const now = performance.now() - started;
    polls.count++;
    polls.failed += Number(feeds.status !== 200) + Number(found.status !== 200);
    polls.slowestMs = Math.max(polls.slowestMs, performance.now() - asked);
    listed = (feeds.json?.data as { id: string; item_count: number }[] | undefined)?.find((f) => f.id === carriedId);
    if (listed?.item_count === ITEMS) listedMs ??= now;
    if ((found.json?.items as { merchant_id: string }[] | undefined)?.some((i) => i.merchant_id === carriedId)) foundMs ??= now;
  }
  const peak = memory.stop();

  const row = (what: string, value: string) => console.log(`  ${what.padEnd(52)} ${value}`);
  console.log('');
  row('publish on A (POST /api/v1/feeds)', `${seconds(publishMs)} (${publishAnswer})`);
  row("A's feed read once (GET /api/v1/feeds/:handle)", `${seconds(readMs)}, ${mib(feedBytes)} (${feedBytes} bytes)`);
  row('  of which the signed JSON-LD document', `${mib(documentBytes)}, ${(documentBytes / ITEMS).toFixed(0)} bytes an item`);
  row("B's federation start (its database migrated)", seconds(started - federationUp));
  console.log(`  from B's federation up (its first round due ${args.interval} ms later):`);
  row(`B lists ${carriedId} with ${ITEMS} items`, listedMs === undefined ? `not within ${args.timeout} s` : seconds(listedMs));
  row(`B's search finds no${ITEMS - 1}`, foundMs === undefined ? `not within ${args.timeout} s` : seconds(foundMs));
  row("B's polls meanwhile (two calls every 50 ms)", `${polls.count}, ${polls.failed} calls failed, slowest ${seconds(polls.slowestMs)}`);
  row('process RSS: before B federation -> peak', `${mib(memory.first.rss)} -> ${mib(peak.rss)} (+${mib(peak.rss - memory.first.rss)})`);
  row(
    'process heap used: before -> peak',
    `${mib(memory.first.heapUsed)} -> ${mib(peak.heapUsed)} (+${mib(peak.heapUsed - memory.first.heapUsed)})`,
  );
  row('process heap total / external: peak', `${mib(peak.heapTotal)} / ${mib(peak.external)}`);
  if (listedMs === undefined || foundMs === undefined) {
    console.log(`  B carries: ${listed ? JSON.stringify(listed) : 'nothing of A'} (see the warnings above for why)`);
    process.exitCode = 1;
  }
} catch (error) {
  if (!(error as { reported?: boolean }).reported) throw error;
  process.exitCode = 1;
} finally {
  for (const instance of instances.reverse()) await instance.stop();
  await chain.close();
  rmSync(dataDir, { recursive: true, force: true });
}
