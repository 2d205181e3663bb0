import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/** What a credential says: who it is for, what it pays for, until when (docs/decisions/0021-payment-gate.md). */
export type CredentialClaims = {
  /** The payment-gate account. */
  sub: string;
  /** The gate payment that bought it. */
  jti: string;
  res: string;
  mth: string;
  pth: string;
  /** Calls bought; absent for a time window. */
  calls?: number;
  iat: number;
  exp: number;
};

export type SigningKey = { kid: string; privateKey: KeyObject; publicKey: KeyObject; x: string };

// The DER prefix of a PKCS#8 Ed25519 private key, before its 32-byte seed (RFC 8410).
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The Ed25519 key credentials are signed with, from its 32-byte seed; its id is the first 8 bytes of SHA-256 of the public key. */
export function signingKeyOf(seed: Buffer): SigningKey {
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  return { kid: createHash('sha256').update(raw).digest('hex').slice(0, 16), privateKey, publicKey, x: raw.toString('base64url') };
}

/** A compact JWS (EdDSA) of the claims: what the middleware checks with the published key, no call needed. */
export function signCredential(key: SigningKey, claims: CredentialClaims): string {
  const header = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: key.kid, typ: 'ctk402' })).toString('base64url');
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const signature = sign(null, Buffer.from(`${header}.${payload}`), key.privateKey).toString('base64url');
  return `${header}.${payload}.${signature}`;
}

/** The claims of a credential this key signed, or undefined for anything else (another key, a forgery, not a JWS). */
export function readCredential(key: SigningKey, token: string): CredentialClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || token.length > 4096) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  try {
    const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown; kid?: unknown };
    if (head.alg !== 'EdDSA' || head.kid !== key.kid) return undefined;
    if (!verify(null, Buffer.from(`${header}.${payload}`), key.publicKey, Buffer.from(signature, 'base64url'))) return undefined;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as CredentialClaims;
    return typeof claims.jti === 'string' && typeof claims.exp === 'number' ? claims : undefined;
  } catch {
    return undefined;
  }
}
