import { PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import { grpcHealthStatus } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEvent, newOrg, startFedBooks } from './support.js';

describe('books over gRPC', () => {
  let books: Awaited<ReturnType<typeof startFedBooks>>;
  beforeAll(async () => {
    books = await startFedBooks();
  });
  afterAll(() => books.close());

  it('posts a payment event it consumes and lists it', async () => {
    const org = newOrg();
    await books.post([newEvent(org.id ?? '')]);
    expect((await books.client.listJournalEntries({ org })).entries).toHaveLength(1);
  });

  it('lists nothing for an event that cannot be posted', async () => {
    const org = newOrg();
    await books.post([newEvent(org.id ?? '', { taxMinor: 2000n })]);
    expect(await books.client.listJournalEntries({ org })).toEqual({ entries: [], nextCursor: '' });
  });

  it('lists an entry with its event facts and its lines by account code, name and type', async () => {
    const org = newOrg();
    const event = newEvent(org.id ?? '', { settlement: Settlement.SETTLEMENT_PROVIDER_CLEARING, rateSource: 'coingecko' });
    await books.post([event]);
    const { entries } = await books.client.listJournalEntries({ org });
    expect(entries).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        eventId: event.id,
        eventType: 'payment.received',
        occurredAt: '2026-11-20T10:00:00.000Z',
        postedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        currency: 'USD',
        description: 'Order 42',
        sourceService: 'pos',
        sourceId: event.sourceId,
        txid: event.txid,
        satoshis: 2_150_000n,
        exchangeRate: '2000',
        rateSource: 'coingecko',
        taxJurisdiction: 'US-CA',
        taxRate: '0.0725',
        lines: [
          {
            accountCode: '1020',
            accountName: 'Provider clearing',
            accountType: 'asset',
            debitMinor: 1075n,
            creditMinor: 0n,
            memo: undefined,
          },
          { accountCode: '4000', accountName: 'Revenue', accountType: 'income', debitMinor: 0n, creditMinor: 1000n, memo: undefined },
          {
            accountCode: '2100',
            accountName: 'Sales tax payable',
            accountType: 'liability',
            debitMinor: 0n,
            creditMinor: 75n,
            memo: undefined,
          },
        ],
      },
    ]);
  });

  it('carries amounts of 9,000,000,000,000,000 minor units through posting and listing exactly', async () => {
    const org = newOrg();
    const event = newEvent(org.id ?? '', {
      type: PaymentEventType.PAYMENT_EVENT_TYPE_PREPAID_ISSUED,
      amountMinor: 9_000_000_000_000_000n,
      taxMinor: 0n,
    });
    await books.post([event]);
    const [entry] = (await books.client.listJournalEntries({ org })).entries;
    expect(entry?.lines.map((l) => [l.accountCode, l.debitMinor, l.creditMinor])).toEqual([
      ['1010', 9_000_000_000_000_000n, 0n],
      ['2300', 0n, 9_000_000_000_000_000n],
    ]);
  });

  describe('setup', () => {
    it('reports the ledger as not set up for a new organisation, with taking a first payment as the next step', async () => {
      const { capabilities } = await books.client.getSetup({ org: newOrg() });
      expect(capabilities.map((c) => c.capabilityId)).toEqual(['ledger', 'sales_tax', 'receipts', 'reports']);
      expect(capabilities.every((c) => !c.setUp)).toBe(true);
      expect(capabilities[0]?.nextStep).toBe('Take a first payment: every paid order becomes a journal entry here.');
      // Receipts are built (p2p verifies them): taking a payment is the step, not a later release.
      expect(capabilities[2]?.nextStep).toMatch(/^Take a first payment: .+GET \/api\/v1\/receipts\/:txid/);
      expect(capabilities[3]?.nextStep).toMatch(/^Take a first payment: then GET \/api\/v1\/orgs\/shop-[0-9a-f]{8}\/reports\/sales /);
    });

    it('reports the ledger and the reports as set up once the organisation has its first entry, and only for that organisation', async () => {
      const org = newOrg();
      await books.post([newEvent(org.id ?? '')]);
      const { capabilities } = await books.client.getSetup({ org });
      expect(capabilities[0]).toEqual({ capabilityId: 'ledger', setUp: true, nextStep: '' });
      expect(capabilities[3]).toEqual({ capabilityId: 'reports', setUp: true, nextStep: '' });
      expect((await books.client.getSetup({ org: newOrg() })).capabilities[0]?.setUp).toBe(false);
    });

    it('keeps the ledger not set up when the only event was parked', async () => {
      const org = newOrg();
      await books.post([newEvent(org.id ?? '', { currency: 'dollars' })]);
      expect((await books.client.getSetup({ org })).capabilities[0]?.setUp).toBe(false);
    });

    it('rejects a call that names no organisation as a bad request', async () => {
      await expect(books.client.getSetup({})).rejects.toMatchObject({ code: 'bad_request' });
    });
  });

  it('answers SERVING on grpc.health.v1, for the server and for BooksService', async () => {
    const address = `127.0.0.1:${books.port}`;
    expect(await grpcHealthStatus(address)).toBe('SERVING');
    expect(await grpcHealthStatus(address, 'ctk.books.v1.BooksService')).toBe('SERVING');
  });
});
