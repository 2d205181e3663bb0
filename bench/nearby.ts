// Discovery by place (decision 0034): federation's ListNearbyPins and DiscoverNearby over gRPC, on PostgreSQL,
// against what this machine's PostgreSQL does at all (pgbench's select-only TPS on a scratch database).
// A child process runs federation alone (pos and p2p are not called by these) on a fresh database; this
// process inserts --pins (100,000) pins and --feeds (10,000) feed rows straight into it (batched INSERTs; 70%
// of pins and 80% of shops around 20 cities, a Gaussian 3-4 km each way, the rest uniform over latitudes -55
// to 70; 30% of pins anonymous, some of them expired), runs VACUUM ANALYZE, then for each radius (500 m, 2 km,
// 10 km) asks --calls (2,000) times at places around the cities (a Gaussian 5 km), one call at a time and
// --concurrency (16) at a time, with the default limits (50 pins, 20 merchants). It prints p50, p99 and calls
// a second, the rows answered, and EXPLAIN ANALYZE of the pins query (the one pins.ts makes) at 2 km.
// Usage: pnpm bench:nearby [--pins N] [--feeds N] [--calls N] [--concurrency N] [--postgres URL]   (build first)
import { execFileSync, fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import { FederationServiceDefinition } from '@ctk/proto/ctk/federation/v1/federation';
import { createGrpcClient, createLogger, loadConfig, startService } from '@ctk/shared';
import pg from 'pg';
import { nearbyCells, placeHash } from '../apps/federation/dist/discovery/nearby-cells.js';
import { CITIES, measure, placeNear, seededRandom } from './federation-support.js';
import { freshDatabase, percentile, pgbenchTps } from './support.js';

/** The child: federation alone on BENCH_FEDERATION_DB; answers its gRPC port. */
async function runFederation(): Promise<void> {
  const { configSchema, service } = await import('../apps/federation/dist/app.js');
  const env = { DATABASE_URL: process.env.BENCH_FEDERATION_DB, GRPC_PORT: '0', LOG_LEVEL: 'warn', FEDERATION_PULL_INTERVAL_MS: '0' };
  const app = await startService(service, loadConfig(configSchema, { ...env, POS_GRPC_URL: '127.0.0.1:1', P2P_GRPC_URL: '127.0.0.1:1' }), {
    logger: createLogger('federation', 'warn'),
  });
  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  process.send?.({ port: app.port });
}

const { values: args } = parseArgs({
  options: {
    pins: { type: 'string', default: '100000' },
    feeds: { type: 'string', default: '10000' },
    calls: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '16' },
    postgres: { type: 'string', default: 'postgresql://postgres@127.0.0.1:5432/postgres' },
  },
});
const RADII = [500, 2_000, 10_000];
const DAY_MS = 86_400_000;

/** A place: 70% (`clustered`) around one of the cities, the rest anywhere between latitudes -55 and 70. */
function place(random: () => number, clustered: number, sigmaKm: number) {
  if (random() < clustered) return { ...placeNear(random, CITIES[Math.floor(random() * CITIES.length)]!, sigmaKm), zone: 'city' };
  return { latitude: -55 + random() * 125, longitude: -180 + random() * 360, zone: 'UTC' };
}

/** Inserts `count` rows made by `row` in batches of 10,000: one INSERT ... SELECT FROM unnest(arrays) each. */
async function insert(db: pg.Client, sql: string, count: number, row: (i: number) => unknown[]) {
  for (let from = 0; from < count; from += 10_000) {
    const rows = Array.from({ length: Math.min(10_000, count - from) }, (_, k) => row(from + k));
    await db.query(
      sql,
      rows[0]!.map((_, column) => rows.map((r) => r[column])),
    );
  }
}

