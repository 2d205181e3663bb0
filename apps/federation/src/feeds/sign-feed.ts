import { PrivateKey } from '@bsv/sdk';
import { AppError, invalidInput } from '@ctk/shared';
import { PROOF_TYPE, type FeedDocument, type FeedProof, type ProofPurpose } from './feed-document.js';
import { feedDigest } from './feed-digest.js';
import { readSignature, signDigest, verifyDigest } from './feed-signature.js';

/**
 * The feed signed by its origin instance: every proof it had is replaced by one instance proof (a merchant
 * proof signed an earlier digest and would no longer verify; the merchant signs the new one again).
 * `failed_precondition` when the key is not the feed's `ctk:origin.publicKey`: such a feed would verify nowhere.
 */
export function signFeed(doc: FeedDocument, instanceKey: PrivateKey, now: Date): FeedDocument {
  const publicKey = instanceKey.toPublicKey().toString();
  if (publicKey !== doc['ctk:origin'].publicKey) {
    throw new AppError('failed_precondition', "The signing key is not the feed's origin key (ctk:origin.publicKey).", {
      field: 'ctk:origin.publicKey',
    });
  }
  const digest = feedDigest(doc);
  return withProofs(doc, [proof('ctk:instance', publicKey, digest, signDigest(instanceKey, digest), now)]);
}

/**
 * The feed with the merchant's own proof beside the instance's: a signature (DER hex) the merchant made in its
 * wallet over the feed's digest with its identity key (`about["ctk:publicKey"]`). It replaces an earlier merchant proof.
 * `validation_failed` naming `signature` when it is not such a signature; `failed_precondition` when the feed names no identity key.
 */
export function addMerchantProof(doc: FeedDocument, signatureDerHex: string, now: Date): FeedDocument {
  const identityKey = doc.about['ctk:publicKey'];
  if (identityKey === undefined) {
    throw new AppError(
      'failed_precondition',
      'The feed names no merchant identity key (about.ctk:publicKey) to verify a merchant proof with.',
      {
        field: 'about.ctk:publicKey',
      },
    );
  }
  const signature = readSignature(signatureDerHex);
  if (signature === null) {
    throw invalidInput([{ field: 'signature', message: 'must be an ECDSA signature in strict DER with low S, as hex' }], 'merchant proof');
  }
  const digest = feedDigest(doc);
  const derHex = signatureDerHex.toLowerCase();
  if (!verifyDigest(identityKey, digest, derHex)) {
    throw invalidInput(
      [{ field: 'signature', message: `does not verify over the feed's digest ${digest} with the merchant's identity key ${identityKey}` }],
      'merchant proof',
    );
  }
  const kept = (doc.proof ?? []).filter((p) => p.proofPurpose !== 'ctk:merchant');
  return withProofs(doc, [...kept, proof('ctk:merchant', identityKey, digest, derHex, now)]);
}

function proof(proofPurpose: ProofPurpose, publicKey: string, digest: string, signature: string, now: Date): FeedProof {
  const created = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return { type: PROOF_TYPE, proofPurpose, publicKey, created, digest, signature };
}

function withProofs(doc: FeedDocument, proofs: FeedProof[]): FeedDocument {
  const { proof: _old, ...unsigned } = doc;
  return { ...unsigned, proof: proofs };
}
