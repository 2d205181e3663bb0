import { createPublicKey, type KeyObject } from 'node:crypto';
import { z } from 'zod';

const documentSchema = z.object({
  issuer: z.string(),
  keys: z
    .array(
      z.object({
        kid: z.string().min(1).max(200),
        alg: z.string(),
        crv: z.string(),
        x: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'a base64url raw 32-byte key'),
      }),
    )
    .max(100),
  revoked: z.object({ resources: z.array(z.string()), credentials: z.array(z.string()) }),
  max_age_seconds: z.number().int().positive(),
});
export type PublishedDocumentJson = z.input<typeof documentSchema>;

/** The gate's `/.well-known/ctk-paygate.json`, ready for checks: keys as KeyObjects, revocations as sets. */
export type PublishedDocument = {
  issuer: string;
  keys: ReadonlyMap<string, KeyObject>;
  revokedResources: ReadonlySet<string>;
  revokedCredentials: ReadonlySet<string>;
  maxAgeSeconds: number;
};

/**
 * Reads a published document; undefined when it is not one. A KeyObject is made once per kid and key:
 * `previous` lends the ones already made, so a refresh every 30 s parses no key twice.
 */
export function readDocument(json: unknown, previous?: PublishedDocument): PublishedDocument | undefined {
  const parsed = documentSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const keys = new Map<string, KeyObject>();
  for (const key of parsed.data.keys) {
    // Only Ed25519 signs credentials: a key of another kind is not one of ours, and cannot verify one.
    if (key.alg !== 'EdDSA' || key.crv !== 'Ed25519') continue;
    const known = previous?.keys.get(key.kid);
    keys.set(key.kid, known && known.export({ format: 'jwk' }).x === key.x ? known : publicKey(key.x));
  }
  return {
    issuer: parsed.data.issuer,
    keys,
    revokedResources: new Set(parsed.data.revoked.resources),
    revokedCredentials: new Set(parsed.data.revoked.credentials),
    maxAgeSeconds: parsed.data.max_age_seconds,
  };
}

function publicKey(x: string): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
}

/** Whether a token verified under `before` still verifies under `after`: each of its keys is still published, unchanged. */
export function sameKeys(before: PublishedDocument, after: PublishedDocument): boolean {
  for (const [kid, key] of before.keys) if (after.keys.get(kid) !== key) return false;
  return true;
}