async function seed(db: pg.Client, pins: number, feeds: number) {
  const random = seededRandom(7);
  const now = Date.now();
  await insert(
    db,
    `INSERT INTO pins (id, latitude, longitude, geohash, label, category, created_by, client_address, expires_at)
     SELECT gen_random_uuid(), * FROM unnest($1::float8[], $2::float8[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamp[])`,
    pins,
    (i) => {
      const { latitude, longitude } = place(random, 0.7, 3);
      const anonymous = random() < 0.3;
      const expires = anonymous ? new Date(now + (random() * 35 - 5) * DAY_MS).toISOString() : null;
      const who = anonymous ? [null, `203.0.113.${i % 250}`] : [`user-${i % 5_000}`, null];
      return [latitude, longitude, placeHash(latitude, longitude), `Pin ${i}`, ['Market', 'Stall', 'Food truck'][i % 3], ...who, expires];
    },
  );
  const week = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => ({ day, opens: '08:00', closes: '18:00' }));
  const hours = JSON.stringify({ regular: week, special: [] });
  await insert(
    db,
    `INSERT INTO feeds (id, handle, origin_url, origin_public_key, local, sequence, digest, merchant_signed, name, category,
       latitude, longitude, geohash, time_zone, hours, document, item_count, published_at)
     SELECT h || CASE WHEN l THEN '' ELSE '@peer.example' END, h, CASE WHEN l THEN 'https://here.example' ELSE 'https://peer.example' END,
       '02' || repeat('ab', 32), l, 1, md5(h), false, 'Shop ' || h, c, la, lo, g, z, '${hours}'::jsonb, '{}'::jsonb, 25, now()
     FROM unnest($1::text[], $2::boolean[], $3::text[], $4::float8[], $5::float8[], $6::text[], $7::text[]) AS t(h, l, c, la, lo, g, z)`,
    feeds,
    (i) => {
      const city = CITIES[Math.floor(random() * CITIES.length)]!;
      const clustered = random() < 0.8;
      const { latitude, longitude } = clustered ? placeNear(random, city, 4) : place(random, 0, 0);
      const zone = clustered ? city[2] : 'UTC';
      return [`shop-${i}`, i % 2 === 0, ['Cafe', 'Bakery', 'Grocer'][i % 3], latitude, longitude, placeHash(latitude, longitude), zone];
    },
  );
  await db.query('VACUUM ANALYZE pins');
  await db.query('VACUUM ANALYZE feeds');
}

/** EXPLAIN (`options`) of the query pins.ts (`pins`) or discovery (`feeds`) makes for a place and radius, run once before. */
async function explain(db: pg.Client, table: 'pins' | 'feeds', latitude: number, longitude: number, radius: number, options: string) {
  const cells = nearbyCells(latitude, longitude, radius);
  const ranges = cells.map((_, k) => `(geohash >= $${4 + 2 * k} AND geohash < $${5 + 2 * k})`).join(' OR ');
  const distance = `(12742017.6 * asin(sqrt(power(sin(radians(latitude - $1) / 2), 2) +
    cos(radians($1)) * cos(radians(latitude)) * power(sin(radians(longitude - $2) / 2), 2))))`;
  const sql =
    table === 'pins'
      ? `SELECT * FROM (SELECT id, latitude, longitude, label, note, category, expires_at AS "expiresAt", created_at AS "createdAt",
           ${distance} AS "distanceM" FROM pins WHERE (${ranges}) AND (expires_at IS NULL OR expires_at > now())) near
         WHERE "distanceM" <= $3 ORDER BY "distanceM", id LIMIT 50`
      : `SELECT * FROM (SELECT id, handle, name, category, latitude, longitude, origin_url, local, paymail, time_zone, hours,
           item_count, published_at, ${distance} AS distance_m FROM feeds WHERE ${ranges}) near
         WHERE distance_m <= $3 ORDER BY distance_m, id LIMIT 20`;
  const values = [latitude, longitude, radius, ...cells.flatMap((cell) => [cell, `${cell}~`])];
  await db.query(sql, values);
  return { cells, rows: (await db.query(`EXPLAIN (${options}) ${sql}`, values)).rows };
}

