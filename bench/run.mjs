// Load benchmark of the gateway's gRPC hop, at 50 connections, in one run:
//   (1) a bare fastify JSON route;
//   (2) a bare fastify route making one raw @grpc/grpc-js unary call to a trivial service (the floor);
//   (3) the gateway's authenticated read GET /api/v1/orgs/:handle/items forwarded to the pos service,
//       with everything the gateway does on the way (auth, role, validation, logging, error mapping).
// Prints requests per second and p50/p99 latency for each, and the ratios (3)/(2) and (2)/(1).
// (3t) repeats (3) with the trivial service of (2) behind the gateway instead of pos: the gateway's own cost.
// Usage: pnpm bench [--seconds N] [--postgres URL]   (build first: pnpm build)
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';

const { values: args } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, postgres: { type: 'string' } } });
const SECONDS = Number(args.seconds);
const CONNECTIONS = 50;
const root = resolve(import.meta.dirname, '..');
const children = [];

function startProcess(file, env, { waitForMessage = true } = {}) {
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

async function load(url, headers = {}) {
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers }); // warm-up (JIT, pools, caches)
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  const failed = result.errors + result.non2xx + result.timeouts;
  if (failed > 0) console.warn(`  ! ${failed} failed requests against ${url}`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, failed };
}

async function freshDatabase(serverUrl, name) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function gatewayRead(dataDir, { trivialPos = false } = {}) {
  const databases = args.postgres
    ? { gateway: await freshDatabase(args.postgres, 'ctk_bench_gateway'), pos: await freshDatabase(args.postgres, 'ctk_bench_pos') }
    : {};
  const common = { CTK_DATA_DIR: dataDir, LOG_LEVEL: 'info' };
  await startProcess(join(root, 'apps/pos/dist/server.js'), { ...common, GRPC_PORT: '50362', ...(databases.pos ? { DATABASE_URL: databases.pos } : {}) }, { waitForMessage: false });
  if (trivialPos) await startProcess(join(import.meta.dirname, 'servers/trivial-grpc.mjs'), { GRPC_PORT: '50363' });
  await startProcess(join(root, 'apps/gateway/dist/server.js'), {
    ...common,
    PORT: '18083',
    POS_GRPC_URL: trivialPos ? '127.0.0.1:50363' : '127.0.0.1:50362',
    CTK_RATE_LIMIT_PER_MINUTE: '100000000',
    ...(databases.gateway ? { DATABASE_URL: databases.gateway } : {}),
  }, { waitForMessage: false });
  const base = 'http://127.0.0.1:18083';
  await waitForHttp(`${base}/healthz`);
  const onboarded = await (await fetch(`${base}/api/v1/onboard`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bench Cafe' }) })).json();
  const headers = { authorization: `Bearer ${onboarded.api_key.key}`, 'content-type': 'application/json' };
  const handle = onboarded.organization.handle;
  const menu = trivialPos ? [] : [['Espresso', 300], ['Flat white', 450], ['Croissant', 350]];
  for (const [name, price] of menu) {
    const created = await fetch(`${base}/api/v1/orgs/${handle}/items`, { method: 'POST', headers, body: JSON.stringify({ name, price_cents: price }) });
    if (created.status !== 201) throw new Error(`creating an item failed: ${created.status} ${await created.text()}`);
  }
  return load(`${base}/api/v1/orgs/${handle}/items`, { authorization: headers.authorization });
}

const format = (r) => `${Math.round(r.rps).toString().padStart(7)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms`;
const dataDir = mkdtempSync(join(tmpdir(), 'ctk-bench-'));
try {
  console.log(`Gateway hop benchmark: ${CONNECTIONS} connections, ${SECONDS} s per scenario, database ${args.postgres ? 'PostgreSQL' : 'embedded PGlite'}`);
  await startProcess(join(import.meta.dirname, 'servers/bare-fastify.mjs'), { PORT: '18081' });
  const bare = await load('http://127.0.0.1:18081/bench');
  console.log(`(1) bare fastify JSON route          ${format(bare)}`);
  await startProcess(join(import.meta.dirname, 'servers/trivial-grpc.mjs'), { GRPC_PORT: '50361' });
  await startProcess(join(import.meta.dirname, 'servers/fastify-grpc.mjs'), { PORT: '18082', GRPC_PORT: '50361' });
  const hop = await load('http://127.0.0.1:18082/bench');
  console.log(`(2) fastify + one raw grpc-js call   ${format(hop)}`);
  for (const child of children.splice(0)) child.kill();
  const gateway = await gatewayRead(dataDir);
  console.log(`(3) gateway authenticated read       ${format(gateway)}`);
  for (const child of children.splice(0)) child.kill();
  const gatewayOnly = await gatewayRead(mkdtempSync(join(dataDir, 'trivial-')), { trivialPos: true });
  console.log(`(3t) same, trivial service behind    ${format(gatewayOnly)}`);
  console.log(`(3)/(2) throughput ${(gateway.rps / hop.rps).toFixed(2)} (target >= 0.75), p99 ${(gateway.p99 / hop.p99).toFixed(2)}x (target <= 1.5)`);
  console.log(`(3t)/(2) throughput ${(gatewayOnly.rps / hop.rps).toFixed(2)}, p99 ${(gatewayOnly.p99 / hop.p99).toFixed(2)}x: the gateway's own share`);
  console.log(`(2)/(1) throughput ${(hop.rps / bare.rps).toFixed(2)}`);
} finally {
  for (const child of children) child.kill();
  rmSync(dataDir, { recursive: true, force: true });
}
