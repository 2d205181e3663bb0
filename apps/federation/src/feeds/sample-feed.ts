import { PrivateKey } from '@bsv/sdk';
import type { FeedItemSource, FeedSource } from './build-feed.js';

/** A fixed instance key for tests and examples (never a real one). */
export const SAMPLE_INSTANCE_KEY = PrivateKey.fromString('4f3edf983ac636a65a842ce7c78d9aa706d3b113bce9c46f30d7d21715b23b1d', 'hex');

/** A fixed merchant identity key for tests and examples (never a real one). */
export const SAMPLE_MERCHANT_KEY = PrivateKey.fromString('6cbed15c793ce57650b9877cf6fa156fbef513c4e6134f022a85b1ffdd59b2a1', 'hex');

/** The moment the sample feed is published and signed. */
export const SAMPLE_NOW = new Date('2026-11-28T10:00:00Z');

/** A sample item: an oat milk latte at 4.50 USD; `overrides` change any field. */
export function sampleItem(overrides: Partial<FeedItemSource> = {}): FeedItemSource {
  return {
    id: '0b7f8a52-3c1e-4c8e-9a55-6f1f2d3e4a5b',
    name: 'Oat milk latte',
    description: 'Double shot, steamed oat milk.\nAsk for it iced.',
    priceMinor: 450,
    currency: 'USD',
    satoshis: 22500,
    category: 'Coffee',
    inventory: 12,
    available: true,
    images: ['https://img.example/latte.jpg'],
    updatedAt: new Date('2026-11-28T09:00:00Z'),
    ...overrides,
  };
}

/** A sample café, Blue Bottle, on an instance at http://127.0.0.1:4001 with two items; `overrides` change any field. */
export function sampleSource(overrides: Partial<FeedSource> = {}): FeedSource {
  return {
    originUrl: 'http://127.0.0.1:4001',
    originPublicKey: SAMPLE_INSTANCE_KEY.toPublicKey().toString(),
    handle: 'blue-bottle',
    name: 'Blue Bottle',
    description: 'Coffee on Mint Plaza.',
    url: 'https://bluebottle.example',
    latitude: 37.7765,
    longitude: -122.4172,
    category: 'Cafe',
    timeZone: 'America/Los_Angeles',
    hours: { regular: [{ day: 1, opens: '07:00', closes: '18:00' }], special: [] },
    openingHours: [{ '@type': 'OpeningHoursSpecification', dayOfWeek: 'https://schema.org/Monday', opens: '07:00', closes: '18:00' }],
    paymail: 'blue-bottle@127.0.0.1:4001',
    identityKey: SAMPLE_MERCHANT_KEY.toPublicKey().toString(),
    items: [
      sampleItem(),
      sampleItem({
        id: 'c2d4e6f8-1a3b-4c5d-8e9f-0a1b2c3d4e5f',
        name: 'Croissant',
        description: '',
        priceMinor: 5,
        category: null,
        inventory: null,
        available: false,
        images: [],
      }),
    ],
    sequence: 3,
    publishedAt: SAMPLE_NOW,
    rateAt: SAMPLE_NOW,
    ...overrides,
  };
}
