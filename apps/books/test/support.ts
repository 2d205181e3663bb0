import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { BooksServiceDefinition } from '@ctk/proto/ctk/books/v1/books';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { PaymentEvent, PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import { createGrpcClient, createLogger, loadConfig, openPrisma } from '@ctk/shared';
import { createTestDatabase, TEST_DATA_DIR } from '@ctk/shared/testing';
import { vi, type MockInstance } from 'vitest';
import { configSchema, startBooks } from '../src/app.js';
import { createJournalRepository, type ListedEntry } from '../src/data/journal-repository.js';
import { createParkedEventRepository } from '../src/data/parked-event-repository.js';
import { postPaymentEvent, type PostingDeps } from '../src/domain/post-payment-event.js';
import { PrismaClient } from '../src/generated/prisma/client.js';

const PRISMA_DIR = fileURLToPath(new URL('../prisma', import.meta.url));

/** books on a free port with its own database (PostgreSQL when CTK_TEST_POSTGRES_URL is set), and a client. */
export async function startTestBooks() {
  const config = loadConfig(configSchema, {
    GRPC_PORT: '0',
    LOG_LEVEL: 'silent',
    DATABASE_URL: await createTestDatabase('books'),
    CTK_DATA_DIR: TEST_DATA_DIR,
  });
  const service = await startBooks(config);
  const client = createGrpcClient(BooksServiceDefinition, `127.0.0.1:${service.port}`);
  return {
    port: service.port,
    client,
    async close() {
      client.close();
      await service.close();
    },
  };
}

/** The posting use case on its own migrated database, with the Prisma client to look inside and a watched logger. */
export async function openTestJournal() {
  const { prisma, close } = await openPrisma(
    { service: 'books', databaseUrl: await createTestDatabase('books'), dataDir: TEST_DATA_DIR, prismaDir: PRISMA_DIR },
    (adapter) => new PrismaClient({ adapter }),
  );
  const logger = createLogger('books', 'silent');
  const deps: PostingDeps = { journal: createJournalRepository(prisma), parked: createParkedEventRepository(prisma), logger };
  return {
    prisma,
    deps,
    logged: { error: vi.spyOn(logger, 'error') as MockInstance, warn: vi.spyOn(logger, 'warn') as MockInstance },
    post: (event: PaymentEvent) => postPaymentEvent(deps, event),
    /** Every entry of the organisation, oldest first. */
    entriesOf: (organizationId: string) => deps.journal.list(organizationId, {}, 1000),
    close,
  };
}

export function newOrg(): OrgRef {
  const id = randomUUID();
  return { id, handle: `shop-${id.slice(0, 8)}`, jurisdiction: '', receivingAddress: '' };
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
