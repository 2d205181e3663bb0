// Books throughput: how many journal entries per second the books consumer posts, sustained, from a
// backlog of payment events in NATS JetStream into PostgreSQL (the production shape).
// A stream of the bench's own is filled first; then books starts and drains it; entries/s is measured
// from the first entry to the last. Usage: pnpm bench:books [--events N] [--postgres URL]  (build first)
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { PaymentEvent, PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import { configSchema, service } from '@ctk/books';
import { createLogger, loadConfig, startService } from '@ctk/shared';
import { connectNatsTransport } from '@ctk/shared/nats';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '20000' },
    postgres: { type: 'string', default: 'postgresql://postgres@127.0.0.1:5432/postgres' },
    nats: { type: 'string', default: 'nats://127.0.0.1:4222' },
  },
});
const N = Number(args.events);
const token = randomUUID().slice(0, 8);
const stream = { name: `CTK_BENCH_${token}`, subjects: [`ctk.bench.${token}.>`] };
const logger = createLogger('bench', 'warn');

const admin = new pg.Client({ connectionString: args.postgres });
await admin.connect();
await admin.query('DROP DATABASE IF EXISTS ctk_bench_books WITH (FORCE)');
await admin.query('CREATE DATABASE ctk_bench_books');
await admin.end();
const databaseUrl = Object.assign(new URL(args.postgres), { pathname: '/ctk_bench_books' }).toString();

const transport = await connectNatsTransport({ url: args.nats, logger, stream });
const organizations = Array.from({ length: 20 }, () => randomUUID());
console.log(`Books throughput: ${N} payment events in JetStream, books consuming into PostgreSQL`);
let started = Date.now();
for (let i = 0; i < N; i += 500) {
  await Promise.all(
    Array.from({ length: Math.min(500, N - i) }, (_, j) => {
      const event = PaymentEvent.fromPartial({
        id: randomUUID(),
        type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED,
        organizationId: organizations[(i + j) % organizations.length],
        sourceService: 'bench',
        sourceId: String(i + j),
        currency: 'USD',
        amountMinor: 1085n,
        taxMinor: 85n,
        satoshis: 21_700n,
        exchangeRate: '20',
        settlement: Settlement.SETTLEMENT_BSV_WALLET,
        occurredAt: new Date(),
      });
      return transport.publish({ id: event.id, subject: `ctk.bench.${token}.payment.received`, data: PaymentEvent.encode(event).finish() });
    }),
  );
}
console.log(`  published in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const books = await startService(service, loadConfig(configSchema, { GRPC_PORT: '0', LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl }), {
  logger,
  transport,
});
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
const count = async () => Number((await db.query('SELECT count(*) AS n FROM journal_entries')).rows[0].n);
let first = 0;
started = Date.now();
for (let n = 0; n < N; n = await count()) {
  if (!first && n > 0) first = Date.now();
  if (Date.now() - started > 600_000) throw new Error(`only ${n} of ${N} entries after 10 minutes`);
  await new Promise((r) => setTimeout(r, 100));
}
const seconds = (Date.now() - (first || started)) / 1000;
console.log(`  ${N} entries posted in ${seconds.toFixed(1)} s: ${Math.round(N / seconds)} entries/s sustained (target >= 2000)`);

await db.end();
await books.close();
await transport.close();
const nc = await connect({ servers: args.nats });
await (await jetstreamManager(nc)).streams.delete(stream.name);
await nc.close();
