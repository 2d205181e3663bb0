import { createPrivateKey, generateKeyPair, randomInt, type KeyObject } from 'node:crypto';
import type { Logger } from '@ctk/shared';
import type { Config } from '../config.js';

/** Who signs Google Wallet save links: the service account (its email is the JWT's issuer) and the Wallet issuer id. */
export type GoogleWalletAccount = {
  clientEmail: string;
  privateKey: KeyObject;
  /** The service account key's id, named in the JWT header (none for the development key). */
  keyId: string | undefined;
  issuerId: string;
  /** Signed by a key pos made itself: Google refuses the link. */
  development: boolean;
};

type GoogleConfig = Pick<Config, 'POS_GOOGLE_SERVICE_ACCOUNT' | 'POS_GOOGLE_ISSUER_ID'>;

export const DEVELOPMENT_CLIENT_EMAIL = 'wallet-passes@development.commerce-toolkit.invalid';

/**
 * The Google Wallet account of this configuration. Configured, the service account's key is read now (an
 * RSA key, or pos stops at start naming the variable). Unset, a development RSA key and issuer id are made in
 * memory for the first save link, as Apple's development certificate is made for the first pass (logged once, at
 * start): a 2048-bit RSA key takes a core a tenth of a second or more, which a start needs for itself (decision 0069).
 */
export function googleWalletAccount(config: GoogleConfig, logger: Logger): () => Promise<GoogleWalletAccount> {
  const { POS_GOOGLE_SERVICE_ACCOUNT: json, POS_GOOGLE_ISSUER_ID: issuerId } = config;
  if (json === undefined && issuerId === undefined) {
    logger.warn(
      'Google Wallet save links are development links: POS_GOOGLE_SERVICE_ACCOUNT and POS_GOOGLE_ISSUER_ID are unset, so pos signs them with a key it made (Google refuses them)',
    );
    let account: Promise<GoogleWalletAccount> | undefined;
    return () => (account ??= developmentAccount());
  }
  if (json === undefined || issuerId === undefined) {
    throw new Error(
      'Invalid configuration: set POS_GOOGLE_SERVICE_ACCOUNT and POS_GOOGLE_ISSUER_ID together for Google Wallet passes, or neither.',
    );
  }
  const account = configuredAccount(json, issuerId);
  return () => Promise.resolve(account);
}

function configuredAccount(json: string, issuerId: string): GoogleWalletAccount {
  const serviceAccount = JSON.parse(json) as { client_email: string; private_key: string; private_key_id?: unknown };
  let privateKey: KeyObject | undefined;
  try {
    privateKey = createPrivateKey(serviceAccount.private_key);
  } catch {
    // reported below
  }
  if (privateKey?.asymmetricKeyType !== 'rsa') {
    throw new Error("Invalid configuration: POS_GOOGLE_SERVICE_ACCOUNT's private_key is not a readable RSA private key");
  }
  return {
    clientEmail: serviceAccount.client_email,
    privateKey,
    keyId: typeof serviceAccount.private_key_id === 'string' ? serviceAccount.private_key_id : undefined,
    issuerId,
    development: false,
  };
}

async function developmentAccount(): Promise<GoogleWalletAccount> {
  const privateKey = await new Promise<KeyObject>((resolve, reject) =>
    generateKeyPair('rsa', { modulusLength: 2048 }, (error, _publicKey, key) => (error ? reject(error) : resolve(key))),
  );
  // Issuer ids are 19-digit numbers; this one is no issuer's.
  const issuerId = `3${Array.from({ length: 18 }, () => randomInt(10)).join('')}`;
  return { clientEmail: DEVELOPMENT_CLIENT_EMAIL, privateKey, keyId: undefined, issuerId, development: true };
}
