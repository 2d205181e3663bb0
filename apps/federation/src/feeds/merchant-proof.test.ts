import { PrivateKey } from '@bsv/sdk';
import { describe, expect, it } from 'vitest';
import { buildFeed } from './build-feed.js';
import { feedDigest, signedBytes } from './feed-digest.js';
import { signDigest } from './feed-signature.js';
import { SAMPLE_INSTANCE_KEY, SAMPLE_MERCHANT_KEY, SAMPLE_NOW, sampleSource } from './sample-feed.js';
import { addMerchantProof, signFeed } from './sign-feed.js';
import { verifyFeed } from './verify-feed.js';

const OTHER_KEY = PrivateKey.fromString('0c28fca386c7a227600b2fe50b7cae11ec86d3bf1fbe471be89827e19d72aa1d', 'hex');
const LATER = new Date('2026-11-28T10:05:00Z');
const signed = () => signFeed(buildFeed(sampleSource()), SAMPLE_INSTANCE_KEY, SAMPLE_NOW);
const refusedAt = (field: string) => expect.objectContaining({ code: 'validation_failed', details: expect.objectContaining({ field }) });

describe('addMerchantProof', () => {
  it("accepts the merchant's signature of the digest by its identity key: the feed then verifies as merchant-signed", () => {
    const doc = signed();
    const withMerchant = addMerchantProof(doc, signDigest(SAMPLE_MERCHANT_KEY, feedDigest(doc)), LATER);
    expect(withMerchant.proof?.map((p) => [p.proofPurpose, p.publicKey, p.created])).toEqual([
      ['ctk:instance', doc['ctk:origin'].publicKey, '2026-11-28T10:00:00Z'],
      ['ctk:merchant', doc.about['ctk:publicKey'], '2026-11-28T10:05:00Z'],
    ]);
    expect(verifyFeed(withMerchant)).toEqual({ digest: feedDigest(doc), merchantSigned: true });
  });

  it('accepts what a wallet makes of the signed bytes (ECDSA over their sha256), in upper-case hex too', () => {
    const doc = signed();
    const fromWallet = SAMPLE_MERCHANT_KEY.sign(signedBytes(doc)).toDER('hex') as string;
    expect(verifyFeed(addMerchantProof(doc, fromWallet.toUpperCase(), LATER)).merchantSigned).toBe(true);
  });

  it("refuses a signature by another key than the merchant's, naming signature", () => {
    const doc = signed();
    expect(() => addMerchantProof(doc, signDigest(OTHER_KEY, feedDigest(doc)), LATER)).toThrow(refusedAt('signature'));
    // The instance's own signature is not the merchant's either.
    expect(() => addMerchantProof(doc, doc.proof![0]!.signature, LATER)).toThrow(refusedAt('signature'));
  });

  it('refuses a signature of another digest, or one that is not DER', () => {
    const doc = signed();
    const stale = signDigest(SAMPLE_MERCHANT_KEY, feedDigest(buildFeed(sampleSource({ sequence: 2 }))));
    expect(() => addMerchantProof(doc, stale, LATER)).toThrow(refusedAt('signature'));
    expect(() => addMerchantProof(doc, 'not-hex', LATER)).toThrow(refusedAt('signature'));
    expect(() => addMerchantProof(doc, `${signDigest(SAMPLE_MERCHANT_KEY, feedDigest(doc))}00`, LATER)).toThrow(refusedAt('signature'));
  });

  it('refuses when the feed names no merchant identity key', () => {
    const doc = signFeed(buildFeed(sampleSource({ identityKey: null })), SAMPLE_INSTANCE_KEY, SAMPLE_NOW);
    expect(() => addMerchantProof(doc, signDigest(SAMPLE_MERCHANT_KEY, feedDigest(doc)), LATER)).toThrow(
      expect.objectContaining({ code: 'failed_precondition' }),
    );
  });

  it('a second merchant proof replaces the first', () => {
    const doc = signed();
    const signature = signDigest(SAMPLE_MERCHANT_KEY, feedDigest(doc));
    const twice = addMerchantProof(addMerchantProof(doc, signature, LATER), signature, LATER);
    expect(twice.proof?.map((p) => p.proofPurpose)).toEqual(['ctk:instance', 'ctk:merchant']);
  });

  it('a re-sign by the instance drops the merchant proof (it signed an older digest)', () => {
    const doc = signed();
    const withMerchant = addMerchantProof(doc, signDigest(SAMPLE_MERCHANT_KEY, feedDigest(doc)), LATER);
    const republished = signFeed({ ...withMerchant, 'ctk:sequence': 4 }, SAMPLE_INSTANCE_KEY, LATER);
    expect(republished.proof?.map((p) => p.proofPurpose)).toEqual(['ctk:instance']);
    expect(verifyFeed(republished).merchantSigned).toBe(false);
  });

  it('verifyFeed refuses a merchant proof by another key, or one left from an earlier digest', () => {
    const doc = signed();
    const digest = feedDigest(doc);
    const instance = doc.proof![0]!;
    const forged = {
      ...instance,
      proofPurpose: 'ctk:merchant' as const,
      publicKey: doc.about['ctk:publicKey']!,
      signature: signDigest(OTHER_KEY, digest),
    };
    expect(() => verifyFeed({ ...doc, proof: [instance, forged] })).toThrow(refusedAt('feed.proof[1].signature'));
    const withMerchant = addMerchantProof(doc, signDigest(SAMPLE_MERCHANT_KEY, digest), LATER);
    const resigned = signFeed({ ...doc, 'ctk:sequence': 4 }, SAMPLE_INSTANCE_KEY, LATER);
    const kept = { ...resigned, proof: [...resigned.proof!, withMerchant.proof![1]!] };
    expect(() => verifyFeed(kept)).toThrow(refusedAt('feed.proof[1].signature'));
    expect(() => verifyFeed({ ...withMerchant, proof: [...withMerchant.proof!, withMerchant.proof![1]!] })).toThrow(
      refusedAt('feed.proof'),
    );
  });
});
