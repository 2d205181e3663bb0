// The payment gate's middleware on the path that matters for throughput (@ctk/paygate, decision 0021): a request
// carrying a valid credential, checked locally (signature once, then a cache lookup, exp, revocations,
// method and path) with no network hop. At --connections (50) for --seconds (8) a scenario, --rounds (5)
// rounds (medians), autocannon measures (1) a bare fastify JSON route and (2) the same route behind the
// fastify plugin, every request carrying the same window-grant credential; it prints req/s, p50 and p99 of
// each and the difference (the median of each round's, paired). Then, in this process, the core's check alone: the same credential again and
// again (the cache), and fresh credentials (an Ed25519 verification each).
// What runs where (2 cores): the fake gate of @ctk/paygate/testing (it publishes the key; the path measured
// never reaches it, which the run checks) and autocannon here; both fastify apps in one child process.
// Usage: pnpm bench:paygate [--seconds N] [--rounds N] [--connections N]   (build first: pnpm build)
import { fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import { createPaygate, paygateFastify } from '@ctk/paygate/server';
import { startFakeGate } from '@ctk/paygate/testing';
import autocannon from 'autocannon';
import Fastify from 'fastify';

const ANSWER = { ok: true, items: [{ id: 1, name: 'Flat white', price_cents: 450 }] };

/** The child: a bare app and a gated app with the same route; answers their URLs once listening. */
async function runApps(): Promise<void> {
  const bare = Fastify();
  bare.get('/bench', async () => ANSWER);
  const gated = Fastify();
  await gated.register(paygateFastify, {
    gateUrl: process.env.BENCH_GATE_URL as string,
    key: process.env.BENCH_GATE_KEY as string,
    account: process.env.BENCH_GATE_ACCOUNT as string,
  });
  gated.get('/bench', { paygate: true }, async () => ANSWER);
  const urls = [await bare.listen({ port: 0, host: '127.0.0.1' }), await gated.listen({ port: 0, host: '127.0.0.1' })];
  process.once('disconnect', () => process.exit(0));
  // CPU time used so far, asked before and after each scenario: the CPU a request costs is steadier than
  // req/s on a machine others use too.
  process.on('message', () => {
    const { user, system } = process.cpuUsage();
    process.send?.({ cpu: user + system });
  });
  process.send?.(urls.map((base) => `${base}/bench`));
}

type Figures = { rps: number; p50: number; p99: number; cpuUs: number };

async function runBench(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      seconds: { type: 'string', default: '8' },
      rounds: { type: 'string', default: '5' },
      connections: { type: 'string', default: '50' },
    },
  });
  const [seconds, rounds, connections] = [Number(args.seconds), Number(args.rounds), Number(args.connections)];
  const gate = await startFakeGate({
    resources: [{ method: 'GET', path: '/bench', price_satoshis: 1, grant: { kind: 'window', seconds: 3600 } }],
  });
  const credential = gate.issue(gate.resources[0]!);
  const apps = fork(import.meta.filename, [], {
    env: { ...process.env, BENCH_ROLE: 'apps', BENCH_GATE_URL: gate.url, BENCH_GATE_KEY: gate.key, BENCH_GATE_ACCOUNT: gate.account },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const [bareUrl, gatedUrl] = await new Promise<string[]>((ready, fail) => {
      apps.once('message', (message) => ready(message as string[]));
      apps.once('exit', (code) => fail(new Error(`the apps exited with ${code}`)));
    });
    const headers = { 'x-ctk-credential': credential };
    const cpu = () =>
      new Promise<number>((resolve) => {
        apps.once('message', (message) => resolve((message as { cpu: number }).cpu));
        apps.send('cpu');
      });
    const load = async (url: string, duration: number): Promise<Figures> => {
      const before = await cpu();
      const result = await autocannon({ url: url as string, connections, duration, headers });
      const cpuUs = ((await cpu()) - before) / result.requests.total;
      const failed = result.errors + result.timeouts + result.non2xx;
      if (failed > 0) {
        console.error(`  ! ${failed} requests to ${url} failed or did not answer 2xx`);
        process.exitCode = 1;
      }
      return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpuUs };
    };
    console.log(`Paygate middleware benchmark: ${connections} connections, ${seconds} s a scenario, ${rounds} rounds (medians)`);
    for (const url of [bareUrl, gatedUrl]) await load(url as string, 2); // warm-up
    const runs: Figures[][] = [[], []];
    for (let round = 1; round <= rounds; round++) {
      runs[0]!.push(await load(bareUrl as string, seconds));
      runs[1]!.push(await load(gatedUrl as string, seconds));
      console.log(`  round ${round}: ${runs.map((r) => Math.round(r.at(-1)!.rps)).join(' / ')} req/s`);
    }
    const [bare, gated] = runs.map((r) => ({
      rps: median(r.map((f) => f.rps)),
      p50: median(r.map((f) => f.p50)),
      p99: median(r.map((f) => f.p99)),
      cpuUs: median(r.map((f) => f.cpuUs)),
    })) as [Figures, Figures];
    console.log(`(1) bare fastify route               ${format(bare)}`);
    console.log(`(2) same route, paygate + credential ${format(gated)}`);
    // Paired by round (each round runs (1) then (2)): on a shared machine the load moves between rounds.
    const paired = (pick: (f: Figures) => number) => median(runs[0]!.map((b, i) => pick(runs[1]![i]!) - pick(b)));
    console.log(
      `(2)-(1), the median of each round's difference: ${Math.round(paired((f) => f.rps))} req/s ` +
        `(${(median(runs[0]!.map((b, i) => runs[1]![i]!.rps / b.rps - 1)) * 100).toFixed(1)}%), ` +
        `p50 ${paired((f) => f.p50).toFixed(2)} ms, p99 ${paired((f) => f.p99).toFixed(2)} ms, ` +
        `server CPU ${paired((f) => f.cpuUs).toFixed(1)} us a request added ` +
        `(goal: at least 10,000 checks/s and under 2 ms at p99)`,
    );
    console.log(`gate checks during the run: ${gate.requests.check} (the credential path never reaches the gate)`);
    if (gate.requests.check > 0) process.exitCode = 1;
    await coreAlone(gate);
  } finally {
    apps.kill();
    await gate.close();
  }
}

