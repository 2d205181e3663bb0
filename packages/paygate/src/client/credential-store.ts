import { decodeToken } from '../credential-token.js';
import { coversRequest } from '../match-resource.js';

/** A credential a payment bought, and what it covers (read from its claims: the client verifies nothing). */
export type StoredCredential = {
  token: string;
  /** Sent to this origin only. */
  origin: string;
  method: string;
  path: string;
  /** Unix seconds. */
  expiresAt: number;
};

/** Where a paying client keeps its credentials: in memory by default; the wallet keeps them in its file. */
export type CredentialStore = {
  find(origin: string, method: string, path: string, nowSeconds: number): StoredCredential | undefined;
  save(credential: StoredCredential): void;
  drop(token: string): void;
};

/** A credential from an answer's `x-ctk-credential`, for the origin it came from; undefined when unreadable. */
export function storedCredential(token: string, url: string): StoredCredential | undefined {
  const decoded = decodeToken(token);
  if (!decoded) return undefined;
  return { token, origin: new URL(url).origin, method: decoded.claims.mth, path: decoded.claims.pth, expiresAt: decoded.claims.exp };
}

/** The first unexpired credential of `credentials` that covers a request to `origin`. */
export function findCredential(
  credentials: Iterable<StoredCredential>,
  origin: string,
  method: string,
  path: string,
  nowSeconds: number,
): StoredCredential | undefined {
  for (const credential of credentials)
    if (
      credential.origin === origin &&
      credential.expiresAt > nowSeconds &&
      coversRequest(credential.method, credential.path, method, path)
    )
      return credential;
  return undefined;
}

export function memoryCredentialStore(): CredentialStore {
  const credentials = new Map<string, StoredCredential>();
  return {
    find(origin, method, path, nowSeconds) {
      for (const [token, credential] of credentials) if (credential.expiresAt <= nowSeconds) credentials.delete(token);
      return findCredential(credentials.values(), origin, method, path, nowSeconds);
    },
    save: (credential) => void credentials.set(credential.token, credential),
    drop: (token) => void credentials.delete(token),
  };
}
