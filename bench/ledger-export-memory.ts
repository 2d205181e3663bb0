// Ledger export memory: what a 50,000-entry export costs the gateway and books in memory and time, now
// that books writes the file and streams it (docs/decisions/0014-streamed-ledger-exports.md).
// What runs where: books and the gateway each in a child process of its own (this file, forked with
// BENCH_ROLE=books or gateway, each on the apps' built dist/ and a fresh PGlite data dir, or with
// --postgres fresh PostgreSQL databases). This process onboards a merchant through the gateway, then
// seeds books' journal before books starts: --entries payment events (50,000 by default, the export
// cap) posted through books' own posting use case (domain/post-payment-event.ts, which the event
// consumer calls) on its database, many at once, so its group commit writes them in batches of 200
// (about 40x faster than delivering them one by one on a transport, which takes minutes). Each sale has
// three lines (150,000 CSV rows). Then it starts books, lets both processes settle (one empty export to
// load the code paths), takes each one's idle RSS, and downloads GET /api/v1/orgs/:handle/ledger?format=csv
// over HTTP while reading /proc/<pid>/status (VmRSS) of both every 20 ms. It prints each process's peak
// RSS over its idle baseline, the export's time to first byte and to last, and its size; --runs N
// repeats the download; --books-heap MiB caps books' V8 old space (--max-old-space-size), to tell what
// books holds from the garbage V8 lets pile up before it collects. Targets: gateway < 50 MiB, books < 100 MiB.
// Usage: pnpm bench:export [--entries N] [--runs N] [--format csv] [--postgres URL] [--books-heap MiB]   (build first)
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PaymentEvent, PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import { createLogger, grpcUrlVariable, loadConfig, openPrisma, SERVICE_NAMES, startService } from '@ctk/shared';
import { createJournalRepository } from '../apps/books/src/data/journal-repository.js';
import { createParkedEventRepository } from '../apps/books/src/data/parked-event-repository.js';
import { postPaymentEvent } from '../apps/books/src/domain/post-payment-event.js';
import { PrismaClient } from '../apps/books/src/generated/prisma/client.js';
import { freePort, freshDatabase } from './support.js';

const BOOKS_PRISMA_DIR = new URL('../apps/books/prisma', import.meta.url).pathname;
const MiB = 1024 * 1024;

/** A child: books or the gateway alone, on the addresses and database the parent gives; says when it listens. */
async function runChild(role: 'books' | 'gateway'): Promise<void> {
  const { BENCH_DATA_DIR: dataDir = '', BENCH_DB, BENCH_BOOKS_PORT = '0' } = process.env;
  const env = { CTK_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...(BENCH_DB ? { DATABASE_URL: BENCH_DB } : {}) };
  let app: { port: number; close(): Promise<void> };
  if (role === 'books') {
    const { configSchema, service } = await import('../apps/books/dist/app.js');
    app = await startService(service, loadConfig(configSchema, { ...env, GRPC_PORT: BENCH_BOOKS_PORT }));
  } else {
    const { service } = await import('../apps/gateway/dist/app.js');
    const { configSchema } = await import('../apps/gateway/dist/config.js');
    const down = Object.fromEntries(SERVICE_NAMES.map((name) => [grpcUrlVariable(name), '127.0.0.1:1']));
    app = await startService(
      service,
      loadConfig(configSchema, {
        ...env,
        ...down,
        PORT: '0',
        HOST: '127.0.0.1',
        BOOKS_GRPC_URL: `127.0.0.1:${BENCH_BOOKS_PORT}`,
        CTK_RATE_LIMIT_PER_MINUTE: '100000000',
        CTK_SIGNUP_RATE_LIMIT_PER_MINUTE: '100000000',
      }),
    );
  }
  const stop = async () => {
    await app.close().catch(() => undefined);
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  process.send?.({ port: app.port });
}

function start(
  role: 'books' | 'gateway',
  env: Record<string, string>,
  nodeOptions: string[] = [],
): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(import.meta.filename, [], {
    execArgv: [...process.execArgv, ...nodeOptions],
    env: { ...process.env, ...env, BENCH_ROLE: role },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, port: (message as { port: number }).port }));
    child.once('exit', (code) => reject(new Error(`${role} exited with ${code} before it listened`)));
  });
}

/** A process's resident set size now, in bytes. */
function rss(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m);
  return line ? Number(line[1]) * 1024 : NaN;
}

/** Samples the processes' RSS every 20 ms until stopped; the peak of each. */
function sampleRss(pids: number[]) {
  const peaks = pids.map((pid) => rss(pid));
  const timer = setInterval(() => pids.forEach((pid, i) => (peaks[i] = Math.max(peaks[i]!, rss(pid)))), 20);
  return {
    stop() {
      clearInterval(timer);
      pids.forEach((pid, i) => (peaks[i] = Math.max(peaks[i]!, rss(pid))));
      return peaks;
    },
  };
}

/** Idle RSS: the median of a second of samples, once the processes have settled. */
async function idleRss(pid: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 50; i++) {
    samples.push(rss(pid));
    await new Promise((r) => setTimeout(r, 20));
  }
  return samples.sort((a, b) => a - b)[25]!;
}

