import { verify } from 'node:crypto';
import { coversMethod } from '@ctk/shared';
import { decodeToken, type CredentialClaims } from '../credential-token.js';
import { coversPath } from '../match-resource.js';
import { BoundedMap } from './bounded-map.js';
import type { UseCounter } from './count-uses.js';
import type { PriceList } from './price-list.js';
import type { PublishedDocument } from './published-document.js';

/** Why a credential was not accepted here. */
export type CredentialRefusal =
  | 'malformed'
  | 'bad_signature'
  | 'wrong_issuer'
  | 'other_account'
  | 'expired'
  | 'wrong_method'
  | 'wrong_path'
  | 'other_price'
  | 'revoked_resource'
  | 'revoked_credential'
  | 'calls_used_up';

/** Why a credential could not be judged here: the gate judges it (and counts its use) instead. */
export type CredentialDoubt = 'no_document' | 'no_prices' | 'unknown_key' | 'account_unknown';

export type CredentialVerdict =
  { ok: true; claims: CredentialClaims } | { ok: false; refusal: CredentialRefusal } | { ok: false; doubt: CredentialDoubt };

/** A token longer than this is not one the gate issued (they are a few hundred bytes). */
export const MAX_TOKEN_LENGTH = 4096;

export type CredentialCheck = {
  /** Judges a credential for a request and, when it passes, counts the use of a calls grant. No network. */
  check(
    token: string,
    method: string,
    path: string,
    nowSeconds: number,
    document: PublishedDocument | undefined,
    prices: PriceList | undefined,
  ): CredentialVerdict;
  /** Forgets verified tokens whose key is gone or changed. */
  clear(): void;
};

/**
 * The local check of the contract: an Ed25519 signature by a key of the published document, the issuer,
 * the account (`sub`), `exp`, the request's method and path, the revocation lists and, for calls grants,
 * the uses counted in this process. A token whose signature verified is cached (bounded LRU), so a
 * repeated credential costs a map lookup and the checks that can change between uses.
 */
export function credentialCheck({
  cacheSize,
  uses,
  account,
}: {
  cacheSize: number;
  uses: UseCounter;
  account: () => string | undefined;
}): CredentialCheck {
  const verified = new BoundedMap<string, CredentialClaims>(cacheSize);

  const verifySignature = (token: string, document: PublishedDocument): CredentialVerdict => {
    if (token.length > MAX_TOKEN_LENGTH) return { ok: false, refusal: 'malformed' };
    const decoded = decodeToken(token);
    if (!decoded) return { ok: false, refusal: 'malformed' };
    const key = document.keys.get(decoded.kid);
    if (!key) return { ok: false, doubt: 'unknown_key' };
    if (decoded.signature.length !== 64 || !verify(null, Buffer.from(decoded.signingInput), key, decoded.signature))
      return { ok: false, refusal: 'bad_signature' };
    verified.set(token, decoded.claims);
    return { ok: true, claims: decoded.claims };
  };

  return {
    check(token, method, path, nowSeconds, document, prices) {
      if (!document) return { ok: false, doubt: 'no_document' };
      let claims = verified.get(token);
      if (!claims) {
        const verdict = verifySignature(token, document);
        if (!verdict.ok) return verdict;
        claims = verdict.claims;
      }
      const refusal = refusalOf(claims, { method, path, nowSeconds }, document, prices, account());
      if (refusal) return refusal;
      if (claims.calls !== undefined && !uses.take(claims.jti, claims.calls, claims.exp)) return { ok: false, refusal: 'calls_used_up' };
      return { ok: true, claims };
    },
    clear: () => verified.clear(),
  };
}

/** What may have changed since the signature was verified: the clock, the revocations, the prices, the request. */
function refusalOf(
  claims: CredentialClaims,
  { method, path, nowSeconds }: { method: string; path: string; nowSeconds: number },
  document: PublishedDocument,
  prices: PriceList | undefined,
  account: string | undefined,
): CredentialVerdict | undefined {
  if (claims.iss !== undefined && claims.iss !== document.issuer) return { ok: false, refusal: 'wrong_issuer' };
  // One signing key serves every account of an instance: a credential bought from another account's gate is not one for this server.
  if (account === undefined) return { ok: false, doubt: 'account_unknown' };
  if (claims.sub !== account) return { ok: false, refusal: 'other_account' };
  if (claims.exp <= nowSeconds) return { ok: false, refusal: 'expired' };
  if (document.revokedResources.has(claims.res)) return { ok: false, refusal: 'revoked_resource' };
  if (document.revokedCredentials.has(claims.jti)) return { ok: false, refusal: 'revoked_credential' };
  if (!coversMethod(claims.mth, method)) return { ok: false, refusal: 'wrong_method' };
  if (!coversPath(claims.pth, path)) return { ok: false, refusal: 'wrong_path' };
  // "/weather/*" covers "/weather/premium", which a price of its own may price higher: the gate takes the most specific.
  if (!prices) return { ok: false, doubt: 'no_prices' };
  const pricing = prices.pricing(method, path);
  if (pricing !== undefined && pricing !== claims.res) return { ok: false, refusal: 'other_price' };
  return undefined;
}
