// The fault bench: the distributed path (every app its own process, two of each, scripts/distributed/) on a
// PostgreSQL cluster and a NATS server of the run's own, paid on every money path of bench/faults/paths/ from
// HTTP, while processes are killed with SIGKILL at random moments, NATS is killed and started again and
// PostgreSQL crashes (an immediate shutdown) and recovers. At the end every payment the API accepted is looked up
// in its merchant's books: it prints `lost N, doubled N`, each trial balance that does not balance, the faults
// injected, the time taken and the redeliveries. Not a test: it prints figures (bench/README.md).
// Usage: pnpm bench:faults [--payments 1000] [--concurrency 12] [--paths a,b] [--replicas 2] [--fault-every 4-12]
//          [--no-faults] [--settle 300] [--keep] [--rate N --duration S [--max-in-flight 2000]] [--cpu-prof DIR]
//          (build first; runs as root or as a user who may run initdb; --cpu-prof: each process's V8 CPU profile in DIR)
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { distributedSystem } from '../scripts/distributed/system.mjs';
import { checkBooks } from './faults/books-check.js';
import type { Accepted, PaymentPath } from './faults/path.js';
import { outboxBacklog, outboxWaits } from './faults/outboxes.js';
import { startNats, startPostgres } from './faults/servers.js';
import { freePort, percentile } from './support.js';

const { values: args } = parseArgs({
  options: {
    payments: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '12' },
    paths: { type: 'string' },
    replicas: { type: 'string', default: '2' },
    'fault-every': { type: 'string', default: '4-12' },
    'no-faults': { type: 'boolean', default: false },
    settle: { type: 'string', default: '300' },
    keep: { type: 'boolean', default: false },
    rate: { type: 'string' },
    duration: { type: 'string' },
    'max-in-flight': { type: 'string', default: '2000' },
    'cpu-prof': { type: 'string' },
  },
});
const PAYMENTS = Number(args.payments);
const [faultMin, faultMax] = args['fault-every'].split('-').map(Number) as [number, number];
const sleep = (ms: number) => new Promise((later) => setTimeout(later, ms));
const elapsed = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const started = performance.now();
const log = (line: string) => console.log(`[${elapsed(started).padStart(8)}] ${line}`);

// The paths: every module of bench/faults/paths/, or those named.
const pathsDir = join(import.meta.dirname, 'faults/paths');
const available = readdirSync(pathsDir)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => basename(file, '.ts'));
const chosen = args.paths ? args.paths.split(',') : available;
for (const name of chosen) if (!available.includes(name)) throw new Error(`no path "${name}": one of ${available.join(', ')}`);
const paths: PaymentPath[] = [];
for (const name of chosen) paths.push(((await import(pathToFileURL(join(pathsDir, `${name}.ts`)).href)) as { path: PaymentPath }).path);

