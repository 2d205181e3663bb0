import { randomUUID } from 'node:crypto';
import { PaymentEvent, PaymentEventType, Settlement } from '@ctk/proto/ctk/events/v1/payment_event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHART_OF_ACCOUNTS } from '../src/domain/chart-of-accounts.js';
import { linesOf, newEvent, openTestJournal } from './support.js';

const {
  PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED: RECEIVED,
  PAYMENT_EVENT_TYPE_PAYMENT_REFUNDED: REFUNDED,
  PAYMENT_EVENT_TYPE_PREPAID_ISSUED: ISSUED,
  PAYMENT_EVENT_TYPE_PREPAID_REDEEMED: REDEEMED,
  PAYMENT_EVENT_TYPE_PREPAID_RESTORED: RESTORED,
  PAYMENT_EVENT_TYPE_CREDITS_SOLD: CREDITS_SOLD,
  PAYMENT_EVENT_TYPE_CREDITS_REDEEMED: CREDITS_REDEEMED,
  PAYMENT_EVENT_TYPE_CREDITS_RESTORED: CREDITS_RESTORED,
} = PaymentEventType;

describe('posting payment events to the journal', () => {
  let books: Awaited<ReturnType<typeof openTestJournal>>;
  beforeAll(async () => {
    books = await openTestJournal();
  });
  afterAll(() => books.close());
  beforeEach(() => vi.clearAllMocks());

  it.each([
    [
      'a sale paid into the BSV wallet',
      { type: RECEIVED, settlement: Settlement.SETTLEMENT_BSV_WALLET },
      [
        ['1010', 1075n, 0n],
        ['4000', 0n, 1000n],
        ['2100', 0n, 75n],
      ],
    ],
    [
      'a sale paid through a card provider',
      { type: RECEIVED, settlement: Settlement.SETTLEMENT_PROVIDER_CLEARING },
      [
        ['1020', 1075n, 0n],
        ['4000', 0n, 1000n],
        ['2100', 0n, 75n],
      ],
    ],
    [
      'a sale paid in stablecoin',
      { type: RECEIVED, settlement: Settlement.SETTLEMENT_STABLECOIN },
      [
        ['1030', 1075n, 0n],
        ['4000', 0n, 1000n],
        ['2100', 0n, 75n],
      ],
    ],
    [
      'a sale with a tip: untaxed, owed to staff, not revenue',
      { type: RECEIVED, settlement: Settlement.SETTLEMENT_BSV_WALLET, amountMinor: 1275n, tipMinor: 200n },
      [
        ['1010', 1275n, 0n],
        ['4000', 0n, 1000n],
        ['2100', 0n, 75n],
        ['2400', 0n, 200n],
      ],
    ],
    [
      'a sale with a loyalty reward (decision 0023): revenue before the reward, the reward on 4200',
      { rewardMinor: 450n },
      [
        ['1010', 1075n, 0n],
        ['4200', 450n, 0n],
        ['4000', 0n, 1450n],
        ['2100', 0n, 75n],
      ],
    ],
    [
      'a sale through a referral link (decision 0040): the commission paid straight to the referrer on 5100',
      { commissionMinor: 100n },
      [
        ['1010', 975n, 0n],
        ['5100', 100n, 0n],
        ['4000', 0n, 1000n],
        ['2100', 0n, 75n],
      ],
    ],
    [
      'a gift card use completing a sale with a loyalty reward',
      { type: REDEEMED, settlement: Settlement.SETTLEMENT_NONE, rewardMinor: 300n },
      [
        ['2300', 1075n, 0n],
        ['4200', 300n, 0n],
        ['4000', 0n, 1300n],
        ['2100', 0n, 75n],
      ],
    ],
    [
      'a refund from the BSV wallet',
      { type: REFUNDED, settlement: Settlement.SETTLEMENT_BSV_WALLET },
      [
        ['4100', 1075n - 75n, 0n],
        ['2100', 75n, 0n],
        ['1010', 0n, 1075n],
      ],
    ],
    [
      'a refund of part of a paid order with its share of the tip: revenue, tax and tip taken back',
      { type: REFUNDED, settlement: Settlement.SETTLEMENT_BSV_WALLET, amountMinor: 1275n, tipMinor: 200n },
      [
        ['4100', 1000n, 0n],
        ['2100', 75n, 0n],
        ['2400', 200n, 0n],
        ['1010', 0n, 1275n],
      ],
    ],
    [
      'a gift card bought through a card provider',
      { type: ISSUED, settlement: Settlement.SETTLEMENT_PROVIDER_CLEARING, taxMinor: 0n },
      [
        ['1020', 1075n, 0n],
        ['2300', 0n, 1075n],
      ],
    ],
    [
      'a gift card redeemed for a taxed sale',
      { type: REDEEMED, settlement: Settlement.SETTLEMENT_NONE },
      [
        ['2300', 1075n, 0n],
        ['4000', 0n, 1000n],
        ['2100', 0n, 75n],
      ],
    ],
    [
      'a gift card paying part of a sale with a tip, its share of the tip owed to staff',
      { type: REDEEMED, settlement: Settlement.SETTLEMENT_NONE, amountMinor: 1275n, tipMinor: 200n },
      [
        ['2300', 1275n, 0n],
        ['4000', 0n, 1000n],
        ['2100', 0n, 75n],
        ['2400', 0n, 200n],
      ],
    ],
    [
      'a gift card use undone: the value owed on the card again, its revenue, tax and tip taken back',
      { type: RESTORED, settlement: Settlement.SETTLEMENT_NONE, amountMinor: 1275n, tipMinor: 200n },
      [
        ['4100', 1000n, 0n],
        ['2100', 75n, 0n],
        ['2400', 200n, 0n],
        ['2300', 0n, 1275n],
      ],
    ],
    [
      'credits sold for bitcoin: owed to the customer, untaxed',
      { type: CREDITS_SOLD, settlement: Settlement.SETTLEMENT_BSV_WALLET, taxMinor: 0n },
      [
        ['1010', 1075n, 0n],
        ['2350', 0n, 1075n],
      ],
    ],
    [
      'credits redeemed against a taxed sale with a tip: the liability becomes revenue, tax and tip',
      { type: CREDITS_REDEEMED, settlement: Settlement.SETTLEMENT_NONE, amountMinor: 1275n, tipMinor: 200n },
      [
        ['2350', 1275n, 0n],
        ['4000', 0n, 1000n],
        ['2100', 0n, 75n],
        ['2400', 0n, 200n],
      ],
    ],
    [
      'a credits redemption undone: owed to the customer again, its revenue, tax and tip taken back',
      { type: CREDITS_RESTORED, settlement: Settlement.SETTLEMENT_NONE, amountMinor: 1275n, tipMinor: 200n },
      [
        ['4100', 1000n, 0n],
        ['2100', 75n, 0n],
        ['2400', 200n, 0n],
        ['2350', 0n, 1275n],
      ],
    ],
  ] as const)('posts %s as balanced lines on the expected accounts', async (_, overrides, expected) => {
    const organizationId = randomUUID();
    const event = newEvent(organizationId, overrides);
    expect(await books.post(event)).toBe('posted');
    const [entry, ...others] = await books.entriesOf(organizationId);
    expect(others).toEqual([]);
    expect(linesOf(entry)).toEqual(expected);
    expect(entry).toMatchObject({
      eventId: event.id,
      currency: 'USD',
      occurredAt: event.occurredAt,
      description: 'Order 42',
      sourceService: 'pos',
      sourceId: event.sourceId,
      txid: event.txid,
      satoshis: 2_150_000n,
      exchangeRate: '2000',
      taxJurisdiction: 'US-CA',
      taxRate: '0.0725',
    });
    const debits = entry?.lines.reduce((sum, line) => sum + line.debitMinor, 0n);
    const credits = entry?.lines.reduce((sum, line) => sum + line.creditMinor, 0n);
    expect(debits).toBe(credits);
  });

  it('keeps where the exchange rate came from, and the tip beside the amounts, its lines adding up to the amount less the tip', async () => {
    const organizationId = randomUUID();
    const lines = [{ itemId: 'latte', name: 'Latte', quantity: 1n, unitPriceMinor: 1000n, taxMinor: 75n, totalMinor: 1075n }];
    const event = newEvent(organizationId, { amountMinor: 1275n, tipMinor: 200n, rateSource: 'fixed', lines });
    expect(await books.post(event)).toBe('posted');
    const [entry] = await books.entriesOf(organizationId);
    expect(entry).toMatchObject({ exchangeRate: '2000', rateSource: 'fixed', satoshis: 2_150_000n });
    expect(await books.prisma.journalEntry.findUnique({ where: { eventId: event.id } })).toMatchObject({
      amountMinor: 1275n,
      taxMinor: 75n,
      tipMinor: 200n,
      rateSource: 'fixed',
    });
  });

  it("posts the last part of an order that gift cards paid the rest of, with the whole order's lines for the reports", async () => {
    const organizationId = randomUUID();
    const lines = [{ itemId: 'latte', name: 'Latte', quantity: 2n, unitPriceMinor: 1000n, taxMinor: 150n, totalMinor: 2150n }];
    const event = newEvent(organizationId, { amountMinor: 1075n, taxMinor: 75n, lines, linesOfWholeOrder: true });
    expect(await books.post(event)).toBe('posted');
    const [entry] = await books.entriesOf(organizationId);
    expect(linesOf(entry)).toEqual([
      ['1010', 1075n, 0n],
      ['4000', 0n, 1000n],
      ['2100', 0n, 75n],
    ]);
    expect(await books.prisma.journalEntryItem.findMany({ where: { entry: { eventId: event.id } } })).toMatchObject([
      { name: 'Latte', quantity: 2n, totalMinor: 2150n },
    ]);
  });

  it('names each entry by its event type', async () => {
    const organizationId = randomUUID();
    for (const [type, settlement, taxMinor] of [
      [RECEIVED, 1, 75n],
      [REFUNDED, 1, 75n],
      [ISSUED, 1, 0n],
      [REDEEMED, 4, 75n],
      [RESTORED, 4, 75n],
      [CREDITS_SOLD, 1, 0n],
      [CREDITS_REDEEMED, 4, 75n],
      [CREDITS_RESTORED, 4, 75n],
    ] as const) {
      await books.post(newEvent(organizationId, { type, settlement, taxMinor, occurredAt: new Date(Date.UTC(2026, 0, 1 + type)) }));
    }
    expect((await books.entriesOf(organizationId)).map((e) => e.eventType)).toEqual([
      'payment.received',
      'payment.refunded',
      'prepaid.issued',
      'prepaid.redeemed',
      'prepaid.restored',
      'credits.sold',
      'credits.redeemed',
      'credits.restored',
    ]);
  });

  it('leaves out the tax line of an untaxed sale, and the revenue line of a refund that is all tax', async () => {
    const organizationId = randomUUID();
    await books.post(newEvent(organizationId, { taxMinor: 0n, occurredAt: new Date('2026-11-01T00:00:00Z') }));
    await books.post(
      newEvent(organizationId, { type: REFUNDED, amountMinor: 75n, taxMinor: 75n, occurredAt: new Date('2026-11-02T00:00:00Z') }),
    );
    const [sale, refund] = await books.entriesOf(organizationId);
    expect(linesOf(sale)).toEqual([
      ['1010', 1075n, 0n],
      ['4000', 0n, 1075n],
    ]);
    expect(linesOf(refund)).toEqual([
      ['2100', 75n, 0n],
      ['1010', 0n, 75n],
    ]);
  });

  it('keeps money exact for amounts far beyond what a float can hold', async () => {
    const organizationId = randomUUID();
    const amountMinor = 9_000_000_000_000_000n;
    const taxMinor = 652_500_000_000_001n;
    await books.post(newEvent(organizationId, { amountMinor, taxMinor, satoshis: 9_000_000_000_000_000_000n }));
    const [entry] = await books.entriesOf(organizationId);
    expect(linesOf(entry)).toEqual([
      ['1010', amountMinor, 0n],
      ['4000', 0n, 8_347_499_999_999_999n],
      ['2100', 0n, taxMinor],
    ]);
    expect(entry?.satoshis).toBe(9_000_000_000_000_000_000n);
  });

  it('posts a redelivered event once, answering duplicate the second time', async () => {
    const organizationId = randomUUID();
    const event = newEvent(organizationId);
    expect(await books.post(event)).toBe('posted');
    expect(await books.post(event)).toBe('duplicate');
    expect(await books.post(PaymentEvent.fromPartial({ ...event, amountMinor: 999n }))).toBe('duplicate');
    expect(await books.entriesOf(organizationId)).toHaveLength(1);
  });

  it('posts exactly one entry when the same event is delivered 20 times at once', { tags: ['concurrency'] }, async () => {
    const organizationId = randomUUID();
    const event = newEvent(organizationId);
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => books.post(event)));
    expect(outcomes.filter((o) => o === 'posted')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(19);
    expect(await books.entriesOf(organizationId)).toHaveLength(1);
    expect(await books.prisma.journalLine.count({ where: { entry: { organizationId } } })).toBe(3);
  });

  it(
    'creates the chart of accounts once when two first events of a new organisation arrive at once',
    { tags: ['concurrency'] },
    async () => {
      const organizationId = randomUUID();
      const outcomes = await Promise.all([books.post(newEvent(organizationId)), books.post(newEvent(organizationId))]);
      expect(outcomes).toEqual(['posted', 'posted']);
      const accounts = await books.prisma.account.findMany({ where: { organizationId }, orderBy: { code: 'asc' } });
      expect(accounts.map(({ code, name, type }) => ({ code, name, type }))).toEqual(CHART_OF_ACCOUNTS);
      expect(await books.entriesOf(organizationId)).toHaveLength(2);
    },
  );

  it('gives each organisation a chart of its own', async () => {
    const [first, second] = [randomUUID(), randomUUID()];
    await books.post(newEvent(first));
    await books.post(newEvent(second));
    const [a, b] = await Promise.all(
      [first, second].map((organizationId) =>
        books.prisma.journalLine.findFirst({ where: { entry: { organizationId } }, orderBy: { lineNo: 'asc' } }),
      ),
    );
    // Each sale's first line is on its own organisation's 1010 BSV wallet.
    const accountOf = (line: typeof a) => books.prisma.account.findUnique({ where: { id: line?.accountId ?? '' } });
    expect(await accountOf(a)).toMatchObject({ organizationId: first, code: '1010' });
    expect(await accountOf(b)).toMatchObject({ organizationId: second, code: '1010' });
    expect(a?.accountId).not.toBe(b?.accountId);
    expect(await books.prisma.account.count({ where: { organizationId: { in: [first, second] } } })).toBe(2 * CHART_OF_ACCOUNTS.length);
  });

  it('keeps the line items and the amounts of a sale for the reports, their names exactly as sold', async () => {
    const organizationId = randomUUID();
    // Names with what an array literal gives meaning to (quotes, commas, braces, a backslash, NULL): they go in as arrays.
    const lines = [
      { itemId: 'latte', name: 'Latte "grande", {oat} \\ café', quantity: 2n, unitPriceMinor: 450n, taxMinor: 65n, totalMinor: 965n },
      { itemId: '', name: 'NULL', quantity: 1n, unitPriceMinor: 100n, taxMinor: 10n, totalMinor: 110n },
    ];
    const event = newEvent(organizationId, { lines });
    expect(await books.post(event)).toBe('posted');
    const entry = await books.prisma.journalEntry.findUniqueOrThrow({
      where: { eventId: event.id },
      include: { items: { orderBy: { lineNo: 'asc' } } },
    });
    expect([entry.amountMinor, entry.taxMinor]).toEqual([1075n, 75n]);
    expect(
      entry.items.map(({ lineNo, itemId, name, quantity, unitPriceMinor, taxMinor, totalMinor, organizationId: org, occurredAt }) => ({
        lineNo,
        itemId,
        name,
        quantity,
        unitPriceMinor,
        taxMinor,
        totalMinor,
        org,
        occurredAt,
      })),
    ).toEqual(lines.map((line, lineNo) => ({ lineNo, ...line, org: organizationId, occurredAt: event.occurredAt })));
  });

  it('posts the good events of a burst even when one of them fails to write', async () => {
    const [organizationId, broken] = [randomUUID(), randomUUID()];
    // The broken organisation's accounts vanish after books has remembered them, so its entry cannot be written.
    await books.post(newEvent(broken));
    await books.prisma.journalEntry.deleteMany({ where: { organizationId: broken } });
    await books.prisma.account.deleteMany({ where: { organizationId: broken } });
    const good = Array.from({ length: 5 }, () => newEvent(organizationId));
    const outcomes = await Promise.allSettled([...good, newEvent(broken)].map((event) => books.post(event)));
    expect(outcomes.map((o) => o.status)).toEqual([...Array(5).fill('fulfilled'), 'rejected']);
    expect((await books.entriesOf(organizationId)).map((e) => e.eventId).sort()).toEqual(good.map((e) => e.id).sort());
    expect(await books.entriesOf(broken)).toEqual([]);
  });

  describe('an event that cannot be posted', () => {
    it.each([
      ['more tax than the amount', { taxMinor: 1076n }, /tax_minor must not exceed amount_minor/],
      ['an unknown type', { type: 99 as PaymentEventType }, /type 99 is not a payment event type/],
      ['no type', { type: PaymentEventType.PAYMENT_EVENT_TYPE_UNSPECIFIED }, /type 0 is not/],
      ['a zero amount', { amountMinor: 0n, taxMinor: 0n }, /amount_minor must be positive/],
      ['a negative amount', { amountMinor: -1075n }, /amount_minor must be positive/],
      ['negative tax', { taxMinor: -1n }, /tax_minor must not be negative/],
      ['a lower-case currency', { currency: 'usd' }, /currency must be/],
      ['an organisation id that is not a UUID', { organizationId: 'corner-cafe' }, /organization_id must be a UUID/],
      [
        'a sale with no settlement',
        { settlement: Settlement.SETTLEMENT_UNSPECIFIED },
        /settlement SETTLEMENT_UNSPECIFIED is not valid for payment.received/,
      ],
      ['a sale that moved no money', { settlement: Settlement.SETTLEMENT_NONE }, /settlement SETTLEMENT_NONE is not valid/],
      [
        'a redemption that claims money arrived',
        { type: REDEEMED, settlement: Settlement.SETTLEMENT_BSV_WALLET },
        /not valid for prepaid.redeemed/,
      ],
      ['a gift card sale carrying tax', { type: ISSUED }, /prepaid.issued carries no sales tax/],
      ['no occurred_at', { occurredAt: undefined }, /occurred_at is required/],
      ['an exchange rate that is not a decimal', { exchangeRate: '1e3' }, /exchange_rate must be a decimal string/],
      [
        'line items that do not add up to the amount',
        { lines: [{ itemId: '', name: 'Latte', quantity: 1n, unitPriceMinor: 1000n, taxMinor: 75n, totalMinor: 1070n }] },
        /the lines' total_minor add up to 1070, not amount_minor - tip_minor 1075/,
      ],
      [
        'a line item without a name or quantity',
        { lines: [{ itemId: '', name: ' ', quantity: 0n, unitPriceMinor: 1000n, taxMinor: 75n, totalMinor: 1075n }] },
        /lines\[0\]\.name must be 1 to 200 characters; lines\[0\]\.quantity must be positive/,
      ],
      ['a NUL character, which the database cannot store', { description: 'Order\u000042' }, /text must not contain NUL characters/],
      ['a NUL character in the rate source', { rateSource: 'fix\u0000ed' }, /text must not contain NUL characters/],
      ['a negative tip', { tipMinor: -1n }, /tip_minor must not be negative/],
      ['a tip that with the tax exceeds the amount', { tipMinor: 1001n }, /tax_minor \+ tip_minor must not exceed amount_minor/],
      [
        'a restore that claims money left',
        { type: RESTORED, settlement: Settlement.SETTLEMENT_BSV_WALLET },
        /not valid for prepaid.restored/,
      ],
      [
        "the last part of an order whose lines are the whole order's, but add up to less than the part",
        {
          linesOfWholeOrder: true,
          lines: [{ itemId: '', name: 'Latte', quantity: 1n, unitPriceMinor: 1000n, taxMinor: 70n, totalMinor: 1070n }],
        },
        /the lines' total_minor add up to 1070, less than amount_minor - tip_minor 1075; the lines' tax_minor add up to 70, less than tax_minor 75/,
      ],
      ['a tip on a gift card sale', { type: ISSUED, taxMinor: 0n, tipMinor: 100n }, /prepaid.issued carries no tip/],
      ['a negative commission', { commissionMinor: -1n }, /commission_minor must not be negative/],
      ['a commission above what was sold', { commissionMinor: 1001n }, /commission_minor must not exceed what was sold/],
      [
        'a commission on a gift card sale',
        { type: ISSUED, taxMinor: 0n, commissionMinor: 100n },
        /commission_minor is carried by a sale paid with money/,
      ],
      [
        'line items that add up to the amount with its tip',
        {
          amountMinor: 1275n,
          tipMinor: 200n,
          lines: [{ itemId: '', name: 'Latte', quantity: 1n, unitPriceMinor: 1200n, taxMinor: 75n, totalMinor: 1275n }],
        },
        /the lines' total_minor add up to 1275, not amount_minor - tip_minor 1075/,
      ],
    ] as const)('with %s is parked whole, logged as an error, and posts nothing', async (_, overrides, reason) => {
      const organizationId = randomUUID();
      const event = newEvent(organizationId, overrides as Partial<PaymentEvent>);
      expect(await books.post(event)).toBe('parked');
      const parked = await books.deps.parked.find(event.id);
      expect(parked?.reason).toMatch(reason);
      expect(PaymentEvent.decode(parked?.payload ?? new Uint8Array())).toEqual(event);
      expect(books.logged.error).toHaveBeenCalledWith(
        expect.objectContaining({ eventId: event.id, reason: parked?.reason }),
        expect.any(String),
      );
      expect(await books.prisma.journalEntry.count({ where: { eventId: event.id } })).toBe(0);
      expect(await books.prisma.account.count({ where: { organizationId } })).toBe(0);
    });

    it('names every problem it has in the reason', async () => {
      const event = newEvent(randomUUID(), { currency: 'usd', taxMinor: 2000n });
      await books.post(event);
      expect((await books.deps.parked.find(event.id))?.reason).toBe(
        'currency must be an ISO 4217 code of three upper-case letters; tax_minor must not exceed amount_minor, which includes it',
      );
    });

    it('is reported parked again on redelivery, parked once and logged as an error once', async () => {
      const event = newEvent(randomUUID(), { taxMinor: 5000n });
      const outcomes = [await books.post(event), ...(await Promise.all([books.post(event), books.post(event)]))];
      expect(outcomes).toEqual(['parked', 'parked', 'parked']);
      expect(await books.prisma.parkedEvent.count({ where: { eventId: event.id } })).toBe(1);
      expect(books.logged.error).toHaveBeenCalledTimes(1);
      expect(books.logged.warn).toHaveBeenCalledTimes(2);
    });

    it('without an id is parked under a hash of its bytes', async () => {
      const event = newEvent(randomUUID(), { id: '' });
      expect(await books.post(event)).toBe('parked');
      expect(await books.post(event)).toBe('parked');
      const parked = await books.prisma.parkedEvent.findMany({ where: { organizationId: event.organizationId } });
      expect(parked).toHaveLength(1);
      expect(parked[0]?.eventId).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(parked[0]?.reason).toBe('id must be 1 to 200 characters');
    });
  });
});
