import { Hash, Utils } from '@bsv/sdk';
import canonicalize from 'canonicalize';
import { invalidInput } from '@ctk/shared';
import type { FeedDocument } from './feed-document.js';

/** The bytes a feed's proofs sign: the RFC 8785 (JCS) canonical JSON of the document without its `proof`, UTF-8. */
export function signedBytes(doc: FeedDocument): number[] {
  const { proof: _proof, ...unsigned } = doc;
  let json: string | undefined;
  try {
    json = canonicalize(unsigned);
  } catch {
    json = undefined; // a lone surrogate or a non-finite number: no RFC 8785 form
  }
  if (json === undefined) throw invalidInput([{ field: 'feed', message: 'has no canonical JSON form (RFC 8785)' }], 'feed');
  return Array.from(new TextEncoder().encode(json));
}

/** Hex sha256 of {@link signedBytes}: the same for any order of members, different for any change of a value. */
export function feedDigest(doc: FeedDocument): string {
  return Utils.toHex(Hash.sha256(signedBytes(doc)));
}