const DATABASE_PREFIX = 'ctk_faults';
const work = mkdtempSync(join(tmpdir(), 'ctk-bench-faults-'));
const postgres = await startPostgres(join(work, 'postgres'), await freePort()).catch((error: unknown) => {
  rmSync(work, { recursive: true, force: true });
  console.error(`The fault bench needs a PostgreSQL cluster of its own: ${(error as Error).message}`);
  process.exit(1);
});
const nats = await startNats(join(work, 'nats'), await freePort());
const port = await freePort();
const chainPort = await freePort();
const restarts: string[] = [];
const system = distributedSystem({
  port,
  dataDir: join(work, 'data'),
  postgresUrl: postgres.url,
  natsUrl: nats.url,
  databasePrefix: DATABASE_PREFIX,
  chainPort,
  logLevel: 'warn',
  nodeArgs: args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`] : [],
  replicas: Object.fromEntries(
    args.replicas
      .split(',')
      .map((part) => (part.includes('=') ? part.split('=') : ['default', part]))
      .map(([app, n]) => [app, Number(n)]),
  ),
  env: {
    ...process.env,
    // Prices low enough that faucet coins pay thousands of orders; a merchant's unpaid orders may hold many addresses.
    POS_FIXED_RATES: 'USD=100,EUR=100,GBP=100,AUD=100,CAD=100,JPY=10000',
    P2P_GAP_LIMIT: '1000',
    // Every customer of the bench calls from 127.0.0.1, where a platform's come from as many addresses as customers.
    ...Object.fromEntries(
      ['', 'SIGNUP_', 'PAYMAIL_DESTINATION_', 'CHECKOUT_', 'PAY_LINK_', 'CARD_LOOKUP_'].map((limit) => [
        `CTK_${limit}RATE_LIMIT_PER_MINUTE`,
        '100000000',
      ]),
    ),
    P2P_ANONYMOUS_HOLDS_PER_CLIENT: '1000',
    COMMERCE_TICKET_SEATS_PER_CLIENT: '1000',
  },
  say: (line: string) => {
    if (line.includes('restarting')) restarts.push(line);
    log(line);
  },
});

let exitCode = 0;
try {
  log(`starting the distributed path (replicas ${args.replicas}) on PostgreSQL ${postgres.url} and NATS ${nats.url}`);
  await system.start();
  const bench = { base: system.base, chainUrl: system.chainUrl };
  log(`serving at ${bench.base}: ${system.replicas().length} processes; setting up ${paths.map((path) => path.name).join(', ')}`);
  for (const path of paths) await path.setup(bench);

  // The faults: each kind once, in a random order, then any kind at random, every fault-every seconds.
  const apps = [...system.apps.keys()].filter((app) => app !== 'chain');
  const kinds = [...apps.map((app) => `kill ${app}`), 'restart nats', 'restart postgres'];
  const injected: string[] = [];
  let paying = true;
  const inject = async (kind: string) => {
    if (kind === 'restart nats') await nats.restart();
    else if (kind === 'restart postgres') await postgres.restart();
    else {
      const replicas = system.apps.get(kind.slice('kill '.length))!.replicas;
      const replica = replicas[Math.floor(Math.random() * replicas.length)]!;
      kind = `kill ${replica.name} (pid ${replica.pid})`;
      replica.kill('SIGKILL');
    }
    injected.push(kind);
    log(`fault: ${kind}`);
  };
  const faults = (async () => {
    if (args['no-faults']) return;
    const order = [...kinds].sort(() => Math.random() - 0.5);
    while (paying) {
      await sleep((faultMin + Math.random() * (faultMax - faultMin)) * 1000);
      if (!paying) break;
      await inject(order.shift() ?? kinds[Math.floor(Math.random() * kinds.length)]!).catch((error: unknown) =>
        log(`fault failed: ${String(error)}`),
      );
    }
  })();

  // The payments: round-robin over the paths, --concurrency at a time; with --rate, launched at that rate
  // whatever the answers (an open loop, as customers arrive), at most --max-in-flight unanswered.
  const accepted: Accepted[] = [];
  const refused = new Map<string, { count: number; first: string }>();
  const latencies = new Map<string, number[]>();
  let next = 0;
  const paymentsStarted = performance.now();
  const paymentsStartedAt = new Date();
  const deadline = args.duration ? paymentsStarted + Number(args.duration) * 1000 : Infinity;
  const more = () => next < PAYMENTS && performance.now() < deadline;
  const progress = setInterval(
    () => log(`${accepted.length} accepted, ${[...refused.values()].reduce((n, r) => n + r.count, 0)} refused, ${inFlight.size} in flight`),
    30_000,
  );
  const inFlight = new Set<Promise<void>>();
  // The outboxes' oldest unsent event, every 5 s while paying: how far the relays fall behind.
  let oldestUnsent = 0;
  const sampling = setInterval(() => {
    outboxBacklog(postgres.url, DATABASE_PREFIX).then(
      ({ oldestSeconds }) => (oldestUnsent = Math.max(oldestUnsent, oldestSeconds)),
      () => undefined, // PostgreSQL may be down for a fault
    );
  }, 5_000);
  const payOne = async () => {
    const n = next++;
    const path = paths[n % paths.length]!;
    const began = performance.now();
    await path.pay(bench, Math.floor(n / paths.length)).then(
      (payment) => {
        accepted.push(payment);
        latencies.set(path.name, [...(latencies.get(path.name) ?? []), performance.now() - began]);
      },
      (error: unknown) => {
        const entry = refused.get(path.name) ?? { count: 0, first: String(error).slice(0, 300) };
        entry.count++;
        refused.set(path.name, entry);
      },
    );
  };
  if (args.rate) {
    let skipped = 0;
    for (let launched = 0; more(); await sleep(5)) {
      const due = Math.floor(((performance.now() - paymentsStarted) / 1000) * Number(args.rate));
      for (; launched < due && more(); launched++) {
        if (inFlight.size >= Number(args['max-in-flight'])) {
          skipped++;
          continue;
        }
        const paying = payOne().finally(() => inFlight.delete(paying));
        inFlight.add(paying);
      }
    }
    await Promise.all(inFlight);
    if (skipped) log(`${skipped} payments not launched: ${args['max-in-flight']} were in flight already (the stack fell behind the rate)`);
  } else
    await Promise.all(
      Array.from({ length: Number(args.concurrency) }, async () => {
        while (more()) await payOne();
      }),
    );
  clearInterval(progress);
  clearInterval(sampling);
  paying = false;
  await faults;
  const payingTook = (performance.now() - paymentsStarted) / 1000;
  log(`payments done in ${payingTook.toFixed(1)} s: ${accepted.length} accepted; waiting for every outbox and consumer to drain`);

  // Settled: every outbox sent and both consumers with nothing pending.
  const settleUntil = performance.now() + Number(args.settle) * 1000;
  const nc = await connect({ servers: nats.url });
  const jsm = await jetstreamManager(nc);
  const consumers = async () =>
    Promise.all(
      ['books', 'commerce'].map((name) =>
        jsm.consumers.info('CTK_PAYMENTS', name).catch((error: unknown) => {
          throw new Error(`the ${name} consumer: ${String(error)}`);
        }),
      ),
    );
  const backlog = async () => {
    const { rows } = await outboxBacklog(postgres.url, DATABASE_PREFIX);
    const pending = (await consumers()).reduce((n, info) => n + info.num_pending + info.num_ack_pending, 0);
    return { rows, pending };
  };
  for (let state = await backlog(); state.rows + state.pending > 0; state = await backlog()) {
    if (performance.now() > settleUntil) {
      log(`not drained after ${args.settle} s: ${state.rows} outbox rows unsent, ${state.pending} events pending`);
      break;
    }
    await sleep(1_000);
  }
  const infos = await consumers();
  const waits = await outboxWaits(postgres.url, DATABASE_PREFIX, paymentsStartedAt);
  await nc.close();

  const verdict = await checkBooks(bench, accepted);
  const total = (performance.now() - started) / 1000;
  const pace = args.rate ? `offered at ${args.rate}/s` : `${args.concurrency} at a time`;
  console.log(
    `\n== ${args['no-faults'] ? 'load' : 'fault'} run: ${next} payments over ${paths.length} paths, ${pace}, replicas ${args.replicas}`,
  );
  console.log(
    `paying took ${payingTook.toFixed(1)} s (${(accepted.length / payingTook).toFixed(1)} accepted/s); the whole run ${total.toFixed(1)} s`,
  );
  console.log('path                  accepted  refused   p50 ms   p99 ms');
  for (const path of paths) {
    const times = (latencies.get(path.name) ?? []).sort((a, b) => a - b);
    console.log(
      `${path.name.padEnd(20)} ${String(times.length).padStart(9)} ${String(refused.get(path.name)?.count ?? 0).padStart(8)} ${percentile(times, 50).toFixed(0).padStart(8)} ${percentile(times, 99).toFixed(0).padStart(8)}`,
    );
  }
  for (const [name, { count, first }] of refused) console.log(`  ${name} refused ${count}, the first: ${first}`);
  const kindsSeen = new Map<string, number>();
  for (const fault of injected) {
    const kind = fault.startsWith('kill ') ? `kill ${fault.split(' ')[1]!.replace(/-\d+$/, '')}` : fault;
    kindsSeen.set(kind, (kindsSeen.get(kind) ?? 0) + 1);
  }
  console.log(`faults injected: ${injected.length} (${[...kindsSeen].map(([kind, n]) => `${kind} ${n}`).join(', ')})`);
  const missing = kinds.filter((kind) => !kindsSeen.has(kind));
  if (missing.length && !args['no-faults'])
    console.log(`  not injected (the run was shorter than a round of faults): ${missing.join(', ')}`);
  console.log(`restarts of killed processes: ${restarts.length}`);
  console.log(`outbox: the oldest unsent event while paying was ${oldestUnsent.toFixed(1)} s old (sampled every 5 s); commit to NATS ack:`);
  for (const { app, row } of waits.filter(({ row }) => row.events > 0))
    console.log(
      `  ${app.padEnd(10)} ${String(row.events).padStart(7)} events, p50 ${row.p50!.toFixed(0)} ms, p99 ${row.p99!.toFixed(0)} ms, max ${row.max!.toFixed(0)} ms`,
    );
  // Each delivery takes a consumer sequence number, each event one stream sequence number: a consumer that got
  // every event of the stream was delivered the difference again.
  console.log(
    `redeliveries: ${infos
      .map(
        (info) =>
          `${info.name} ${info.delivered.consumer_seq - info.delivered.stream_seq} (${info.delivered.stream_seq} events delivered ${info.delivered.consumer_seq} times)`,
      )
      .join(', ')}`,
  );
  const unbalanced = verdict.trialBalances.filter((row) => row.debit !== row.credit);
  console.log(`trial balances: ${verdict.trialBalances.length} (organisation, currency), ${unbalanced.length} unbalanced`);
  for (const row of unbalanced) console.log(`  ${row.org} ${row.currency}: debit ${row.debit}, credit ${row.credit}`);
  console.log(
    `entries no accepted payment accounts for: ${verdict.unclaimed} (payments taken whose answer was lost to a fault, and setup's)`,
  );
  console.log(`lost ${verdict.lost.length}, doubled ${verdict.doubled.length}`);
  for (const payment of [...verdict.lost, ...verdict.doubled].slice(0, 10)) console.log(`  ${JSON.stringify(payment)}`);
  if (verdict.lost.length || verdict.doubled.length || unbalanced.length) exitCode = 1;
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  await system.close().catch(() => undefined);
  await nats.stop().catch(() => undefined);
  await postgres.stop().catch(() => undefined);
  if (args.keep) console.log(`kept: ${work} (logs in data/logs, NATS's in nats/, PostgreSQL's in postgres/)`);
  else rmSync(work, { recursive: true, force: true });
}
process.exit(exitCode);
