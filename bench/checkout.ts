// Online checkouts through the gateway (decision 0018), as shoppers' browsers make them with the merchants'
// commerce keys, spread over --merchants (20) cafes as a platform's are: (1) checkout creations arriving at a
// steady --rate (100) a second, each on its own clock (an open loop: steadyLoad in support.ts), for the latency at
// a load the stack should carry, after --warm-up (2) seconds of it reported apart, then (2) as fast as --connections (50)
// get answers (POST /api/v1/commerce/:merchant/checkout: the key and the catalog checked, pos pricing the order
// with books' tax rate and a receiving output from p2p, commerce recording the checkout), and (3) status polls
// a second (GET .../checkout/:public_token/status: commerce reading its checkout, decision 0055) at --connections, spread
// over the checkouts opened, as many shoppers waiting on a payment do; each phase for --seconds (10). After
// each, the CPU a request cost; with --postgres, the figures over pgbench's transactions a second.
// What runs where (2 cores): a child process runs the local chain (no timed mining), books, p2p, pos and
// commerce on one in-process event transport and the gateway over HTTP, each on a fresh PGlite data dir
// (--postgres URL: fresh PostgreSQL databases). This process is the shoppers (fetch, then autocannon), as a proxy in front
// of the gateway would pass them on: each checkout from an address of its own (X-Forwarded-For, from the
// benchmarking block 198.18.0.0/15, the bench trusted as the proxy), so that each holds one receiving address
// as a real shopper does; the gateway's per-key and checkout limits are lifted for the run.
// Usage: pnpm bench:checkout [--seconds N] [--connections N] [--rate N] [--warm-up S] [--merchants N] [--postgres URL] [--cpu-prof DIR]   (build first)
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { http } from '../apps/gateway/test/wallet-http.js';
import {
  cpuPerRequest,
  cpuSnapshot,
  expectOk,
  freshDatabase,
  onboardCafe,
  percentile,
  pgbenchReference,
  printRatios,
  stackExecArgv,
  startGateway,
  startServiceStack,
  startDiskProbe,
  steadyLoad,
} from './support.js';

