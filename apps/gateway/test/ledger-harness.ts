import { randomUUID } from 'node:crypto';
import { configSchema as booksConfigSchema, service as booksService } from '@ctk/books';
import { PaymentEvent, PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import { loadConfig, startService } from '@ctk/shared';
import { createTestDatabase, paymentEventFeed, TEST_DATA_DIR } from '@ctk/shared/testing';
import { bearer, startTestGateway, type Onboarded, type Gateway } from './harness.js';
import { SERVICES_DOWN } from './support.js';

/** Where each stack's books consumes payment events from, by its gateway (see post). */
const feeds = new WeakMap<Gateway, ReturnType<typeof paymentEventFeed>>();

/**
 * The books service on a free port with its own database, consuming payment events from an in-process
 * transport as in the embedded default, and a gateway pointed at it.
 */
export async function startLedgerStack() {
  const databaseUrl = await createTestDatabase('books');
  const feed = paymentEventFeed();
  const books = await startService(
    booksService,
    loadConfig(booksConfigSchema, {
      GRPC_PORT: '0',
      LOG_LEVEL: 'silent',
      CTK_DATA_DIR: TEST_DATA_DIR,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    }),
    { transport: feed.transport },
  );
  const gateway = await startTestGateway({ ...SERVICES_DOWN, BOOKS_GRPC_URL: `127.0.0.1:${books.port}` });
  feeds.set(gateway, feed);
  return {
    gateway,
    booksPort: books.port,
    async close() {
      await gateway.close();
      await books.close();
      await feed.close();
    },
  };
}

/** A paid USD sale into the BSV wallet, unless overridden. */
export function paymentEvent(organizationId: string, overrides: Partial<PaymentEvent> = {}): PaymentEvent {
  return PaymentEvent.fromPartial({
    id: `evt-${randomUUID()}`,
    type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED,
    organizationId,
    sourceService: 'pos',
    sourceId: randomUUID(),
    currency: 'USD',
    amountMinor: 1234n,
    taxMinor: 84n,
    satoshis: 2_468_000n,
    exchangeRate: '2000',
    settlement: Settlement.SETTLEMENT_BSV_WALLET,
    txid: 'ab'.repeat(32),
    occurredAt: new Date('2026-03-02T10:00:00Z'),
    taxJurisdiction: 'US-CA',
    taxRate: '0.0725',
    description: 'Order 1',
    ...overrides,
  });
}

/**
 * One event of every type and settlement, in March 2026, oldest first: a $12.34 sale ($0.84 tax), a
 * $5.00 card refund ($0.34 tax), a $25.00 gift card bought in stablecoin, $10.75 of it redeemed ($0.75
 * tax), a sale of 5 satoshis priced in BSV, a ¥1075 sale, and a sale on the last second of the month.
 */
export function everyKindOfEvent(organizationId: string): PaymentEvent[] {
  const at = (iso: string) => new Date(iso);
  return [
    paymentEvent(organizationId, {
      occurredAt: at('2026-03-02T10:00:00Z'),
      description: 'Order 1, "flat white" & croissant',
      sourceReference: 'A-1001',
      rateSource: 'fixed',
    }),
    paymentEvent(organizationId, {
      type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_REFUNDED,
      settlement: Settlement.SETTLEMENT_PROVIDER_CLEARING,
      amountMinor: 500n,
      taxMinor: 34n,
      txid: '',
      satoshis: 0n,
      exchangeRate: '',
      occurredAt: at('2026-03-03T11:00:00Z'),
      description: 'Refund of order 1',
    }),
    paymentEvent(organizationId, {
      type: PaymentEventType.PAYMENT_EVENT_TYPE_PREPAID_ISSUED,
      settlement: Settlement.SETTLEMENT_STABLECOIN,
      amountMinor: 2500n,
      taxMinor: 0n,
      sourceService: 'commerce',
      occurredAt: at('2026-03-04T12:00:00Z'),
      description: 'Gift card',
    }),
    paymentEvent(organizationId, {
      type: PaymentEventType.PAYMENT_EVENT_TYPE_PREPAID_REDEEMED,
      settlement: Settlement.SETTLEMENT_NONE,
      amountMinor: 1075n,
      taxMinor: 75n,
      txid: '',
      satoshis: 0n,
      occurredAt: at('2026-03-05T13:00:00Z'),
      description: 'Gift card spent',
    }),
    paymentEvent(organizationId, {
      currency: 'BSV',
      amountMinor: 5n,
      taxMinor: 0n,
      satoshis: 5n,
      exchangeRate: '1',
      occurredAt: at('2026-03-06T14:00:00Z'),
      description: 'Tip in satoshis',
    }),
    paymentEvent(organizationId, {
      currency: 'JPY',
      amountMinor: 1075n,
      taxMinor: 0n,
      occurredAt: at('2026-03-07T15:00:00Z'),
      description: 'Matcha (yen)',
    }),
    paymentEvent(organizationId, {
      amountMinor: 999n,
      taxMinor: 0n,
      occurredAt: at('2026-03-31T23:59:59Z'),
      description: 'Last order of March',
    }),
  ];
}

/**
 * Publishes payment events on the transport the stack's books consumes, as the payment paths' outbox
 * relays do, and resolves once books has handled them all.
 */
export async function post(gateway: Gateway, events: PaymentEvent[]): Promise<void> {
  const feed = feeds.get(gateway);
  if (!feed) throw new Error('post needs a gateway of startLedgerStack');
  await feed.publish(events);
}

export function getLedger(gateway: Gateway, key: string, owner: Pick<Onboarded, 'handle'>, query = '') {
  return gateway.app.inject({ method: 'GET', url: `/api/v1/orgs/${owner.handle}/ledger${query}`, headers: bearer(key) });
}