/** Posts `count` three-line sales of the organisation through books' posting use case, on books' database. */
async function seedJournal(organizationId: string, count: number, database: { databaseUrl?: string; dataDir: string }) {
  const { prisma, sql, close } = await openPrisma(
    { service: 'books', databaseUrl: database.databaseUrl, dataDir: database.dataDir, prismaDir: BOOKS_PRISMA_DIR },
    (adapter) => new PrismaClient({ adapter }),
  );
  const deps = {
    journal: createJournalRepository(prisma, sql),
    parked: createParkedEventRepository(prisma),
    logger: createLogger('seed', 'silent'),
  };
  const start = Date.now();
  const AT_ONCE = 2_000;
  for (let done = 0; done < count; done += AT_ONCE) {
    const events = Array.from({ length: Math.min(AT_ONCE, count - done) }, (_, i) => {
      const n = done + i;
      return PaymentEvent.fromPartial({
        id: `bench-${randomUUID()}`,
        type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED,
        organizationId,
        sourceService: 'pos',
        sourceId: randomUUID(),
        currency: 'USD',
        amountMinor: 1075n + BigInt(n % 1000),
        taxMinor: 75n,
        satoshis: 2_150_000n,
        exchangeRate: '2000',
        settlement: Settlement.SETTLEMENT_BSV_WALLET,
        txid: randomUUID().replace(/-/g, '').repeat(2),
        occurredAt: new Date(Date.UTC(2026, 0, 1) + n * 50_000),
        taxJurisdiction: 'US-CA',
        taxRate: '0.0725',
        description: `Order ${n}: oat milk latte and a croissant`,
      });
    });
    const outcomes = await Promise.all(events.map((event) => postPaymentEvent(deps, event)));
    if (outcomes.some((outcome) => outcome !== 'posted')) throw new Error(`seeding: not every event was posted (${outcomes.join(',')})`);
  }
  const seconds = (Date.now() - start) / 1000;
  await close();
  return seconds;
}

/** Downloads the file, counting its bytes and rows without keeping it. */
async function download(url: string, key: string) {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  if (response.status !== 200) throw new Error(`export: HTTP ${response.status} ${await response.text()}`);
  const firstByte = performance.now() - started;
  let bytes = 0;
  let rows = 0;
  let last = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) rows++;
    last = chunk[chunk.length - 1] ?? last;
  }
  if (last !== 10) throw new Error('the file does not end with a line break: it is cut short');
  return { firstByte, total: performance.now() - started, bytes, rows };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      entries: { type: 'string', default: '50000' },
      runs: { type: 'string', default: '2' },
      format: { type: 'string', default: 'csv' },
      postgres: { type: 'string' },
      'books-heap': { type: 'string' },
    },
  });
  const entries = Number(values.entries);
  const dir = mkdtempSync(join(tmpdir(), 'ctk-bench-export-'));
  const children: ChildProcess[] = [];
  try {
    const suffix = randomUUID().slice(0, 8);
    const [gatewayDb, booksDb] = values.postgres
      ? [
          await freshDatabase(values.postgres, `bench_export_gateway_${suffix}`),
          await freshDatabase(values.postgres, `bench_export_books_${suffix}`),
        ]
      : [undefined, undefined];
    const booksPort = await freePort();
    const gateway = await start('gateway', {
      BENCH_DATA_DIR: join(dir, 'gateway'),
      BENCH_BOOKS_PORT: String(booksPort),
      ...(gatewayDb ? { BENCH_DB: gatewayDb } : {}),
    });
    children.push(gateway.child);
    const base = `http://127.0.0.1:${gateway.port}`;
    const onboarded = await fetch(`${base}/api/v1/onboard`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Export Bench Cafe ${suffix}` }),
    });
    const { api_key: apiKey, organization } = (await onboarded.json()) as {
      api_key: { key: string };
      organization: { id: string; handle: string };
    };

    console.log(
      `seeding ${entries.toLocaleString('en')} entries through books' posting use case (${values.postgres ? 'PostgreSQL' : 'PGlite'})...`,
    );
    const seeded = await seedJournal(organization.id, entries, { databaseUrl: booksDb, dataDir: join(dir, 'books') });
    console.log(`seeded in ${seeded.toFixed(1)} s (${Math.round(entries / seeded)} entries/s)`);

    const books = await start(
      'books',
      { BENCH_DATA_DIR: join(dir, 'books'), BENCH_BOOKS_PORT: String(booksPort), ...(booksDb ? { BENCH_DB: booksDb } : {}) },
      values['books-heap'] ? [`--max-old-space-size=${values['books-heap']}`] : [],
    );
    children.push(books.child);
    const url = `${base}/api/v1/orgs/${organization.handle}/ledger?format=${values.format}`;
    // Load the code paths of an export (and the gateway's key cache) before the baseline.
    await download(`${url}&from=2100-01-01`, apiKey.key);
    await new Promise((r) => setTimeout(r, 1_000));
    const pids = [gateway.child.pid!, books.child.pid!];
    const baseline = await Promise.all(pids.map(idleRss));
    console.log(`idle RSS: gateway ${(baseline[0]! / MiB).toFixed(1)} MiB, books ${(baseline[1]! / MiB).toFixed(1)} MiB`);
    for (let run = 1; run <= Number(values.runs); run++) {
      const sampler = sampleRss(pids);
      const result = await download(url, apiKey.key);
      const [gatewayPeak, booksPeak] = sampler.stop();
      console.log(
        `run ${run}: ${values.format} of ${entries.toLocaleString('en')} entries, ${result.rows.toLocaleString('en')} lines, ` +
          `${(result.bytes / MiB).toFixed(1)} MiB in ${(result.total / 1000).toFixed(2)} s (first byte ${result.firstByte.toFixed(0)} ms); ` +
          `peak RSS over idle: gateway +${((gatewayPeak! - baseline[0]!) / MiB).toFixed(1)} MiB (target < 50), ` +
          `books +${((booksPeak! - baseline[1]!) / MiB).toFixed(1)} MiB (target < 100)`,
      );
    }
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dir, { recursive: true, force: true });
  }
}

const role = process.env.BENCH_ROLE;
if (role === 'books' || role === 'gateway') await runChild(role);
else await main();
