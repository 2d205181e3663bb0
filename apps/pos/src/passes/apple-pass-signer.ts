import { createRequire } from 'node:module';
import type { Logger } from '@ctk/shared';
import type forge from 'node-forge';
import type { Config } from '../config.js';

/** Who signs Apple passes: the pass type and team they are issued for, and the certificates passkit-generator signs with. */
export type ApplePassSigner = {
  passTypeIdentifier: string;
  teamIdentifier: string;
  certificates: { wwdr: string; signerCert: string; signerKey: string; signerKeyPassphrase?: string };
  /** Signed by a certificate pos made itself: Wallet refuses the pass. */
  development: boolean;
};

type AppleConfig = Pick<
  Config,
  | 'POS_APPLE_PASS_CERT'
  | 'POS_APPLE_PASS_KEY'
  | 'POS_APPLE_PASS_KEY_PASSPHRASE'
  | 'POS_APPLE_WWDR_CERT'
  | 'POS_APPLE_PASS_TYPE_ID'
  | 'POS_APPLE_TEAM_ID'
>;

const REQUIRED = [
  'POS_APPLE_PASS_CERT',
  'POS_APPLE_PASS_KEY',
  'POS_APPLE_WWDR_CERT',
  'POS_APPLE_PASS_TYPE_ID',
  'POS_APPLE_TEAM_ID',
] as const;
type ConfiguredApple = AppleConfig & Record<(typeof REQUIRED)[number], string>;
export const DEVELOPMENT_PASS_TYPE_ID = 'pass.dev.commerce-toolkit.loyalty';
export const DEVELOPMENT_TEAM_ID = 'CTKDEV0000';

/**
 * The Apple pass signer of this configuration. Configured, it is checked now, so that a certificate that
 * cannot sign stops pos at start naming the variable: each PEM readable, the key opened with its
 * passphrase and the pass certificate's own, the certificate issued for the pass type. Unset, a
 * development certificate is made in memory for the first pass (logged once, at start).
 */
export function applePassSigner(config: AppleConfig, logger: Logger): () => Promise<ApplePassSigner> {
  const set = REQUIRED.filter((name) => config[name] !== undefined);
  if (set.length === 0) {
    logger.warn(
      { passTypeIdentifier: DEVELOPMENT_PASS_TYPE_ID },
      'Apple Wallet passes are development passes: POS_APPLE_PASS_CERT and the rest are unset, so pos signs them with a certificate it made (Wallet refuses them)',
    );
    // Made for the first pass, not at start: signing its two certificates takes about 0.1 s of the one thread.
    let signer: Promise<ApplePassSigner> | undefined;
    // node-forge, which writes them, is loaded then too (about 0.1 s to load on its own: decision 0054).
    return () =>
      (signer ??= import('./development-certificates.js')
        .then(({ developmentPassCertificate }) => developmentPassCertificate(DEVELOPMENT_PASS_TYPE_ID, DEVELOPMENT_TEAM_ID))
        .then((issued) => ({
          passTypeIdentifier: DEVELOPMENT_PASS_TYPE_ID,
          teamIdentifier: DEVELOPMENT_TEAM_ID,
          certificates: { wwdr: issued.caCertificate, signerCert: issued.certificate, signerKey: issued.key },
          development: true,
        })));
  }
  if (set.length < REQUIRED.length) {
    const missing = REQUIRED.filter((name) => config[name] === undefined);
    throw new Error(
      `Invalid configuration: ${set.join(', ')} set without ${missing.join(', ')}: set all five for Apple Wallet passes, or none.`,
    );
  }
  const signer = configuredSigner(config as ConfiguredApple);
  return () => Promise.resolve(signer);
}

/**
 * node-forge, loaded only where a configured certificate is checked at start, and synchronously, so that a bad one
 * still stops pos there; with none configured it is loaded by the first pass (decision 0054).
 */
const nodeForge = () => createRequire(import.meta.url)('node-forge') as typeof forge;

function configuredSigner(config: ConfiguredApple): ApplePassSigner {
  const certificate = readCertificate(config.POS_APPLE_PASS_CERT, 'POS_APPLE_PASS_CERT');
  readCertificate(config.POS_APPLE_WWDR_CERT, 'POS_APPLE_WWDR_CERT');
  let key: forge.pki.rsa.PrivateKey | null = null;
  try {
    key = nodeForge().pki.decryptRsaPrivateKey(
      config.POS_APPLE_PASS_KEY,
      config.POS_APPLE_PASS_KEY_PASSPHRASE,
    ) as forge.pki.rsa.PrivateKey | null;
  } catch {
    // reported below
  }
  if (!key) {
    throw new Error(
      'Invalid configuration: POS_APPLE_PASS_KEY cannot be read as an RSA private key (encrypted: is POS_APPLE_PASS_KEY_PASSPHRASE right?)',
    );
  }
  const certificateKey = certificate.publicKey as forge.pki.rsa.PublicKey;
  if (!certificateKey.n || certificateKey.n.compareTo(key.n) !== 0) {
    throw new Error('Invalid configuration: POS_APPLE_PASS_KEY is not the key of POS_APPLE_PASS_CERT');
  }
  // Apple issues a pass certificate for one pass type, named in its subject's UID.
  const uid = certificate.subject.getField({ type: '0.9.2342.19200300.100.1.1' }) as { value: string } | null;
  if (uid && uid.value !== config.POS_APPLE_PASS_TYPE_ID) {
    throw new Error(
      `Invalid configuration: POS_APPLE_PASS_CERT is for ${uid.value}, not POS_APPLE_PASS_TYPE_ID ${config.POS_APPLE_PASS_TYPE_ID}`,
    );
  }
  return {
    passTypeIdentifier: config.POS_APPLE_PASS_TYPE_ID,
    teamIdentifier: config.POS_APPLE_TEAM_ID,
    certificates: {
      wwdr: config.POS_APPLE_WWDR_CERT,
      signerCert: config.POS_APPLE_PASS_CERT,
      signerKey: config.POS_APPLE_PASS_KEY,
      ...(config.POS_APPLE_PASS_KEY_PASSPHRASE ? { signerKeyPassphrase: config.POS_APPLE_PASS_KEY_PASSPHRASE } : {}),
    },
    development: false,
  };
}

function readCertificate(pem: string, name: string): forge.pki.Certificate {
  try {
    return nodeForge().pki.certificateFromPem(pem);
  } catch (error) {
    throw new Error(
      `Invalid configuration: ${name} is not a readable certificate (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}
