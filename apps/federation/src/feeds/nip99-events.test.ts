import { PrivateKey } from '@bsv/sdk';
import type { NostrEvent } from 'nostr-tools';
import { getPublicKey, verifyEvent } from 'nostr-tools/pure';
import { describe, expect, it } from 'vitest';
import { buildFeed } from './build-feed.js';
import { nip99Events, nostrSecretKey } from './nip99-events.js';
import { SAMPLE_INSTANCE_KEY, SAMPLE_NOW, sampleItem, sampleSource } from './sample-feed.js';
import { signFeed } from './sign-feed.js';

const secretKey = nostrSecretKey(SAMPLE_INSTANCE_KEY);
const feed = () => signFeed(buildFeed(sampleSource()), SAMPLE_INSTANCE_KEY, SAMPLE_NOW);

describe('nip99Events', () => {
  it("signs with the instance's own key: Nostr sees the x-only form of the origin key", () => {
    expect(secretKey).toHaveLength(32);
    expect(getPublicKey(secretKey)).toBe(SAMPLE_INSTANCE_KEY.toPublicKey().toString().slice(-64));
    const events = nip99Events(feed(), secretKey);
    expect(events.map((e) => e.pubkey)).toEqual([getPublicKey(secretKey), getPublicKey(secretKey)]);
  });

  it('makes one verifying kind-30402 event per item, dated by the item, with the NIP-99 tags and a link to the feed', () => {
    const doc = feed();
    const [latte, croissant] = nip99Events(doc, secretKey);
    expect(latte && verifyEvent(latte)).toBe(true);
    expect(croissant && verifyEvent(croissant)).toBe(true);
    expect(latte).toMatchObject({
      kind: 30402,
      created_at: Date.parse('2026-11-28T09:00:00Z') / 1000,
      content: 'Double shot, steamed oat milk.\nAsk for it iced.',
    });
    expect(latte?.tags).toEqual([
      ['d', '0b7f8a52-3c1e-4c8e-9a55-6f1f2d3e4a5b'],
      ['title', 'Oat milk latte'],
      ['summary', 'Double shot, steamed oat milk.'],
      ['published_at', String(Date.parse('2026-11-28T10:00:00Z') / 1000)],
      ['price', '4.50', 'USD'],
      ['t', 'coffee'],
      ['image', 'https://img.example/latte.jpg'],
      ['g', '9q8y'],
      ['g', '9q8yy'],
      ['g', '9q8yym'],
      ['g', '9q8yym4'],
      ['location', 'Blue Bottle'],
      ['r', 'http://127.0.0.1:4001/api/v1/feeds/blue-bottle'],
    ]);
    // No category, image or description: no t, image or summary tag.
    expect(croissant?.tags.map(([name]) => name)).toEqual(['d', 'title', 'published_at', 'price', 'g', 'g', 'g', 'g', 'location', 'r']);
    expect(croissant?.tags).toContainEqual(['price', '0.05', 'USD']);
  });

  it('a summary is the first line, at most 200 characters; no g tags without a place', () => {
    const long = `${'é'.repeat(250)}\nsecond line`;
    const doc = buildFeed(sampleSource({ latitude: null, longitude: null, items: [sampleItem({ description: `\n${long}` })] }));
    const [event] = nip99Events(doc, secretKey);
    expect(event?.tags.find(([name]) => name === 'summary')).toEqual(['summary', 'é'.repeat(200)]);
    expect(event?.tags.some(([name]) => name === 'g')).toBe(false);
  });

  it('a tampered event fails verification', () => {
    const [event] = nip99Events(feed(), secretKey);
    // As a relay hands it on: plain JSON. (verifyEvent marks an object it verified; a spread copy would keep the mark.)
    const wire = () => JSON.parse(JSON.stringify(event)) as NostrEvent;
    expect(verifyEvent({ ...wire(), content: 'Now free!' })).toBe(false);
    expect(verifyEvent(wire())).toBe(true);
    expect(verifyEvent({ ...event!, content: 'Now free!' })).toBe(false);
    expect(verifyEvent({ ...event!, tags: [...event!.tags.filter(([name]) => name !== 'price'), ['price', '0.01', 'USD']] })).toBe(false);
  });

  it("refuses a key that is not the feed's origin key", () => {
    const other = nostrSecretKey(PrivateKey.fromString('0c28fca386c7a227600b2fe50b7cae11ec86d3bf1fbe471be89827e19d72aa1d', 'hex'));
    expect(() => nip99Events(feed(), other)).toThrow(expect.objectContaining({ code: 'failed_precondition' }));
  });
});
