// A prepaid gift card used at the counter (decision 0017): staff open an order and pay all of it with a card the
// customer presents (POST /api/pos/prepaid-cards/:id/use); the 200 is "paid". pos posts the use as
// `prepaid.redeemed`, with no txid and the order's id as its source id. No answer of the API shows an order's
// id, so the driver reads it from the merchant's ledger, whose entry names the order by its number in
// `source_reference` (see LedgerReader): the payment resolves once the books have it, or after PATIENCE_MS with an id that matches
// no entry, so that the check counts it lost.
// Cards: CARDS_PER_MERCHANT a merchant, issued and paid (BIP270) in setup, each worth CARD_MINOR; the
// payments go round them. A payment takes one croissant, $3.49 with tax: the cards hold some 57,000 payments a
// merchant, 286,000 over the five, so none runs out in a run of 100,000; none is topped up.
import { call, retried, type Accepted, type Bench, type Json, type PaymentPath } from '../path.js';
import { bearer, onboardCafes, openOrder, payRequest, type Merchant } from './counter-bip270.js';

const CARDS_PER_MERCHANT = 4;
/** $50,000: its selling order (5e8 satoshis at 100 a cent) is paid from one faucet coin (at most 1e9). */
const CARD_MINOR = 5_000_000;
/** How long an accepted use may take to reach the books before it is taken as lost. */
const PATIENCE_MS = 180_000;

const sleep = (ms: number) => new Promise((later) => setTimeout(later, ms));

type Card = { id: string; identifier: string };

/**
 * The source ids of a merchant's card uses, read from its ledger as it grows (one reader a merchant, each
 * read from the page before the last one read, since entries are listed by when they occurred and one posted
 * a moment late may land on a page already read), kept by the order number the entry names (`source_reference`).
 */
class LedgerReader {
  private readonly ids = new Map<string, string>();
  private readonly cursors = [''];
  private reading: Promise<void> | undefined;

  constructor(
    private readonly bench: Bench,
    private readonly merchant: Merchant,
  ) {}

  /** The source id of the use on `orderNumber`, once the ledger shows it; undefined after `patienceMs`. */
  async sourceIdOf(orderNumber: string, patienceMs: number): Promise<string | undefined> {
    for (const until = Date.now() + patienceMs; !this.ids.has(orderNumber) && Date.now() < until; await sleep(250)) {
      this.reading ??= this.read().finally(() => (this.reading = undefined));
      // A read that failed (a fault) is read again at the next turn.
      await this.reading.catch(() => undefined);
    }
    return this.ids.get(orderNumber);
  }

  private async read(): Promise<void> {
    const from = Math.max(0, this.cursors.length - 2);
    this.cursors.length = from + 1;
    for (let cursor = this.cursors[from]!; ;) {
      const page: Json = await call(
        'the ledger',
        'GET',
        `${this.bench.base}/api/v1/orgs/${this.merchant.handle}/ledger?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        undefined,
        bearer(this.merchant),
      );
      for (const entry of page.data as Json[]) {
        if (entry.event_type === 'prepaid.redeemed' && entry.source_reference) this.ids.set(entry.source_reference, entry.source_id);
      }
      if (!page.next_cursor) return;
      cursor = page.next_cursor;
      this.cursors.push(cursor);
    }
  }
}

type CardMerchant = { merchant: Merchant; cards: Card[]; ledger: LedgerReader };
let merchants: CardMerchant[] = [];

/** Staff issue a card; the customer's wallet pays the order that sells it (BIP270), which makes it active. */
async function issueCard(bench: Bench, merchant: Merchant, key: string): Promise<Card> {
  const issued: Json = await retried('issue a card', () =>
    call(
      'issue a card',
      'POST',
      `${bench.base}/api/pos/prepaid-cards`,
      { org_handle: merchant.handle, amount_minor: CARD_MINOR, currency: 'USD' },
      { ...bearer(merchant), 'idempotency-key': key },
      201,
    ),
  );
  await payRequest(bench, issued.order.payment_request_url);
  return { id: issued.card.id, identifier: issued.card.identifier };
}

/**
 * The card pays the whole order (no amount: what is due). The route takes no Idempotency-Key, and a second
 * use of a paid order is refused (409): after a failure the till reads the order, and a card payment on it
 * is this one's (the order is this payment's alone).
 */
async function useCard(bench: Bench, { merchant }: CardMerchant, card: Card, orderNumber: string): Promise<void> {
  const body = { org_handle: merchant.handle, identifier: card.identifier, order_number: orderNumber };
  await retried('the card use', async () => {
    try {
      await call('the card use', 'POST', `${bench.base}/api/pos/prepaid-cards/${card.id}/use`, body, bearer(merchant));
    } catch (error) {
      const order: Json = await call('read the order', 'GET', `${bench.base}/api/pos/orders/${orderNumber}`);
      if (order.card_paid_minor !== order.total_minor) throw error;
    }
  });
}

export const path: PaymentPath = {
  name: 'card-use',

  async setup(bench) {
    merchants = [];
    for (const merchant of await onboardCafes(bench, 'Card Use Cafe')) {
      const cards: Card[] = [];
      for (let i = 0; i < CARDS_PER_MERCHANT; i++) cards.push(await issueCard(bench, merchant, `card-${i}`));
      const listed: Json = await call(
        'the cards',
        'GET',
        `${bench.base}/api/v1/orgs/${merchant.handle}/prepaid-cards`,
        undefined,
        bearer(merchant),
      );
      const inactive = (listed.data as Json[]).filter((card) => card.status !== 'active');
      if (inactive.length) throw new Error(`${merchant.handle}: cards not active once paid: ${JSON.stringify(inactive).slice(0, 300)}`);
      merchants.push({ merchant, cards, ledger: new LedgerReader(bench, merchant) });
    }
  },

  async pay(bench, n): Promise<Accepted> {
    const at = merchants[n % merchants.length]!;
    const card = at.cards[Math.floor(n / merchants.length) % at.cards.length]!;
    const croissant = at.merchant.items[1];
    const order = await openOrder(bench, at.merchant, [{ item_id: croissant.id, quantity: 1 }], `card-use-${n}`);
    await useCard(bench, at, card, order.order_number);
    const sourceId = (await at.ledger.sourceIdOf(order.order_number, PATIENCE_MS)) ?? `not in the books: order ${order.order_number}`;
    return { path: 'card-use', org: at.merchant.handle, key: at.merchant.key, eventType: 'prepaid.redeemed', sourceId };
  },
};
