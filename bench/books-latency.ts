// Commit-to-ledger latency: how long after a payment commits its journal entry is readable through the
// gateway's ledger endpoint, at a steady rate (200 payments/s by default), in the production shape:
// an emitting service commits each payment with its event in one transaction (the transactional outbox
// of packages/shared, through the books test emitter: an outbox of its own, since no service sells yet),
// the real relay publishes to NATS JetStream, books (its own process) consumes and posts to PostgreSQL,
// and the gateway (its own process) serves GET /api/v1/orgs/:handle/ledger from books over gRPC.
// A reader polls the ledger every 10 ms from the oldest payment not yet seen, so a latency includes up
// to one poll interval of sampling. Prints p50, p99 and max.
// Usage: pnpm bench:latency [--rate N] [--seconds N] [--postgres URL] [--nats URL]   (build first)
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PaymentEvent, PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import { createLogger, encodeCursor } from '@ctk/shared';
import { connectNatsTransport } from '@ctk/shared/nats';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { openEmitter } from '../apps/books/test/fixtures/emitter.js';
import { percentile } from './support.js';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '30' },
    postgres: { type: 'string', default: 'postgresql://postgres@127.0.0.1:5432/postgres' },
    nats: { type: 'string', default: 'nats://127.0.0.1:4222' },
  },
});
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const POLL_MS = 10;
const WARM_UP_SECONDS = 2;
const root = resolve(import.meta.dirname, '..');
const token = randomUUID().slice(0, 8);
const subjectPrefix = `ctk.bench.${token}.`;
const stream = { name: `CTK_BENCH_${token}`, subjects: [`${subjectPrefix}>`] };
const children: ChildProcess[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freshDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: args.postgres });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  return Object.assign(new URL(args.postgres), { pathname: `/${name}` }).toString();
}

function start(file: string, env: Record<string, string>): Promise<{ port?: number }> {
  const child = fork(file, [], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  children.push(child);
  return new Promise((ready, fail) => {
    child.once('message', (message) => ready(message as { port?: number }));
    child.once('exit', (code) => fail(new Error(`${file} exited with ${code}`)));
  });
}

async function waitForHttp(url: string): Promise<void> {
  for (let i = 0; i < 240; i++, await sleep(250)) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
  }
  throw new Error(`${url} did not come up`);
}

