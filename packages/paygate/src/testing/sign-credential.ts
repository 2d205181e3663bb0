import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

export type SigningKey = { kid: string; privateKey: KeyObject; x: string };

/** A fresh Ed25519 key as the gate holds it: the kid, the private key, and `x` (base64url raw public key) as published. */
export function newSigningKey(kid: string): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { kid, privateKey, x: publicKey.export({ format: 'jwk' }).x as string };
}

/** A compact JWS as the contract's gate signs a credential: header `{alg: EdDSA, kid, typ: ctk402}`, Ed25519 over `header.payload`. */
export function signCredential(key: SigningKey, claims: Record<string, unknown>, header: Record<string, unknown> = {}): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signingInput = `${encode({ alg: 'EdDSA', kid: key.kid, typ: 'ctk402', ...header })}.${encode(claims)}`;
  return `${signingInput}.${sign(null, Buffer.from(signingInput), key.privateKey).toString('base64url')}`;
}
