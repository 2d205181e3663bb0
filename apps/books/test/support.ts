import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BooksServiceDefinition } from '@ctk/proto/ctk/books/v1/books';
import { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { PaymentEvent, PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import { createLogger, loadConfig, openPrisma, startService, type EventTransport, type Logger } from '@ctk/shared';
import { createTestDatabase, paymentEventFeed, TEST_DATA_DIR, createTestClient } from '@ctk/shared/testing';
import { vi, type MockInstance } from 'vitest';
import { configSchema, service as books } from '../src/app.js';
import { createJournalRepository, type ListedEntry } from '../src/data/journal-repository.js';
import { createParkedEventRepository } from '../src/data/parked-event-repository.js';
import { postPaymentEvent, type PostingDeps } from '../src/domain/post-payment-event.js';
import { PrismaClient } from '../src/generated/prisma/client.js';

const PRISMA_DIR = fileURLToPath(new URL('../prisma', import.meta.url));

type BooksEnv = { DATABASE_URL?: string | undefined; CTK_DATA_DIR: string; NATS_URL?: string };

/**
 * A fresh books database: PostgreSQL when CTK_TEST_POSTGRES_URL is set, else PGlite, in memory unless
 * `durable` (a temporary folder, so that books can be closed and started again on the same data).
 */
export async function testBooksDatabase(options: { durable?: boolean } = {}): Promise<{ env: BooksEnv; remove(): Promise<void> }> {
  const url = await createTestDatabase('books');
  if (url || !options.durable) return { env: { DATABASE_URL: url, CTK_DATA_DIR: TEST_DATA_DIR }, remove: async () => undefined };
  const dir = await mkdtemp(join(tmpdir(), 'ctk-books-'));
  return { env: { CTK_DATA_DIR: dir }, remove: () => rm(dir, { recursive: true, force: true }) };
}

export type TestBooksOptions = {
  /** The database (and NATS_URL) to use; a fresh in-memory one by default. */
  env?: BooksEnv;
  /** The transport books consumes payment events from (startService's option). */
  transport?: EventTransport;
  logger?: Logger;
  /** More of books' configuration, e.g. BOOKS_EXPORT_MAX_ENTRIES. */
  config?: Record<string, string>;
};

/** books on a free port with its own database (PostgreSQL when CTK_TEST_POSTGRES_URL is set), and a client. */
export async function startTestBooks(options: TestBooksOptions = {}) {
  const env = options.env ?? (await testBooksDatabase()).env;
  const config = loadConfig(configSchema, { GRPC_PORT: '0', LOG_LEVEL: 'silent', ...env, ...options.config });
  const service = await startService(books, config, { logger: options.logger, transport: options.transport });
  const client = createTestClient(BooksServiceDefinition, `127.0.0.1:${service.port}`);
  return {
    port: service.port,
    /** Where its metrics answer, with `config: { METRICS_PORT: '0' }`. */
    metricsPort: service.metricsPort,
    client,
    async close() {
      client.close();
      await service.close();
    },
  };
}

/**
 * books consuming payment events from a feed, as in production: `post` publishes the events on the
 * transport books consumes and resolves once books has handled each (posted, duplicate or parked).
 */
export async function startFedBooks(options: Omit<TestBooksOptions, 'transport'> = {}) {
  const feed = paymentEventFeed();
  const books = await startTestBooks({ ...options, transport: feed.transport });
  return {
    ...books,
    post: (events: readonly PaymentEvent[]) => feed.publish(events),
    async close() {
      await books.close();
      await feed.close();
    },
  };
}

/**
 * The posting use case on its own migrated database (or on `env`'s, e.g. to look inside after books
 * closed it), with the Prisma client to look inside and a watched logger.
 */
export async function openTestJournal(env?: BooksEnv) {
  const { DATABASE_URL: databaseUrl, CTK_DATA_DIR: dataDir } = env ?? (await testBooksDatabase()).env;
  const { prisma, sql, close } = await openPrisma(
    { service: 'books', databaseUrl, dataDir, prismaDir: PRISMA_DIR },
    (adapter) => new PrismaClient({ adapter }),
  );
  const logger = createLogger('books', 'silent');
  const deps: PostingDeps = { journal: createJournalRepository(prisma, sql), parked: createParkedEventRepository(prisma), logger };
  return {
    prisma,
    deps,
    logged: {
      error: vi.spyOn(logger, 'error') as MockInstance,
      warn: vi.spyOn(logger, 'warn') as MockInstance,
      info: vi.spyOn(logger, 'info') as MockInstance,
    },
    post: (event: PaymentEvent) => postPaymentEvent(deps, event),
    /** Every entry of the organisation, oldest first. */
    entriesOf: (organizationId: string) => deps.journal.list(organizationId, {}, 1000),
    close,
  };
}

/** An organisation reference for an id (books reads only the id). */
export function orgRef(id: string): OrgRef {
  return OrgRef.fromPartial({ id, handle: `shop-${id.slice(0, 8)}` });
}

export function newOrg(): OrgRef {
  return orgRef(randomUUID());
}

/** A paid $10.75 sale (75 cents of it tax) into the BSV wallet, unless overridden. */
export function newEvent(organizationId: string, overrides: Partial<PaymentEvent> = {}): PaymentEvent {
  return PaymentEvent.fromPartial({
    id: `evt-${randomUUID()}`,
    type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED,
    organizationId,
    sourceService: 'pos',
    sourceId: randomUUID(),
    currency: 'USD',
    amountMinor: 1075n,
    taxMinor: 75n,
    satoshis: 2_150_000n,
    exchangeRate: '2000',
    settlement: Settlement.SETTLEMENT_BSV_WALLET,
    txid: 'ab'.repeat(32),
    occurredAt: new Date('2026-11-20T10:00:00.000Z'),
    taxJurisdiction: 'US-CA',
    taxRate: '0.0725',
    description: 'Order 42',
    ...overrides,
  });
}

/** An entry's lines as [account code, debit, credit], in order. */
export function linesOf(entry: Pick<ListedEntry, 'lines'> | undefined): Array<[string, bigint, bigint]> {
  return (entry?.lines ?? []).map((line) => [line.account.code, line.debitMinor, line.creditMinor]);
}

const {
  PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED: RECEIVED,
  PAYMENT_EVENT_TYPE_PAYMENT_REFUNDED: REFUNDED,
  PAYMENT_EVENT_TYPE_PREPAID_ISSUED: ISSUED,
  PAYMENT_EVENT_TYPE_PREPAID_REDEEMED: REDEEMED,
} = PaymentEventType;

/** One event of each kind books posts: every type, and a sale into each money-in account. */
export const EVENT_KINDS: ReadonlyArray<Partial<PaymentEvent>> = [
  { type: RECEIVED, settlement: Settlement.SETTLEMENT_BSV_WALLET },
  { type: RECEIVED, settlement: Settlement.SETTLEMENT_PROVIDER_CLEARING },
  { type: RECEIVED, settlement: Settlement.SETTLEMENT_STABLECOIN },
  { type: REFUNDED, settlement: Settlement.SETTLEMENT_BSV_WALLET },
  { type: ISSUED, settlement: Settlement.SETTLEMENT_PROVIDER_CLEARING, taxMinor: 0n },
  { type: REDEEMED, settlement: Settlement.SETTLEMENT_NONE },
];

/** `count` valid events of the organisations in turn, cycling through every kind, with distinct amounts. */
export function mixedEvents(organizationIds: readonly string[], count: number): PaymentEvent[] {
  return Array.from({ length: count }, (_, i) => {
    const amountMinor = 1_000n + BigInt(i);
    const kind = EVENT_KINDS[i % EVENT_KINDS.length]!;
    return newEvent(organizationIds[i % organizationIds.length]!, { amountMinor, ...kind, taxMinor: kind.taxMinor ?? amountMinor / 20n });
  });
}

type BooksClient = Awaited<ReturnType<typeof startTestBooks>>['client'];

/** Every entry of the organisation through ListJournalEntries, page by page. */
export async function listAllEntries(client: BooksClient, org: OrgRef) {
  const entries = [];
  let cursor = '';
  do {
    const page = await client.listJournalEntries({ org, limit: 100, cursor });
    entries.push(...page.entries);
    cursor = page.nextCursor;
  } while (cursor);
  return entries;
}
