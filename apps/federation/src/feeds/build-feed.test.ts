import { describe, expect, it } from 'vitest';
import { buildFeed } from './build-feed.js';
import { parseFeed } from './parse-feed.js';
import { SAMPLE_INSTANCE_KEY, sampleItem, sampleSource } from './sample-feed.js';

describe('buildFeed', () => {
  it('builds the JSON-LD document of a shop and its catalog, unsigned', () => {
    const doc = buildFeed(sampleSource());
    expect(doc['@id']).toBe('http://127.0.0.1:4001/api/v1/feeds/blue-bottle');
    expect(doc['ctk:origin']).toEqual({ url: 'http://127.0.0.1:4001', publicKey: SAMPLE_INSTANCE_KEY.toPublicKey().toString() });
    expect(doc.dateModified).toBe('2026-11-28T10:00:00Z');
    expect(doc['ctk:rateAt']).toBe('2026-11-28T10:00:00Z');
    expect(doc.about.geo).toEqual({ '@type': 'GeoCoordinates', latitude: 37.7765, longitude: -122.4172 });
    expect(doc.about['ctk:geohash']).toEqual(['9q8y', '9q8yy', '9q8yym', '9q8yym4']);
    expect(doc.proof).toBeUndefined();
    expect(doc.dataFeedElement[0]).toEqual({
      '@type': 'Product',
      productID: '0b7f8a52-3c1e-4c8e-9a55-6f1f2d3e4a5b',
      name: 'Oat milk latte',
      description: 'Double shot, steamed oat milk.\nAsk for it iced.',
      category: 'Coffee',
      image: ['https://img.example/latte.jpg'],
      dateModified: '2026-11-28T09:00:00Z',
      offers: {
        '@type': 'Offer',
        price: '4.50',
        priceCurrency: 'USD',
        'ctk:priceMinor': 450,
        'ctk:satoshis': 22500,
        availability: 'https://schema.org/InStock',
        inventoryLevel: { '@type': 'QuantitativeValue', value: 12 },
      },
    });
    expect(doc.dataFeedElement[1]?.offers).toEqual({
      '@type': 'Offer',
      price: '0.05',
      priceCurrency: 'USD',
      'ctk:priceMinor': 5,
      'ctk:satoshis': 22500,
      availability: 'https://schema.org/OutOfStock',
    });
  });

  it('leaves out what is not known: place, rate, satoshis, paymail, identity key', () => {
    const doc = buildFeed(
      sampleSource({
        latitude: null,
        longitude: null,
        rateAt: null,
        paymail: null,
        identityKey: null,
        items: [sampleItem({ satoshis: null })],
      }),
    );
    expect(doc.about).not.toHaveProperty('geo');
    expect(doc.about).not.toHaveProperty('ctk:geohash');
    expect(doc.about).not.toHaveProperty('ctk:paymail');
    expect(doc.about).not.toHaveProperty('ctk:publicKey');
    expect(doc).not.toHaveProperty('ctk:rateAt');
    expect(doc.dataFeedElement[0]?.offers).not.toHaveProperty('ctk:satoshis');
  });

  it('builds only what any instance accepts: parseFeed reads it back unchanged', () => {
    const doc = buildFeed(sampleSource());
    expect(parseFeed(JSON.parse(JSON.stringify(doc)), { maxItems: 2 })).toEqual(doc);
  });

  it('refuses a source the feed cannot carry, naming the field', () => {
    expect(() => buildFeed(sampleSource({ name: 'Blue\u0007Bottle' }))).toThrow(
      expect.objectContaining({ code: 'validation_failed', details: expect.objectContaining({ field: 'feed.about.name' }) }),
    );
    expect(() => buildFeed(sampleSource({ items: [sampleItem({ priceMinor: 4.5 })] }))).toThrow(
      expect.objectContaining({ code: 'validation_failed' }),
    );
    expect(() => buildFeed(sampleSource({ longitude: null }))).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ field: 'longitude' }) }),
    );
  });

  it('spells the origin as the URL standard does, and shows a negative inventory as 0', () => {
    const doc = buildFeed(sampleSource({ originUrl: 'HTTPS://Shop.Example:443/', items: [sampleItem({ inventory: -3 })] }));
    expect(doc['ctk:origin'].url).toBe('https://shop.example');
    expect(doc['@id']).toBe('https://shop.example/api/v1/feeds/blue-bottle');
    expect(doc.dataFeedElement[0]?.offers.inventoryLevel?.value).toBe(0);
  });
});
