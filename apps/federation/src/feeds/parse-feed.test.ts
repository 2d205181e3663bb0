import { describe, expect, it } from 'vitest';
import { buildFeed } from './build-feed.js';
import { parseFeed } from './parse-feed.js';
import { SAMPLE_INSTANCE_KEY, SAMPLE_NOW, sampleSource } from './sample-feed.js';
import { signFeed } from './sign-feed.js';
import { verifyFeed } from './verify-feed.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- untrusted JSON, changed at will
const LIMITS = { maxItems: 5 };
/** The signed sample feed as JSON from the wire, changed by `change`. */
const received = (change: (doc: Json) => void = () => {}): Json => {
  const doc = JSON.parse(JSON.stringify(signFeed(buildFeed(sampleSource()), SAMPLE_INSTANCE_KEY, SAMPLE_NOW))) as Json;
  change(doc);
  return doc;
};
const refusedAt = (field: string) => expect.objectContaining({ code: 'validation_failed', details: expect.objectContaining({ field }) });

describe('parseFeed', () => {
  it('reads a signed feed from JSON without changing a character: it still verifies', () => {
    const doc = parseFeed(received(), LIMITS);
    expect(verifyFeed(doc).merchantSigned).toBe(false);
  });

  it('passes any JSON through the opaque hours and opening hours, unknown members and all', () => {
    const doc = parseFeed(
      received((d) => {
        d.about['ctk:hours'] = { regular: [{ anything: { nested: [1, 'two', null, true] } }], special: [], override: { closed: true } };
        d.about.openingHoursSpecification = [{ '@type': 'OpeningHoursSpecification', validFrom: '2026-12-24', whatever: 1 }];
      }),
      LIMITS,
    );
    expect(doc.about['ctk:hours']).toHaveProperty('override');
  });

  it.each<[string, string, (doc: Json) => void]>([
    [
      'more items than the limit',
      'feed.dataFeedElement',
      (d) => void d.dataFeedElement.push(...Array.from({ length: 4 }, () => d.dataFeedElement[0])),
    ],
    [
      'a duplicate productID',
      'feed.dataFeedElement[1].productID',
      (d) => void (d.dataFeedElement[1].productID = d.dataFeedElement[0].productID),
    ],
    [
      'a float in ctk:priceMinor',
      'feed.dataFeedElement[0].offers.ctk:priceMinor',
      (d) => void (d.dataFeedElement[0].offers['ctk:priceMinor'] = 4.5),
    ],
    [
      'a negative ctk:priceMinor',
      'feed.dataFeedElement[0].offers.ctk:priceMinor',
      (d) => void (d.dataFeedElement[0].offers['ctk:priceMinor'] = -450),
    ],
    ['a price that is not ctk:priceMinor', 'feed.dataFeedElement[0].offers.price', (d) => void (d.dataFeedElement[0].offers.price = '4.5')],
    ['a negative satoshis', 'feed.dataFeedElement[0].offers.ctk:satoshis', (d) => void (d.dataFeedElement[0].offers['ctk:satoshis'] = -1)],
    [
      'satoshis beyond 21 million bitcoin',
      'feed.dataFeedElement[0].offers.ctk:satoshis',
      (d) => void (d.dataFeedElement[0].offers['ctk:satoshis'] = 2.1e15 + 1),
    ],
    ['a javascript: image URL', 'feed.dataFeedElement[0].image[0]', (d) => void (d.dataFeedElement[0].image = ['javascript:alert(1)'])],
    ['a data: business image', 'feed.about.image', (d) => void (d.about.image = 'data:image/png;base64,AAAA')],
    ['a NUL in a name', 'feed.about.name', (d) => void (d.about.name = 'Blue\u0000Bottle')],
    ['a control character in an item name', 'feed.dataFeedElement[0].name', (d) => void (d.dataFeedElement[0].name = 'Latte\u001b[31m')],
    ['a bidirectional override in a name', 'feed.dataFeedElement[0].name', (d) => void (d.dataFeedElement[0].name = 'Latte\u202e')],
    [
      'a control character in a description',
      'feed.dataFeedElement[0].description',
      (d) => void (d.dataFeedElement[0].description = 'a\u0007b'),
    ],
    ['an unknown member at the top', 'feed.extra', (d) => void (d.extra = 1)],
    [
      'an unknown member in an offer',
      'feed.dataFeedElement[0].offers.discount',
      (d) => void (d.dataFeedElement[0].offers.discount = '10%'),
    ],
    ['an unknown member in a proof', 'feed.proof[0].note', (d) => void (d.proof[0].note = 'hi')],
    ['a bad currency', 'feed.dataFeedElement[0].offers.priceCurrency', (d) => void (d.dataFeedElement[0].offers.priceCurrency = 'usd')],
    ['a bad handle', 'feed.identifier', (d) => void (d.identifier = 'Blue_Bottle')],
    ['an @id not of the origin and handle', 'feed.@id', (d) => void (d['@id'] = 'http://127.0.0.1:4001/api/v1/feeds/red-bottle')],
    ["a business that is not the feed's", 'feed.about.identifier', (d) => void (d.about.identifier = 'red-bottle')],
    ['an origin URL with a path', 'feed.ctk:origin.url', (d) => void (d['ctk:origin'].url = 'http://127.0.0.1:4001/shop')],
    ['an origin key that is not a point', 'feed.ctk:origin.publicKey', (d) => void (d['ctk:origin'].publicKey = `02${'00'.repeat(32)}`)],
    ['a latitude off the map', 'feed.about.geo.latitude', (d) => void (d.about.geo.latitude = 91)],
    ['geohash cells not of geo', 'feed.about.ctk:geohash', (d) => void (d.about['ctk:geohash'] = ['u4pr', 'u4pru', 'u4pruy', 'u4pruyd'])],
    ['an unknown time zone', 'feed.about.ctk:timeZone', (d) => void (d.about['ctk:timeZone'] = 'Mars/Olympus')],
    ['a local date-time', 'feed.dateModified', (d) => void (d.dateModified = '2026-11-28T10:00:00+01:00')],
    ['a NUL inside the hours', 'feed.about.ctk:hours', (d) => void (d.about['ctk:hours'] = { regular: ['\u0000'] })],
    ['hours over 64 KB', 'feed.about.ctk:hours', (d) => void (d.about['ctk:hours'] = { regular: ['x'.repeat(70_000)] })],
    [
      'opening hours that are not objects',
      'feed.about.openingHoursSpecification[0]',
      (d) => void (d.about.openingHoursSpecification = ['Mo-Fr']),
    ],
    ['a third proof', 'feed.proof', (d) => void d.proof.push(d.proof[0], d.proof[0])],
    ['another @context', 'feed.@context[1].ctk', (d) => void (d['@context'][1].ctk = 'https://evil.example/ns#')],
  ])('refuses %s, naming %s', (_what, field, change) => {
    expect(() => parseFeed(received(change), LIMITS)).toThrow(refusedAt(field));
  });

  it('refuses hours nested deeper than any hours are', () => {
    let deep: unknown = {};
    for (let i = 0; i < 10_000; i++) deep = { deeper: deep };
    expect(() =>
      parseFeed(
        received((d) => void (d.about['ctk:hours'] = deep)),
        LIMITS,
      ),
    ).toThrow(refusedAt('feed.about.ctk:hours'));
  });

  it('refuses what is not a feed at all, naming feed', () => {
    for (const input of [null, 'feed', [], 42]) expect(() => parseFeed(input, LIMITS)).toThrow(refusedAt('feed'));
  });

  it('turns a huge item list away before reading one item', () => {
    const doc = received((d) => void (d.dataFeedElement = Array.from({ length: 100_000 }, () => ({}))));
    expect(() => parseFeed(doc, LIMITS)).toThrow(refusedAt('feed.dataFeedElement'));
  });
});