async function runBench(): Promise<void> {
  const url = await freshDatabase(args.postgres, 'ctk_bench_nearby_federation');
  const child = fork(import.meta.filename, [], { env: { ...process.env, BENCH_ROLE: 'federation', BENCH_FEDERATION_DB: url } });
  const db = new pg.Client({ connectionString: url });
  try {
    const { port } = await new Promise<{ port: number }>((ready, fail) => {
      child.once('message', (message) => ready(message as { port: number }));
      child.once('exit', (code) => fail(new Error(`federation exited with ${code}`)));
    });
    await db.connect();
    const started = performance.now();
    await seed(db, Number(args.pins), Number(args.feeds));
    console.log(
      `Nearby on PostgreSQL: ${args.pins} pins and ${args.feeds} feeds inserted and analyzed in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const federation = createGrpcClient(FederationServiceDefinition, `127.0.0.1:${port}`);
    const random = seededRandom(11);
    const places = Array.from({ length: Number(args.calls) }, () => placeNear(random, CITIES[Math.floor(random() * CITIES.length)]!, 5));
    const pins = (radiusM: number) => async (i: number) => (await federation.listNearbyPins({ ...places[i]!, radiusM })).pins.length;
    const shops = (radiusM: number) => async (i: number) => (await federation.discoverNearby({ ...places[i]!, radiusM })).merchants.length;
    await measure(200, 4, pins(2_000)); // warm-up: connections, plans, caches
    await measure(200, 4, shops(2_000));

    const ms = (n: number) => n.toFixed(1).padStart(6);
    console.log(
      `\n  ${args.calls} calls each        radius   rows   1 at a time: p50    p99   /s   | ${args.concurrency} at a time: p50    p99    /s`,
    );
    for (const [name, call] of [
      ['ListNearbyPins', pins],
      ['DiscoverNearby', shops],
    ] as const)
      for (const radius of RADII) {
        const one = await measure(Number(args.calls), 1, call(radius));
        const many = await measure(Number(args.calls), Number(args.concurrency), call(radius));
        console.log(
          `  ${name.padEnd(16)} ${String(radius).padStart(12)} m ${one.rows.toFixed(1).padStart(6)}   ${' '.repeat(10)}${ms(percentile(one.sorted, 50))} ${ms(percentile(one.sorted, 99))} ` +
            `${one.perSecond.toFixed(0).padStart(5)}   | ${' '.repeat(12)}${ms(percentile(many.sorted, 50))} ${ms(percentile(many.sorted, 99))} ${many.perSecond.toFixed(0).padStart(6)}`,
        );
      }
    federation.close();

    // The queries pins.ts and discovery make, at one of the places (run once first, as the calls did).
    const { latitude, longitude } = places[0]!;
    const pinsPlan = await explain(db, 'pins', latitude, longitude, 2_000, 'ANALYZE, BUFFERS');
    console.log(
      `\n  EXPLAIN ANALYZE of ListNearbyPins at (${latitude.toFixed(4)}, ${longitude.toFixed(4)}), 2 km, cells ${pinsPlan.cells.join(' ')}:`,
    );
    for (const { 'QUERY PLAN': line } of pinsPlan.rows as { 'QUERY PLAN': string }[]) console.log(`    ${line}`);
    const [
      {
        'QUERY PLAN': [feedsPlan],
      },
    ] = (await explain(db, 'feeds', latitude, longitude, 10_000, 'ANALYZE, FORMAT JSON')).rows;
    console.log(
      `  DiscoverNearby's query there at 10 km: ${feedsPlan.Plan['Actual Rows']} rows in ${feedsPlan['Execution Time']} ms (EXPLAIN ANALYZE)`,
    );

    const scratch = await freshDatabase(args.postgres, 'ctk_bench_nearby_pgbench');
    execFileSync('pgbench', ['-i', '-s', '10', '-q', scratch], { stdio: 'ignore' });
    console.log(
      `\n  For reference, this machine's PostgreSQL (pgbench -i -s 10, then -S -T 10; select-only, one primary-key lookup a transaction):`,
    );
    console.log(
      `    1 client: ${pgbenchTps(scratch, 1, ['-S'])} TPS    ${args.concurrency} clients (-j 2): ${pgbenchTps(scratch, Number(args.concurrency), ['-S'])} TPS`,
    );
  } finally {
    await db.end().catch(() => undefined);
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(undefined)));
  }
}

if (process.env.BENCH_ROLE === 'federation') await runFederation();
else await runBench();