/** The child: the local chain, books, p2p, pos, commerce and the gateway; answers {base} when listening. */
async function runStack(): Promise<void> {
  // Each checkout holds one of the merchant's receiving addresses until it is paid or its hold ends (decision
  // 0022), at most P2P_GAP_LIMIT at once (20 by default, a restored BIP44 wallet's gap limit): the bench's
  // merchants take the widest window p2p allows, or the run would measure that refusal.
  const stack = await startServiceStack(['books', 'p2p', 'pos', 'commerce'], {
    dataDir: process.env.BENCH_DATA_DIR ?? '',
    extra: (app): Record<string, string> => (app === 'p2p' ? { P2P_GAP_LIMIT: '1000' } : {}),
  });
  const { base, gateway } = await startGateway(stack, {
    CTK_COMMERCE_KEY_RATE_LIMIT_PER_MINUTE: '100000000',
    CTK_CHECKOUT_RATE_LIMIT_PER_MINUTE: '100000000',
    CTK_TRUSTED_PROXIES: '127.0.0.1',
  });
  const stop = async () => {
    await stack.stop([gateway]);
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  process.send?.({ base });
}

/** One autocannon line: requests a second, latency, and what did not answer `ok`. */
function report(what: string, result: autocannon.Result, ok: number): void {
  const other = result.requests.total - ((result as unknown as Record<string, number>)[`${Math.floor(ok / 100)}xx`] ?? 0);
  console.log(
    `  ${what}: ${result.requests.average.toFixed(0)}/s (${result.requests.total} in all), ` +
      `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, not ${ok}: ${other}`,
  );
  if (other > 0 || result.requests.total === 0) process.exitCode = 1;
}

/** A steady load's lines: requests a second, latency from when each was due, what did not answer 201, how late each was sent. */
function reportSteady(what: string, result: Awaited<ReturnType<typeof steadyLoad>>): void {
  const { latencies, failed, seconds } = result;
  const ms = (value: number) => value.toFixed(0);
  console.log(
    `  ${what}: ${(latencies.length / seconds).toFixed(0)}/s (${latencies.length} in all), p50 ${ms(percentile(latencies, 50))} ms, ` +
      `p99 ${ms(percentile(latencies, 99))} ms, max ${ms(latencies.at(-1) ?? NaN)} ms, not 201: ${failed}`,
  );
  // The load's own stalls: a request sent late was held up here, not by the stack.
  console.log(`    sent late: p99 ${ms(percentile(result.late, 99))} ms, max ${ms(result.late.at(-1) ?? NaN)} ms`);
  if (failed > 0 || latencies.length === 0) process.exitCode = 1;
}

/** A merchant of the bench: its handle, its commerce key and the body of its checkout (two of its items). */
type Merchant = { handle: string; key: string; body: string };

/** A cafe with two items and a commerce key. */
async function onboardMerchant(base: string, n: number): Promise<Merchant> {
  const { handle, owner, items } = await onboardCafe(base, `Checkout Bench Cafe ${n}`, [
    { name: 'Oat milk latte', price_cents: 575, currency: 'USD' },
    { name: 'Scone', price_cents: 350, currency: 'USD' },
  ]);
  const key = await expectOk(http('POST', `${base}/api/v1/orgs/${handle}/commerce-key`, {}, owner), 'the commerce key', 201);
  const body = JSON.stringify({
    lines: [
      { item_id: items[0].id, quantity: 2 },
      { item_id: items[1].id, quantity: 1 },
    ],
  });
  return { handle, key: key.commerce_public_key as string, body };
}

async function runBench(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      seconds: { type: 'string', default: '10' },
      connections: { type: 'string', default: '50' },
      rate: { type: 'string', default: '100' },
      'warm-up': { type: 'string', default: '2' },
      merchants: { type: 'string', default: '20' },
      postgres: { type: 'string' },
      'cpu-prof': { type: 'string' },
    },
  });
  const CONNECTIONS = Number(args.connections);
  const SECONDS = Number(args.seconds);
  // pgbench first, with nothing else running, on the server the stack's databases will use (and again once the stack stopped).
  const pgbench = args.postgres ? await pgbenchReference(args.postgres, 'ctk_bench_checkout_pgbench', 16) : undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'ctk-bench-checkout-'));
  const databases: Record<string, string> = {};
  if (args.postgres)
    for (const app of ['gateway', 'books', 'p2p', 'pos', 'commerce'])
      databases[`BENCH_${app.toUpperCase()}_DB`] = await freshDatabase(args.postgres, `ctk_bench_checkout_${app}`);
  const stack = fork(import.meta.filename, [], {
    execArgv: stackExecArgv(args['cpu-prof']),
    env: { ...process.env, BENCH_ROLE: 'stack', BENCH_DATA_DIR: dataDir, ...databases },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // The figures the ratios are printed for, once the stack has stopped and pgbench has run again.
  let figures: Record<string, number> | undefined;
  try {
    const { base } = await new Promise<{ base: string }>((ready, fail) => {
      stack.once('message', (message) => ready(message as { base: string }));
      stack.once('exit', (code) => fail(new Error(`the stack exited with ${code}`)));
    });

    // The merchants of a platform: one merchant holds at most P2P_GAP_LIMIT unpaid checkouts (docs/performance.md).
    const merchants: Merchant[] = [];
    for (let n = 0; n < Number(args.merchants); n++) merchants.push(await onboardMerchant(base, n));

    const store = args.postgres ? 'PostgreSQL' : 'PGlite';
    console.log(`Checkouts through the gateway over ${merchants.length} merchants, ${SECONDS} s a phase (${store})`);
    const tokens: { merchant: Merchant; token: string }[] = [];
    let shopper = 0;
    // autocannon's context is per connection, which has one request out at a time: the merchant of the
    // checkout in flight, for its answer's token.
    type Context = { merchant?: Merchant };
    const creating = (options: Partial<autocannon.Options>) =>
      autocannon({
        url: base,
        method: 'POST',
        duration: SECONDS,
        headers: { 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (request, context: Context) => {
              const n = shopper++;
              const merchant = (context.merchant = merchants[n % merchants.length]!);
              const headers = { ...request.headers, 'x-commerce-key': merchant.key, 'x-forwarded-for': shopperAddress(n) };
              return { ...request, path: `/api/v1/commerce/${merchant.handle}/checkout`, headers, body: merchant.body };
            },
            onResponse: (status: number, answer: string, context: Context) => {
              if (status === 201)
                tokens.push({ merchant: context.merchant!, token: (JSON.parse(answer) as { public_token: string }).public_token });
            },
          },
        ],
        ...options,
      });

    // (1) Shoppers arriving at a steady --rate, each on its own: after --warm-up seconds at that rate reported
    // apart (the stack's first requests compile its code and open its pools).
    const arriving = async (): Promise<number> => {
      const n = shopper++;
      const merchant = merchants[n % merchants.length]!;
      const answer = await fetch(`${base}/api/v1/commerce/${merchant.handle}/checkout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-commerce-key': merchant.key, 'x-forwarded-for': shopperAddress(n) },
        body: merchant.body,
      });
      const text = await answer.text();
      if (answer.status === 201) tokens.push({ merchant, token: (JSON.parse(text) as { public_token: string }).public_token });
      return answer.status;
    };
    const RATE = Number(args.rate);
    const warmUp = await steadyLoad(RATE, Number(args['warm-up']), 201, arriving);
    reportSteady(`POST .../checkout at ${RATE}/s offered, warm-up`, warmUp);
    let cpu = cpuSnapshot(stack.pid);
    const disk = startDiskProbe();
    const offered = await steadyLoad(RATE, SECONDS, 201, arriving).finally(() => disk.stop());
    reportSteady(`POST .../checkout at ${RATE}/s offered`, offered);
    // A commit waits for the WAL's fsync: a disk that stalls holds every checkout up as long.
    console.log(`    the disk's slowest fsync of 8 KB meanwhile (the temp folder's): ${disk.slowest().toFixed(0)} ms`);
    console.log(`    ${cpuPerRequest(cpu, stack.pid, offered.latencies.length)}`);
    cpu = cpuSnapshot(stack.pid);
    const created = await creating({ connections: CONNECTIONS });
    report(`POST .../checkout at ${CONNECTIONS} connections`, created, 201);
    console.log(`    ${cpuPerRequest(cpu, stack.pid, created.requests.total)}`);
    if (tokens.length === 0) throw new Error('no checkout was opened');

    let next = 0;
    cpu = cpuSnapshot(stack.pid);
    const polled = await autocannon({
      url: base,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [
        {
          setupRequest: (request) => {
            const { merchant, token } = tokens[next++ % tokens.length]!;
            const path = `/api/v1/commerce/${merchant.handle}/checkout/${token}/status`;
            return { ...request, path, headers: { ...request.headers, 'x-commerce-key': merchant.key } };
          },
        },
      ],
    });
    report(`GET .../checkout/:public_token/status over ${tokens.length} checkouts`, polled, 200);
    console.log(`    ${cpuPerRequest(cpu, stack.pid, polled.requests.total)}`);
    figures = { 'checkouts/s': created.requests.average, 'status reads/s': polled.requests.average };
  } finally {
    stack.kill('SIGTERM');
    await new Promise((r) => (stack.exitCode === null ? stack.once('exit', r) : r(undefined)));
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (figures)
    printRatios(
      pgbench === undefined ? undefined : [pgbench, await pgbenchReference(args.postgres!, 'ctk_bench_checkout_pgbench', 16)],
      16,
      figures,
    );
}

/** The n-th shopper's address, in the benchmarking block 198.18.0.0/15 (131,072 of them, then again). */
function shopperAddress(n: number): string {
  const host = n % 131_072;
  return `198.${18 + (host >> 16)}.${(host >> 8) & 255}.${host & 255}`;
}

if (process.env.BENCH_ROLE === 'stack') await runStack();
else await runBench();
