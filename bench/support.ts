// What the benchmarks share: a fresh PostgreSQL database, a percentile, the stack of services they measure
// (the local chain and the apps named, in one process, on one in-process event transport) and the gateway in front,
// on a thread of its own as the embedded default runs it (decision 0059).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalChain } from '@ctk/chain/local';
import {
  consumersOf,
  createLogger,
  deferOptimisation,
  grpcUrlVariable,
  inProcessTransport,
  loadConfig,
  SERVICE_NAMES,
  type ServiceName,
  startService,
  openServiceThread,
} from '@ctk/shared';
import { freePort } from '@ctk/shared/testing';
import pg from 'pg';
import { http, merchantKeys, type HttpAnswer } from '../apps/gateway/test/wallet-http.js';

export { freePort };

/** A new, empty database `name` on the server at `admin` (dropped first if a run left it); its URL. */
export async function freshDatabase(admin: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  return Object.assign(new URL(admin), { pathname: `/${name}` }).toString();
}

/**
 * The value at percentile `p` of ascending `sorted` values by nearest rank, the ⌈p/100 × n⌉th (NaN for none): of
 * 100 values the p99 is the 99th, not the largest, and the p50 the 50th.
 */
export const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil((sorted.length * p) / 100) - 1)] ?? NaN;

/**
 * pgbench for 10 s on a scratch database (initialised with `pgbench -i`) at `clients` (-j 2 at most): its TPS,
 * what this machine's PostgreSQL does at all. `mode`: pgbench's own options, e.g. ['-S'] for select-only;
 * none runs its TPC-B-like transaction (three updates, a select and an insert).
 */
export function pgbenchTps(url: string, clients: number, mode: string[] = []): string {
  const out = execFileSync('pgbench', [...mode, '-T', '10', '-c', String(clients), '-j', String(Math.min(clients, 2)), url], {
    encoding: 'utf8',
    stdio: 'pipe',
  });
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(out)?.[1];
  return tps ? Number(tps).toFixed(0) : out;
}

/**
 * The yardstick each money-path bench divides by (so that its figure holds on another machine): pgbench's
 * TPC-B-like transaction at `clients` for 10 s on a scratch database `name` (scale 10) of the server at
 * `admin`, which the bench's own databases share. Run it while the stack is down, so neither slows the other.
 */
export async function pgbenchReference(admin: string, name: string, clients: number): Promise<number> {
  const scratch = await freshDatabase(admin, name);
  execFileSync('pgbench', ['-i', '-s', '10', '-q', scratch], { stdio: 'ignore' });
  const tps = Number(pgbenchTps(scratch, clients));
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.end();
  return tps;
}

/**
 * The lines each money-path bench ends with: its figures over pgbench's transactions a second on the same server,
 * each run while the stack is down: before it started and, where a bench gives it, once it stopped. The machine's
 * speed moves within a run (pgbench here has done 1,522 and 2,033 TPS minutes apart): the yardstick is their mean,
 * and both are printed.
 */
export function printRatios(runs: readonly number[] | undefined, clients: number, figures: Record<string, number>): void {
  if (runs === undefined) {
    console.log('  (no pgbench ratio: PGlite has no pgbench; run with --postgres for it)');
    return;
  }
  const tps = runs.reduce((sum, run) => sum + run, 0) / runs.length;
  const each = runs.length === 2 ? ` (${runs[0]!.toFixed(0)} before the stack, ${runs[1]!.toFixed(0)} after it)` : '';
  console.log(`  this machine's PostgreSQL: pgbench (TPC-B-like, -s 10, ${clients} clients, -j 2) ${tps.toFixed(0)} TPS${each}`);
  for (const [what, rate] of Object.entries(figures)) console.log(`    ${what} / pgbench TPS: ${(rate / tps).toFixed(4)}`);
}

