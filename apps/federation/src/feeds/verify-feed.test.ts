import { BigNumber, Curve, PrivateKey, PublicKey, Signature } from '@bsv/sdk';
import { describe, expect, it } from 'vitest';
import { buildFeed } from './build-feed.js';
import type { FeedDocument } from './feed-document.js';
import { feedDigest, signedBytes } from './feed-digest.js';
import { signDigest } from './feed-signature.js';
import { parseFeed } from './parse-feed.js';
import { SAMPLE_INSTANCE_KEY, SAMPLE_NOW, sampleItem, sampleSource } from './sample-feed.js';
import { signFeed } from './sign-feed.js';
import { verifyFeed } from './verify-feed.js';

const OTHER_KEY = PrivateKey.fromString('0c28fca386c7a227600b2fe50b7cae11ec86d3bf1fbe471be89827e19d72aa1d', 'hex');
const signed = () => signFeed(buildFeed(sampleSource()), SAMPLE_INSTANCE_KEY, SAMPLE_NOW);
const refusedAt = (field: string) => expect.objectContaining({ code: 'validation_failed', details: expect.objectContaining({ field }) });
/** A deep copy whose members are in reverse order at every level (arrays keep theirs: order is data there). */
const reordered = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(reordered)
    : typeof value === 'object' && value !== null
      ? Object.fromEntries(
          Object.entries(value)
            .reverse()
            .map(([k, v]) => [k, reordered(v)]),
        )
      : value;
/** The document changed by `change`, its proofs left as they were. */
const tampered = (change: (doc: FeedDocument) => void): FeedDocument => {
  const doc = structuredClone(signed());
  change(doc);
  return doc;
};

describe('signFeed and verifyFeed', () => {
  it('a built and signed feed verifies; its instance proof is by the origin key over the digest', () => {
    const doc = signed();
    const { digest, merchantSigned } = verifyFeed(doc);
    expect(merchantSigned).toBe(false);
    expect(doc.proof).toEqual([
      {
        type: 'ctk:EcdsaSecp256k1Jcs',
        proofPurpose: 'ctk:instance',
        publicKey: doc['ctk:origin'].publicKey,
        created: '2026-11-28T10:00:00Z',
        digest,
        signature: expect.stringMatching(/^30[0-9a-f]+$/),
      },
    ]);
    // The signature is plain ECDSA over sha256 of the canonical bytes: the SDK's PublicKey.verify(bytes, sig) agrees.
    const signature = Signature.fromDER(doc.proof?.[0]?.signature ?? '', 'hex');
    expect(PublicKey.fromString(doc['ctk:origin'].publicKey).verify(signedBytes(doc), signature)).toBe(true);
  });

  it('the digest is stable under member reordering (RFC 8785) and through JSON', () => {
    const doc = signed();
    expect(JSON.stringify(reordered(doc))).not.toBe(JSON.stringify(doc));
    const shuffled = parseFeed(JSON.parse(JSON.stringify(reordered(doc))), { maxItems: 10 });
    expect(feedDigest(shuffled)).toBe(feedDigest(doc));
    expect(verifyFeed(shuffled).digest).toBe(verifyFeed(doc).digest);
    expect(feedDigest(reordered(doc) as FeedDocument)).toBe(feedDigest(doc));
  });

  it.each<[string, (doc: FeedDocument) => void]>([
    ["an item's ctk:priceMinor", (doc) => void (doc.dataFeedElement[0]!.offers['ctk:priceMinor'] = 45)],
    ["an item's price", (doc) => void (doc.dataFeedElement[0]!.offers.price = '0.45')],
    ['an added item', (doc) => void doc.dataFeedElement.push(structuredClone({ ...doc.dataFeedElement[0]!, productID: 'extra' }))],
    ["the business's name", (doc) => void (doc.about.name = 'Red Bottle')],
    ['the sequence', (doc) => void (doc['ctk:sequence'] = 4)],
    ["an opaque member's content (hours)", (doc) => void (doc.about['ctk:hours'] = { regular: [] })],
  ])('refuses %s changed after signing, naming the proof signature', (_what, change) => {
    expect(() => verifyFeed(tampered(change))).toThrow(refusedAt('feed.proof[0].signature'));
    expect(() => verifyFeed(tampered(change))).toThrow(/changed after signing/);
  });

  it("refuses a feed whose origin key was swapped for another key's", () => {
    const doc = tampered((d) => void (d['ctk:origin'].publicKey = OTHER_KEY.toPublicKey().toString()));
    expect(() => verifyFeed(doc)).toThrow(refusedAt('feed.proof[0].signature'));
    expect(() => verifyFeed(doc)).toThrow(/another key/);
  });

  it('refuses a feed re-signed with another key while the origin key stayed', () => {
    const doc = buildFeed(sampleSource());
    const digest = feedDigest(doc);
    const byOther = { type: 'ctk:EcdsaSecp256k1Jcs', proofPurpose: 'ctk:instance', created: '2026-11-28T10:00:00Z', digest } as const;
    const named = {
      ...doc,
      proof: [{ ...byOther, publicKey: OTHER_KEY.toPublicKey().toString(), signature: signDigest(OTHER_KEY, digest) }],
    };
    expect(() => verifyFeed(named)).toThrow(refusedAt('feed.proof[0].signature'));
    expect(() => verifyFeed(named)).toThrow(/another key/);
    // Nor does it help to claim the origin's key for the other key's signature.
    const claimed = { ...doc, proof: [{ ...byOther, publicKey: doc['ctk:origin'].publicKey, signature: signDigest(OTHER_KEY, digest) }] };
    expect(() => verifyFeed(claimed)).toThrow(refusedAt('feed.proof[0].signature'));
    // signFeed itself will not sign with a key that is not the origin's.
    expect(() => signFeed(doc, OTHER_KEY, SAMPLE_NOW)).toThrow(expect.objectContaining({ code: 'failed_precondition' }));
  });

  it('refuses the same signature with the high S (one signature, one spelling)', () => {
    const doc = signed();
    const proof = doc.proof![0]!;
    const low = Signature.fromDER(proof.signature, 'hex');
    const high = new Signature(low.r, new Curve().n.sub(low.s) as BigNumber).toDER('hex') as string;
    expect(() => verifyFeed({ ...doc, proof: [{ ...proof, signature: high }] })).toThrow(refusedAt('feed.proof[0].signature'));
  });

  it('refuses a feed that has no canonical JSON form, naming feed', () => {
    expect(() => verifyFeed(tampered((d) => void (d.about.name = 'Blue \ud800')))).toThrow(refusedAt('feed'));
  });

  it('refuses a feed with no instance proof, or two', () => {
    const doc = signed();
    expect(() => verifyFeed(buildFeed(sampleSource()))).toThrow(refusedAt('feed.proof'));
    expect(() => verifyFeed({ ...doc, proof: [doc.proof![0]!, doc.proof![0]!] })).toThrow(refusedAt('feed.proof'));
  });

  it('a feed without items or place signs and verifies too', () => {
    const doc = signFeed(buildFeed(sampleSource({ items: [], latitude: null, longitude: null })), SAMPLE_INSTANCE_KEY, SAMPLE_NOW);
    expect(verifyFeed(doc).merchantSigned).toBe(false);
    expect(() => verifyFeed({ ...doc, dataFeedElement: [buildFeed(sampleSource({ items: [sampleItem()] })).dataFeedElement[0]!] })).toThrow(
      refusedAt('feed.proof[0].signature'),
    );
  });
});
