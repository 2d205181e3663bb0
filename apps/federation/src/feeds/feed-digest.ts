import { Hash, Utils } from '@bsv/sdk';
import canonicalize from 'canonicalize';
import { AppError } from '@ctk/shared';
import type { FeedDocument } from './feed-document.js';

/** The bytes a feed's proofs sign: the RFC 8785 (JCS) canonical JSON of the document without its `proof`, UTF-8. */
export function signedBytes(doc: FeedDocument): number[] {
  const { proof: _proof, ...unsigned } = doc;
  const json = canonicalize(unsigned);
  if (json === undefined) throw new AppError('internal', 'The feed has no canonical JSON form.');
  return Array.from(new TextEncoder().encode(json));
}

/** Hex sha256 of {@link signedBytes}: the same for any order of members, different for any change of a value. */
export function feedDigest(doc: FeedDocument): string {
  return Utils.toHex(Hash.sha256(signedBytes(doc)));
}
