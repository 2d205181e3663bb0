// Load benchmark of the gateway's gRPC hop, at 50 connections:
//   (1) a bare fastify JSON route;
//   (2) a bare fastify route making one raw @grpc/grpc-js unary call to a trivial service (the floor);
//   (3) the gateway's authenticated read GET /api/v1/orgs/:handle/items forwarded to the pos service,
//       with everything the gateway does on the way (auth, role, validation, logging, error mapping);
//   (3t) the same gateway read with the trivial service of (2) behind it instead of pos: the gateway's own cost.
// Every server starts once; the scenarios then run in turn for several rounds, and the medians are printed
// (one run on a 2-core machine varies by 10-20%). Prints req/s, p50 and p99, and the ratios.
// Usage: pnpm bench [--seconds N] [--rounds N] [--postgres URL]   (build first: pnpm build)
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';

const { values: args } = parseArgs({
  options: { seconds: { type: 'string', default: '8' }, rounds: { type: 'string', default: '3' }, postgres: { type: 'string' } },
});
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const CONNECTIONS = 50;
const root = resolve(import.meta.dirname, '..');
const here = import.meta.dirname;
const children = [];

function start(file, env, { waitForMessage = false } = {}) {
  const child = fork(file, [], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  children.push(child);
  if (!waitForMessage) return Promise.resolve(child);
  return new Promise((ready, fail) => {
    child.once('message', () => ready(child));
    child.once('exit', (code) => fail(new Error(`${file} exited with ${code}`)));
  });
}

async function waitForHttp(url) {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not come up`);
}

async function freshDatabase(name) {
  if (!args.postgres) return {};
  const client = new pg.Client({ connectionString: args.postgres });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  const url = new URL(args.postgres);
  url.pathname = `/${name}`;
  return { DATABASE_URL: url.toString() };
}

/** A gateway (and the service behind it) with an onboarded organisation; returns the items URL and key. */
async function startGateway(name, port, posAddress, dataDir, menu) {
  await start(join(root, 'apps/gateway/dist/server.js'), {
    CTK_DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    PORT: String(port),
    POS_GRPC_URL: posAddress,
    CTK_RATE_LIMIT_PER_MINUTE: '100000000',
    ...(await freshDatabase(`ctk_bench_${name}`)),
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/healthz`);
  const onboarded = await (
    await fetch(`${base}/api/v1/onboard`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench Cafe' }),
    })
  ).json();
  const authorization = `Bearer ${onboarded.api_key.key}`;
  const url = `${base}/api/v1/orgs/${onboarded.organization.handle}/items`;
  for (const [item, price] of menu) {
    const create = () =>
      fetch(url, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ name: item, price_cents: price }),
      });
    // pos is started without waiting for it (its data dir's first migration takes a few seconds): 503 until it is up.
    let created = await create();
    for (let tries = 0; created.status === 503 && tries < 120; tries++) {
      await new Promise((r) => setTimeout(r, 500));
      created = await create();
    }
    if (created.status !== 201) throw new Error(`creating an item failed: ${created.status} ${await created.text()}`);
  }
  return { url, headers: { authorization } };
}

async function load({ url, headers = {} }) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  const failed = result.errors + result.non2xx + result.timeouts;
  if (failed > 0) console.warn(`  ! ${failed} failed requests against ${url}`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const format = (r) =>
  `${Math.round(r.rps).toString().padStart(7)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms`;

const dataDir = mkdtempSync(join(tmpdir(), 'ctk-bench-'));
try {
  console.log(
    `Gateway hop benchmark: ${CONNECTIONS} connections, ${SECONDS} s a scenario, ${ROUNDS} rounds (medians), database ${args.postgres ? 'PostgreSQL' : 'embedded PGlite'}`,
  );
  await start(join(here, 'servers/bare-fastify.mjs'), { PORT: '18081' }, { waitForMessage: true });
  await start(join(here, 'servers/trivial-grpc.mjs'), { GRPC_PORT: '50361' }, { waitForMessage: true });
  await start(join(here, 'servers/fastify-grpc.mjs'), { PORT: '18082', GRPC_PORT: '50361' }, { waitForMessage: true });
  await start(join(root, 'apps/pos/dist/server.js'), {
    CTK_DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    GRPC_PORT: '50362',
    ...(await freshDatabase('ctk_bench_pos')),
  });
  const scenarios = {
    '(1) bare fastify JSON route       ': { url: 'http://127.0.0.1:18081/bench' },
    '(2) fastify + one raw grpc-js call': { url: 'http://127.0.0.1:18082/bench' },
    '(3) gateway authenticated read    ': await startGateway('gateway', 18083, '127.0.0.1:50362', dataDir, [
      ['Espresso', 300],
      ['Flat white', 450],
      ['Croissant', 350],
    ]),
    '(3t) same, trivial service behind ': await startGateway('gateway_trivial', 18084, '127.0.0.1:50361', join(dataDir, 'trivial'), []),
  };
  for (const target of Object.values(scenarios)) await autocannon({ ...target, connections: CONNECTIONS, duration: 2 }); // warm-up
  const results = Object.fromEntries(Object.keys(scenarios).map((name) => [name, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, target] of Object.entries(scenarios)) results[name].push(await load(target));
    console.log(
      `  round ${round}: ` +
        Object.values(results)
          .map((r) => Math.round(r.at(-1).rps))
          .join(' / ') +
        ' req/s',
    );
  }
  const summary = Object.fromEntries(
    Object.entries(results).map(([name, runs]) => [
      name,
      { rps: median(runs.map((r) => r.rps)), p50: median(runs.map((r) => r.p50)), p99: median(runs.map((r) => r.p99)) },
    ]),
  );
  for (const [name, r] of Object.entries(summary)) console.log(`${name} ${format(r)}`);
  const [bare, hop, gateway, gatewayOnly] = Object.values(summary);
  console.log(
    `(3)/(2)  throughput ${(gateway.rps / hop.rps).toFixed(2)} (target >= 0.75), p99 ${(gateway.p99 / hop.p99).toFixed(2)}x (target <= 1.5)`,
  );
  console.log(
    `(3t)/(2) throughput ${(gatewayOnly.rps / hop.rps).toFixed(2)}, p99 ${(gatewayOnly.p99 / hop.p99).toFixed(2)}x: the gateway's own share`,
  );
  console.log(`(2)/(1)  throughput ${(hop.rps / bare.rps).toFixed(2)}`);
} finally {
  for (const child of children) child.kill();
  rmSync(dataDir, { recursive: true, force: true });
}
