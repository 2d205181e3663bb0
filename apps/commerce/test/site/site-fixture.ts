import type { CatalogItem } from '@ctk/proto/ctk/commerce/v1/commerce';
import { DEFAULT_LOOK } from '../../src/site/site-settings.js';
import type { SiteSource } from '../../src/site/site-source.js';

export const LATTE_ID = '1b7e3c9a-5d2f-4a8e-9c6b-0e4a2f8d6c31';
export const SCONE_ID = '6f0d2b8e-9a4c-4e1f-b3d7-2c5a8e1f0b94';
const EVIL_ID = '0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';

export const item = (fields: Partial<CatalogItem> & { id: string; name: string }): CatalogItem => ({
  description: '',
  priceMinor: 100n,
  currency: 'USD',
  priceType: 'fixed',
  soldOut: false,
  modifiers: [],
  ...fields,
});

/** A cafe with a place, a paymail, hours, a commerce key, and three items (one named to break out of a script). */
export function cafeSource(change: Partial<SiteSource> = {}): SiteSource {
  const items = [
    item({
      id: LATTE_ID,
      name: 'Oat milk latte',
      description: 'Double shot, steamed oat milk',
      priceMinor: 575n,
      category: 'Coffee',
      modifiers: [{ id: 'c2a1f0de-43b5-4d8e-a6f1-5b2c9e7d8a10', name: 'Large', priceMinor: 50n, group: 'Size' }],
    }),
    item({ id: SCONE_ID, name: 'Scone', priceMinor: 325n, category: 'Bakery', soldOut: true }),
    item({ id: EVIL_ID, name: '</script><script>alert(1)</script> & "friends"', priceMinor: 1n, category: 'Coffee' }),
  ];
  return {
    handle: 'blue-bottle',
    look: { ...DEFAULT_LOOK, tagline: 'Coffee roasted on Mission Street', about: 'We roast every morning.\n\nOat milk <free>.' },
    profile: {
      name: 'Blue Bottle Cafe',
      timeZone: 'America/Los_Angeles',
      latitude: 37.7765,
      longitude: -122.4172,
      category: 'Cafe',
      paymail: 'cafe@pay.example.com',
    },
    catalog: {
      sections: [
        { name: 'Coffee', itemIds: [LATTE_ID, EVIL_ID] },
        { name: 'Bakery', itemIds: [SCONE_ID] },
      ],
      items,
    },
    hours: {
      regular: [
        { day: 'mon', opens: '07:00', closes: '17:00' },
        { day: 'sat', opens: '08:00', closes: '24:00' },
        { day: 'sun', opens: '22:00', closes: '02:00' },
      ],
      special: [
        { date: '2026-12-25', periods: [], note: 'Closed for Christmas' },
        { date: '2026-01-01', periods: [], note: 'Long past' },
      ],
      timeZone: 'America/Los_Angeles',
    },
    today: '2026-11-29',
    publicUrl: 'https://pay.example.com',
    buy: {
      script: { src: 'https://pay.example.com/checkout/v1/checkout.js', integrity: 'sha384-abc+/=' },
      commerceKey: 'ctk_pk_test',
    },
    ...change,
  };
}

/** Each `<script type="application/ld+json">` of a page, parsed. */
export function jsonLdOf(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((match) => JSON.parse(match[1]!));
}