process.env.CTK_TEST_POSTGRES_URL = args.postgres; // the emitter's database
const logger = createLogger('bench', 'warn');
let emitter: Awaited<ReturnType<typeof openEmitter>> | undefined;
try {
  // Books first, so the stream exists with its consumer before anything is published.
  const books = await start(join(root, 'bench/servers/books.mjs'), {
    GRPC_PORT: '0',
    DATABASE_URL: await freshDatabase('ctk_bench_latency_books'),
    BENCH_NATS_URL: args.nats,
    BENCH_STREAM: stream.name,
    BENCH_SUBJECTS: stream.subjects[0] ?? '',
  });
  const port = 18090;
  const gatewayChild = fork(join(root, 'apps/gateway/dist/server.js'), [], {
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      PORT: String(port),
      BOOKS_GRPC_URL: `127.0.0.1:${books.port}`,
      CTK_RATE_LIMIT_PER_MINUTE: '100000000',
      DATABASE_URL: await freshDatabase('ctk_bench_latency_gateway'),
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  children.push(gatewayChild);
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/healthz`);
  const onboarded = await (
    await fetch(`${base}/api/v1/onboard`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Latency Cafe' }),
    })
  ).json();
  const headers = { authorization: `Bearer ${onboarded.api_key.key}` };
  const ledgerUrl = `${base}/api/v1/orgs/${onboarded.organization.handle}/ledger`;
  const organizationId: string = onboarded.organization.id;

  emitter = await openEmitter({ subjectPrefix });
  const transport = await connectNatsTransport({ url: args.nats, logger, stream });
  const relay = emitter.startRelay(transport);

  const committed = new Map<string, { occurredAt: Date; committedAt: number; warmUp: boolean }>();
  const latencies: number[] = [];
  const warmUpLatencies: number[] = [];
  let emitted = 0;
  let emitting = true;

  // The reader: from just before the oldest committed payment not yet seen, page through the ledger.
  const reader = (async () => {
    const today = new Date().toISOString().slice(0, 10);
    while (emitting || committed.size > 0) {
      const oldest = [...committed.values()].reduce<Date | undefined>(
        (min, p) => (!min || p.occurredAt < min ? p.occurredAt : min),
        undefined,
      );
      if (oldest) {
        let cursor = encodeCursor({ at: new Date(oldest.getTime() - 1), id: '00000000-0000-0000-0000-000000000000' });
        while (cursor) {
          const page = await (await fetch(`${ledgerUrl}?from=${today}&limit=100&cursor=${cursor}`, { headers })).json();
          const seenAt = performance.now();
          for (const entry of page.data) {
            const payment = committed.get(entry.event_id);
            if (payment) {
              (payment.warmUp ? warmUpLatencies : latencies).push(seenAt - payment.committedAt);
              committed.delete(entry.event_id);
            }
          }
          cursor = page.next_cursor;
        }
      }
      await sleep(POLL_MS);
    }
  })();

  console.log(
    `Commit-to-ledger latency: ${RATE} payments/s for ${SECONDS} s after ${WARM_UP_SECONDS} s of warm-up, PostgreSQL, NATS JetStream, books and gateway in their own processes`,
  );
  const started = performance.now();
  const sales: Promise<void>[] = [];
  while (performance.now() - started < (WARM_UP_SECONDS + SECONDS) * 1000) {
    const due = Math.floor(((performance.now() - started) / 1000) * RATE);
    for (; emitted < due; emitted++) {
      const event = PaymentEvent.fromPartial({
        id: randomUUID(),
        type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED,
        organizationId,
        sourceService: 'bench',
        sourceId: randomUUID(),
        currency: 'USD',
        amountMinor: 1085n,
        taxMinor: 85n,
        satoshis: 21_700n,
        exchangeRate: '20',
        settlement: Settlement.SETTLEMENT_BSV_WALLET,
        occurredAt: new Date(),
      });
      const warmUp = performance.now() - started < WARM_UP_SECONDS * 1000;
      sales.push(
        emitter.sell(event).then(() => {
          committed.set(event.id, { occurredAt: event.occurredAt ?? new Date(), committedAt: performance.now(), warmUp });
          relay.notify();
        }),
      );
    }
    await sleep(5);
  }
  await Promise.all(sales);
  const rate = emitted / ((performance.now() - started) / 1000);
  emitting = false;
  const deadline = performance.now() + 60_000;
  while (committed.size > 0 && performance.now() < deadline) await sleep(50);
  await Promise.race([reader, sleep(1000)]);
  const sorted = latencies.sort((a, b) => a - b);
  console.log(
    `  ${emitted} payments committed at ${rate.toFixed(0)}/s; ${sorted.length + warmUpLatencies.length} read back through the ledger${committed.size ? `, ${committed.size} NOT within 60 s` : ''}`,
  );
  console.log(`  warm-up (${warmUpLatencies.length} payments, not counted): max ${Math.max(...warmUpLatencies).toFixed(0)} ms`);
  console.log(
    `  commit -> ledger: p50 ${percentile(sorted, 50).toFixed(0)} ms   p99 ${percentile(sorted, 99).toFixed(0)} ms   max ${(sorted.at(-1) ?? NaN).toFixed(0)} ms (target p99 < 250 ms)`,
  );
  await relay.stop();
  await transport.close();
} finally {
  for (const child of children) child.kill('SIGTERM');
  await emitter?.close();
  const nc = await connect({ servers: args.nats });
  await (await jetstreamManager(nc)).streams.delete(stream.name).catch(() => undefined);
  await nc.close();
}
