import { z } from 'zod';

/** A credential's header: `{"alg": "EdDSA", "kid", "typ": "ctk402"}`. */
const headerSchema = z.object({ alg: z.literal('EdDSA'), kid: z.string().min(1).max(200), typ: z.literal('ctk402') });

const seconds = z.number().int().nonnegative();

/** A credential's claims: what a payment bought (the contract's "The credential"). */
export const claimsSchema = z.object({
  /** The contract names it; the gate as built (decision 0021) leaves it out: the signing key already names the instance. */
  iss: z.string().optional(),
  sub: z.string(),
  jti: z.string().min(1).max(200),
  res: z.string(),
  mth: z.string(),
  pth: z.string().startsWith('/'),
  /** Absent for a window grant. */
  calls: z.number().int().positive().optional(),
  iat: seconds,
  exp: seconds,
});
export type CredentialClaims = z.infer<typeof claimsSchema>;

export type DecodedToken = { kid: string; claims: CredentialClaims; signingInput: string; signature: Buffer };

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * A compact JWS split and its JSON read, nothing verified: undefined when it is not a credential's shape.
 * The server verifies the signature afterwards; the client only reads which resource a token covers.
 */
export function decodeToken(token: string): DecodedToken | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  if (!BASE64URL.test(header) || !BASE64URL.test(payload) || !BASE64URL.test(signature)) return undefined;
  const parsedHeader = headerSchema.safeParse(parseJson(header));
  const parsedClaims = claimsSchema.safeParse(parseJson(payload));
  if (!parsedHeader.success || !parsedClaims.success) return undefined;
  return {
    kid: parsedHeader.data.kid,
    claims: parsedClaims.data,
    signingInput: `${header}.${payload}`,
    signature: Buffer.from(signature, 'base64url'),
  };
}

function parseJson(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}
