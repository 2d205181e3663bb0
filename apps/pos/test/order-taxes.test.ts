import { randomUUID } from 'node:crypto';
import type { BooksServiceDefinition, GetTaxSettingsRequest } from '@ctk/proto/ctk/books/v1/books';
import {
  announcementsOn,
  inProcessTransport,
  TAX_SETTINGS_CHANGED_SUBJECT,
  type EventTransport,
  type GrpcClient,
  type Org,
} from '@ctk/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { orderTaxes } from '../src/orders/order-tax.js';

/** books as pos sees it: each organisation's jurisdiction, asked for and changed by the test. */
function fakeBooks() {
  const jurisdictions = new Map<string, string>();
  const asked: string[] = [];
  let answering: Promise<void> = Promise.resolve();
  const client = {
    async getTaxSettings(request: GetTaxSettingsRequest) {
      const id = request.organizationIds[0]!;
      asked.push(id);
      const jurisdiction = jurisdictions.get(id) ?? '';
      await answering;
      return { settings: [{ organizationId: id, jurisdiction, pricesIncludeTax: false, rate: undefined }] };
    },
  } as unknown as GrpcClient<typeof BooksServiceDefinition>;
  return {
    client,
    asked,
    set: (org: Org, jurisdiction: string) => jurisdictions.set(org.id, jurisdiction),
    /** Holds books's answers until the returned function is called. */
    hold() {
      let release!: () => void;
      answering = new Promise((resolve) => (release = resolve));
      return release;
    },
  };
}

const org = (): Org => ({ id: randomUUID(), handle: 'cafe' }) as Org;
const transports: EventTransport[] = [];
afterEach(async () => {
  for (const transport of transports.splice(0)) await transport.close();
});

function setUp(options: { keepSeconds?: number; transport?: EventTransport } = {}) {
  const books = fakeBooks();
  const transport = options.transport ?? inProcessTransport();
  transports.push(transport);
  const taxes = orderTaxes({ books: books.client, announcements: announcementsOn(transport), keepSeconds: options.keepSeconds ?? 60 });
  const changed = (changedOrg: Org, jurisdiction: string) => {
    books.set(changedOrg, jurisdiction);
    return transport.announce!(TAX_SETTINGS_CHANGED_SUBJECT, Buffer.from(changedOrg.id));
  };
  return { books, taxes, changed };
}

describe("pos's copy of each organisation's tax settings (decision 0053)", () => {
  it('asks books once for many orders, and again for the next order once books announces a change', async () => {
    const { books, taxes, changed } = setUp();
    const cafe = org();
    const other = org();
    books.set(cafe, 'GB');
    books.set(other, 'FR');
    expect((await taxes.of(cafe)).jurisdiction).toBe('GB');
    expect((await taxes.of(cafe)).jurisdiction).toBe('GB');
    expect((await taxes.of(other)).jurisdiction).toBe('FR');
    expect(books.asked).toEqual([cafe.id, other.id]);

    await changed(cafe, 'DE');
    expect((await taxes.of(cafe)).jurisdiction).toBe('DE');
    expect((await taxes.of(other)).jurisdiction).toBe('FR');
    expect(books.asked).toEqual([cafe.id, other.id, cafe.id]);
  });

  it('does not keep an answer that a change announced while it was asked for may have made stale', async () => {
    const { books, taxes, changed } = setUp();
    const cafe = org();
    books.set(cafe, 'GB');
    const release = books.hold();
    const asking = taxes.of(cafe);
    await changed(cafe, 'DE');
    release();
    expect((await asking).jurisdiction).toBe('GB');
    expect((await taxes.of(cafe)).jurisdiction).toBe('DE');
  });

  it('keeps nothing where it cannot hear of changes, nor with keepSeconds 0', async () => {
    const deaf = { publish: async () => undefined, consume: async () => ({ stop: async () => undefined }), close: async () => undefined };
    for (const options of [{ transport: deaf }, { keepSeconds: 0 }]) {
      const { books, taxes } = setUp(options);
      const cafe = org();
      books.set(cafe, 'GB');
      await taxes.of(cafe);
      books.set(cafe, 'DE');
      expect((await taxes.of(cafe)).jurisdiction).toBe('DE');
      expect(books.asked).toHaveLength(2);
    }
  });

  it('forgets everything when told changes may have gone by unheard, and keeps nothing while not listening', async () => {
    const books = fakeBooks();
    let missed!: () => void;
    const listening = { up: true };
    const taxes = orderTaxes({
      books: books.client,
      announcements: {
        announce: async () => undefined,
        listen: (_subject, listener) => {
          missed = () => listener.missed();
          return { listening: () => listening.up, stop: () => undefined };
        },
      },
      keepSeconds: 60,
    });
    const cafe = org();
    books.set(cafe, 'GB');
    await taxes.of(cafe);
    books.set(cafe, 'DE');
    expect((await taxes.of(cafe)).jurisdiction).toBe('GB');
    missed();
    expect((await taxes.of(cafe)).jurisdiction).toBe('DE');
    expect(books.asked).toHaveLength(2);
    // Not listening (the connection down): every order asks, and nothing is kept for when it is back.
    listening.up = false;
    books.set(cafe, 'FR');
    expect((await taxes.of(cafe)).jurisdiction).toBe('FR');
    listening.up = true;
    books.set(cafe, 'NL');
    expect((await taxes.of(cafe)).jurisdiction).toBe('NL');
    expect(books.asked).toHaveLength(4);
  });
});
