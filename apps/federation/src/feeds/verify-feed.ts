import { invalidInput } from '@ctk/shared';
import type { FeedDocument, FeedProof } from './feed-document.js';
import { feedDigest } from './feed-digest.js';
import { verifyDigest } from './feed-signature.js';

/** What a verified feed proves: its digest, and whether its merchant signed it too. */
export type FeedVerification = { digest: string; merchantSigned: boolean };

/**
 * Checks where a feed came from and that nothing changed after signing: exactly one instance proof, by the
 * key of `ctk:origin`, over the feed's digest; at most one merchant proof, by `about["ctk:publicKey"]`, which
 * must verify too. `validation_failed` naming the failing proof's field (`feed.proof[0].signature`) otherwise.
 * Read untrusted input with {@link parseFeed} first.
 */
export function verifyFeed(doc: FeedDocument): FeedVerification {
  const proofs = doc.proof ?? [];
  const instance = proofs.filter((p) => p.proofPurpose === 'ctk:instance');
  const merchant = proofs.filter((p) => p.proofPurpose === 'ctk:merchant');
  if (instance.length !== 1) refuse('feed.proof', `must hold exactly one ctk:instance proof (it holds ${instance.length})`);
  if (merchant.length > 1) refuse('feed.proof', `must hold at most one ctk:merchant proof (it holds ${merchant.length})`);
  const digest = feedDigest(doc);
  proofs.forEach((p, index) => check(doc, p, index, digest));
  return { digest, merchantSigned: merchant.length === 1 };
}

function check(doc: FeedDocument, p: FeedProof, index: number, digest: string): void {
  const field = `feed.proof[${index}].signature`;
  const instance = p.proofPurpose === 'ctk:instance';
  const expected = instance ? doc['ctk:origin'].publicKey : doc.about['ctk:publicKey'];
  const whose = instance ? "the origin's key (ctk:origin.publicKey)" : "the merchant's identity key (about.ctk:publicKey)";
  if (expected === undefined) refuse(field, 'is a merchant proof, but the feed names no merchant identity key (about.ctk:publicKey)');
  if (p.publicKey !== expected) refuse(field, `was signed by another key (${p.publicKey}) than ${whose}`);
  if (p.digest !== digest) {
    refuse(field, `signed digest ${p.digest}, but the feed's digest is ${digest}: the feed changed after signing`);
  }
  if (!verifyDigest(expected, digest, p.signature)) {
    refuse(field, `does not verify with ${whose}: the feed changed after signing or was signed by another key`);
  }
}

function refuse(field: string, message: string): never {
  throw invalidInput([{ field, message }], 'feed');
}