/** The core's check in this process, no HTTP: the same credential (a cache hit), then fresh ones (a verification each). */
async function coreAlone(gate: Awaited<ReturnType<typeof startFakeGate>>): Promise<void> {
  const core = createPaygate({ gateUrl: gate.url, key: gate.key, account: gate.account });
  await core.ready();
  const resource = gate.resources[0]!;
  const request = (token: string) => ({ method: 'GET', url: '/bench?city=paris', headers: { 'x-ctk-credential': token } });
  const same = request(gate.issue(resource));
  const hits = 1_000_000;
  let started = process.hrtime.bigint();
  for (let i = 0; i < hits; i++) if (!(core.check(same) as { pass: boolean }).pass) throw new Error('a valid credential was refused');
  const hitNs = Number(process.hrtime.bigint() - started) / hits;
  const fresh = Array.from({ length: 20_000 }, () => request(gate.issue(resource)));
  started = process.hrtime.bigint();
  for (const each of fresh) if (!(core.check(each) as { pass: boolean }).pass) throw new Error('a valid credential was refused');
  const missNs = Number(process.hrtime.bigint() - started) / fresh.length;
  core.close();
  console.log(
    `core check alone: ${Math.round(1e9 / hitNs).toLocaleString('en')} checks/s with a cached credential (${(hitNs / 1000).toFixed(2)} us), ` +
      `${Math.round(1e9 / missNs).toLocaleString('en')} checks/s with a new one each time (${(missNs / 1000).toFixed(1)} us, Ed25519 verify)`,
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const format = (r: Figures) =>
  `${Math.round(r.rps).toString().padStart(7)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   ` +
  `server CPU ${r.cpuUs.toFixed(1)} us a request`;

if (process.env.BENCH_ROLE === 'apps') await runApps();
else await runBench();