/** The stack child's node options: with `cpuProfileDir` (a bench's --cpu-prof DIR), V8's CPU profile written there when it stops. */
export const stackExecArgv = (cpuProfileDir: string | undefined) =>
  cpuProfileDir ? [...process.execArgv, '--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : process.execArgv;

/**
 * CPU seconds (user and system) of a process from /proc, 0 when it is gone; with `reaped`, those of its children
 * that ended too (PostgreSQL's postmaster reaps its backends: a backend that ends during a phase keeps counting).
 */
function processCpuSeconds(pid: number | string, reaped = false): number {
  try {
    // Fields after the command's closing parenthesis: utime, stime, cutime and cstime are the 12th to 15th of them.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const children = reaped ? Number(fields[13]) + Number(fields[14]) : 0;
    return (Number(fields[11]) + Number(fields[12]) + children) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
const CLOCK_TICKS = 100;

/**
 * The seconds the hypervisor gave this machine's cores to others while they had work ("steal" in /proc/stat): the
 * machine stalled, every process of it at once. 0 where the kernel does not count it.
 */
function stolenSeconds(): number {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    return Number(cpu[8] ?? 0) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds so far of the stack's process, of every PostgreSQL process of this machine, and of this one (the
 * load), and the machine's stolen seconds.
 */
export function cpuSnapshot(stackPid: number | undefined): { stack: number; postgres: number; load: number; stolen: number } {
  let postgres = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') postgres += processCpuSeconds(pid, true);
    } catch {
      // The process ended meanwhile.
    }
  }
  const own = process.cpuUsage();
  return { stack: stackPid ? processCpuSeconds(stackPid) : 0, postgres, load: (own.user + own.system) / 1e6, stolen: stolenSeconds() };
}

/**
 * Where a phase's CPU went, per request: the stack (every app, one process), PostgreSQL (its backends, on this
 * machine only: nothing with PGlite, which runs inside the stack) and the load generator, since `before`.
 */
export function cpuPerRequest(before: ReturnType<typeof cpuSnapshot>, stackPid: number | undefined, requests: number): string {
  const after = cpuSnapshot(stackPid);
  const perRequest = (key: keyof typeof after) => ((after[key] - before[key]) * 1000) / Math.max(1, requests);
  const ms = (key: keyof typeof after) => perRequest(key).toFixed(2);
  const stolen = ((after.stolen - before.stolen) * 1000).toFixed(0);
  // What the machine's cores could serve at this CPU a request, were they busy with nothing else and never idle.
  const cores = availableParallelism();
  const total = perRequest('stack') + perRequest('postgres') + perRequest('load');
  const bound = total > 0 ? `; at that CPU its ${cores} cores serve at most ${Math.floor((cores * 1000) / total)} a second` : '';
  return `CPU a request: the stack ${ms('stack')} ms, PostgreSQL ${ms('postgres')} ms, the load generator ${ms('load')} ms; stolen from the machine ${stolen} ms in all${bound}`;
}

/**
 * An open-loop load: `send` started every 1000/`rate` ms for `seconds`, whatever the answers before it (shoppers
 * arrive on their own clock, not after the last one was answered), and each one's latency taken from when it was
 * due, so that a stall counts in every request it held up. autocannon's `overallRate` is not this: it sends each
 * connection's share of a second at the start of the second, all connections at once (a burst of `rate`
 * requests a second), and corrects for coordinated omission with a 1 ms interval, recording a synthetic sample
 * for every millisecond of a slow answer. Answers the latencies (ms, ascending) and how many answered otherwise
 * than `ok`, the seconds from the first send to the last answer, and how late each was sent (ms, ascending: this
 * process's own stalls, which count in the latencies too).
 */
export async function steadyLoad(
  rate: number,
  seconds: number,
  ok: number,
  send: (n: number) => Promise<number>,
): Promise<{ latencies: number[]; failed: number; seconds: number; late: number[] }> {
  const start = performance.now();
  const answered: Promise<{ status: number; ms: number }>[] = [];
  const late: number[] = [];
  for (let n = 0; n < Math.round(rate * seconds); n++) {
    const due = start + (n * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    late.push(performance.now() - due);
    answered.push(
      send(n).then(
        (status) => ({ status, ms: performance.now() - due }),
        () => ({ status: 0, ms: performance.now() - due }),
      ),
    );
  }
  const results = await Promise.all(answered);
  return {
    latencies: results.map((result) => result.ms).sort((a, b) => a - b),
    failed: results.filter((result) => result.status !== ok).length,
    seconds: (performance.now() - start) / 1000,
    late: late.sort((a, b) => a - b),
  };
}

/**
 * Times an fsync of 8 KB in this machine's temp folder every 50 ms, in a process of its own (a synchronous fsync
 * would stall the load): what a commit waits for when PostgreSQL's WAL shares the disk. `slowest()` answers the
 * slowest since the probe started, in ms.
 */
export function startDiskProbe(): { slowest(): number; stop(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-disk-probe-'));
  const script = `const fs = require('node:fs'); const fd = fs.openSync(process.argv[1], 'w'); const page = Buffer.alloc(8192, 1);
    setInterval(() => { const t = performance.now(); fs.writeSync(fd, page, 0, page.length, 0); fs.fsyncSync(fd); console.log(performance.now() - t); }, 50);`;
  const child = spawn(process.execPath, ['-e', script, join(dir, 'page')], { stdio: ['ignore', 'pipe', 'ignore'] });
  let slowest = 0;
  createInterface({ input: child.stdout }).on('line', (line) => (slowest = Math.max(slowest, Number(line))));
  return {
    slowest: () => slowest,
    stop() {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `work` at most `limit` at a time over `items`. */
export async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

type Running = { close(): Promise<void> };

/**
 * The local chain (no timed mining) and `apps` in order, each on its data in `dataDir` or on the database
 * `BENCH_<APP>_DB` names, every other service's address a closed port. `extra` adds an app's variables.
 * `env` gives a later process (the gateway) the same data dir and database rule; `stop` closes it all.
 */
export async function startServiceStack(
  apps: readonly ServiceName[],
  {
    dataDir,
    logLevel = 'warn',
    extra = () => ({}),
  }: { dataDir: string; logLevel?: string; extra?: (app: string) => Record<string, string> },
) {
  const env = (app: string, variables: Record<string, string>) => {
    const databaseUrl = process.env[`BENCH_${app.toUpperCase()}_DB`];
    return { CTK_DATA_DIR: dataDir, LOG_LEVEL: logLevel, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...variables };
  };
  // As start-all does: V8's optimising compiler waits for real use, not the start (decisions 0062 and 0069).
  const optimiseAsUsual = deferOptimisation();
  const chain = await startLocalChain({ dataDir, port: 0, mineIntervalMs: 0, logger: createLogger('local-chain', logLevel) });
  const chainEnv = { CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: chain.url };
  // As start-all's: each event kept until the consumers of the apps running here have handled it.
  const transport = inProcessTransport({ logger: createLogger('start-all', logLevel), durables: consumersOf(apps) });
  const addresses: Record<string, string> = Object.fromEntries(SERVICE_NAMES.map((name) => [grpcUrlVariable(name), '127.0.0.1:1']));
  const running: Running[] = [];
  for (const name of apps) {
    const { configSchema, service } = await import(`../apps/${name}/dist/app.js`);
    const config = loadConfig(configSchema, env(name, { GRPC_PORT: '0', ...chainEnv, ...addresses, ...extra(name) }));
    const app = await startService(service, config, { logger: createLogger(name, logLevel), transport });
    running.push(app);
    addresses[grpcUrlVariable(name)] = `127.0.0.1:${app.port}`;
  }
  optimiseAsUsual();
  return {
    chain,
    addresses,
    env,
    /** Closes what else was started on top (given), the apps in reverse order, the transport and the chain. */
    async stop(also: Running[] = []) {
      for (const app of [...also, ...running.reverse()]) await app.close().catch(() => undefined);
      await transport.close();
      await chain.close();
    },
  };
}

/** A TCP port free at the moment of asking. */
/**
 * The gateway over HTTP on a free port, in front of `stack`'s apps, on a thread of its own as `npm start` runs it
 * (decision 0059), with the per-address and signup limits (and `env`'s) lifted so that one benchmarking address is
 * not throttled; its base URL and the running app.
 */
export async function startGateway(stack: Awaited<ReturnType<typeof startServiceStack>>, env: Record<string, string> = {}) {
  const port = await freePort();
  const variables = stack.env('gateway', {
    PORT: String(port),
    HOST: 'localhost',
    ...stack.addresses,
    CTK_RATE_LIMIT_PER_MINUTE: '100000000',
    CTK_SIGNUP_RATE_LIMIT_PER_MINUTE: '100000000',
    ...env,
  });
  const module = new URL('../apps/gateway/dist/app.js', import.meta.url).href;
  const database = {
    service: 'gateway',
    databaseUrl: variables.DATABASE_URL,
    dataDir: variables.CTK_DATA_DIR,
    prismaDir: fileURLToPath(new URL('../apps/gateway/prisma', import.meta.url)),
  };
  const gateway: Running = await openServiceThread({ module, database }).start(variables);
  return { base: `http://localhost:${port}`, gateway };
}

/**
 * A cafe onboarded through the gateway at `base` in California (prices exclude tax), its wallet's xpub (a random
 * one) registered and `items` created: its handle, its owner's headers and the items as answered.
 */
export async function onboardCafe(base: string, name: string, items: object[]) {
  const onboarded = await expectOk(http('POST', `${base}/api/v1/onboard`, { name, jurisdiction: 'US-CA' }), 'onboard', 201);
  const owner = { authorization: `Bearer ${onboarded.api_key.key}` };
  const handle: string = onboarded.organization.handle;
  await expectOk(http('PATCH', `${base}/api/v1/organizations/${handle}`, { wallet_xpub: merchantKeys().xpub }, owner), 'the wallet');
  const created: HttpAnswer['json'][] = [];
  for (const item of items) created.push(await expectOk(http('POST', `${base}/api/v1/orgs/${handle}/items`, item, owner), 'an item', 201));
  return { handle, owner, items: created };
}

/** The JSON of an HTTP answer that must have `status` (200); throws naming `what` and the answer otherwise. */
export async function expectOk(answer: Promise<HttpAnswer>, what: string, status = 200): Promise<HttpAnswer['json']> {
  const { status: got, json, text } = await answer;
  if (got !== status) throw new Error(`${what}: HTTP ${got} ${text.slice(0, 300)}`);
  return json;
}
