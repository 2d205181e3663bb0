import { execFileSync } from 'node:child_process';
import { createHash, createPublicKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Logger } from '@ctk/shared';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import JSZip from 'jszip';
import forge from 'node-forge';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { newCardIdentifier } from '../src/cards/card-identifier.js';
import { configSchema } from '../src/config.js';
import { DEVELOPMENT_PASS_TYPE_ID, DEVELOPMENT_TEAM_ID } from '../src/passes/apple-pass-signer.js';
import { developmentPassCertificate } from '../src/passes/development-certificates.js';
import { GOOGLE_SAVE_URL, makeGoogleSaveLink } from '../src/passes/google-save-link.js';
import { DEVELOPMENT_CLIENT_EMAIL, googleWalletAccount } from '../src/passes/google-wallet-account.js';
import { DEFAULT_PASS_COLOURS, type PassContent } from '../src/passes/pass-content.js';
import { createPassMaker } from '../src/passes/pass-maker.js';
import { verifyDetachedSignature } from './detached-signature.js';

/** A logger that records what it is told. */
function recordingLogger() {
  const warn = vi.fn();
  return { logger: { warn, info: vi.fn(), error: vi.fn(), debug: vi.fn() } as unknown as Logger, warn };
}

const makerOf = (env: Record<string, string> = {}) => createPassMaker(loadConfig(configSchema, env), recordingLogger().logger);

function cardContent(fields: Partial<PassContent> = {}): PassContent {
  return {
    cardId: randomUUID(),
    merchantName: 'Blue Bottle Cafe',
    merchantHandle: 'blue-bottle-cafe',
    stamps: 7,
    stampsForReward: 10,
    reward: 'A free coffee',
    identifier: newCardIdentifier().identifier,
    colours: DEFAULT_PASS_COLOURS,
    publicUrl: 'https://pay.example.com',
    ...fields,
  };
}

/** The files of a .pkpass (a zip). */
async function unzip(pkpass: Buffer): Promise<Record<string, Buffer>> {
  const zip = await JSZip.loadAsync(pkpass);
  const files: Record<string, Buffer> = {};
  for (const name of Object.keys(zip.files)) files[name] = await zip.file(name)!.async('nodebuffer');
  return files;
}

const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');
const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version']);
    return true;
  } catch {
    return false;
  }
})();
const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** `openssl smime -verify` of the detached signature over the content, without a trust chain (-noverify): true when it verifies. */
function opensslVerifies(signature: Buffer, content: Buffer): boolean {
  const folder = mkdtempSync(join(tmpdir(), 'pkpass-'));
  folders.push(folder);
  writeFileSync(join(folder, 'signature'), signature);
  writeFileSync(join(folder, 'manifest.json'), content);
  try {
    execFileSync(
      'openssl',
      ['smime', '-verify', '-binary', '-inform', 'DER', '-in', 'signature', '-content', 'manifest.json', '-noverify'],
      {
        cwd: folder,
        stdio: 'pipe',
      },
    );
    return true;
  } catch {
    return false;
  }
}

describe('Apple Wallet passes', () => {
  it('are a store card showing the stamps and the reward, with a QR of the identifier and its last 4 under it', async () => {
    const content = cardContent();
    const files = await unzip(await makerOf().apple(content));
    expect(Object.keys(files).sort()).toEqual([
      'icon.png',
      'icon@2x.png',
      'logo.png',
      'logo@2x.png',
      'manifest.json',
      'pass.json',
      'signature',
    ]);
    const pass = JSON.parse(files['pass.json']!.toString('utf8'));
    expect(pass).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: DEVELOPMENT_PASS_TYPE_ID,
      teamIdentifier: DEVELOPMENT_TEAM_ID,
      serialNumber: content.cardId,
      organizationName: 'Blue Bottle Cafe',
      description: 'Blue Bottle Cafe loyalty card',
      backgroundColor: 'rgb(59, 42, 32)',
      foregroundColor: 'rgb(255, 255, 255)',
      labelColor: 'rgb(232, 213, 181)',
      sharingProhibited: true,
      barcodes: [
        { format: 'PKBarcodeFormatQR', message: content.identifier, messageEncoding: 'iso-8859-1', altText: content.identifier.slice(-4) },
      ],
    });
    expect(pass.storeCard.primaryFields).toEqual([{ key: 'stamps', label: 'Stamps', value: '7 of 10' }]);
    expect(pass.storeCard.secondaryFields).toEqual([{ key: 'reward', label: 'Reward after 10 stamps', value: 'A free coffee' }]);
    expect(pass.storeCard.auxiliaryFields).toEqual([{ key: 'rewards', label: 'Rewards ready', value: 0 }]);
    // Real PNGs: the signature bytes and the sizes Apple names.
    expect(files['icon.png']!.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(files['icon@2x.png']!.readUInt32BE(16)).toBe(58);
  });

  it('count the rewards the stamps pay for, and show stamps past a reward as they are', async () => {
    const pass = JSON.parse(
      (await unzip(await makerOf().apple(cardContent({ stamps: 23, stampsForReward: 10 }))))['pass.json']!.toString(),
    );
    expect(pass.storeCard.primaryFields[0].value).toBe('23 of 10');
    expect(pass.storeCard.auxiliaryFields[0].value).toBe(2);
  });

  it("list every file's SHA-1 in manifest.json, and sign the manifest with a detached PKCS#7 by the pass certificate, issued by the WWDR one", async () => {
    const files = await unzip(await makerOf().apple(cardContent()));
    const manifest = JSON.parse(files['manifest.json']!.toString('utf8'));
    const signed = Object.keys(files).filter((name) => name !== 'manifest.json' && name !== 'signature');
    expect(Object.keys(manifest).sort()).toEqual(signed.sort());
    for (const name of signed) expect({ name, sha1: manifest[name] }).toEqual({ name, sha1: sha1(files[name]!) });

    const { signer, certificates, signingTime } = verifyDetachedSignature(files['signature']!, files['manifest.json']!);
    expect(signer.subject.getField({ type: '0.9.2342.19200300.100.1.1' }).value).toBe(DEVELOPMENT_PASS_TYPE_ID);
    const wwdr = certificates.find((certificate) => certificate !== signer)!;
    expect(wwdr.verify(signer)).toBe(true);
    expect(Math.abs(signingTime!.getTime() - Date.now())).toBeLessThan(5 * 60_000);
    // A manifest changed after signing does not verify.
    const changed = Buffer.from(files['manifest.json']!.toString().replace(/"[0-9a-f]{40}"/, `"${'0'.repeat(40)}"`));
    expect(() => verifyDetachedSignature(files['signature']!, changed)).toThrow(/messageDigest/);
  });

  it.skipIf(!hasOpenssl)('verify with openssl smime, and a changed manifest does not', async () => {
    const files = await unzip(await makerOf().apple(cardContent()));
    expect(opensslVerifies(files['signature']!, files['manifest.json']!)).toBe(true);
    expect(opensslVerifies(files['signature']!, Buffer.concat([files['manifest.json']!, Buffer.from(' ')]))).toBe(false);
  });

  it('are signed by the configured certificate (its key encrypted with the configured passphrase), for the configured pass type and team', async () => {
    const issued = await developmentPassCertificate('pass.com.bluebottle.loyalty', 'A1B2C3D4E5');
    const encryptedKey = forge.pki.encryptRsaPrivateKey(forge.pki.privateKeyFromPem(issued.key), 'espresso', { algorithm: 'aes256' });
    const { logger, warn } = recordingLogger();
    const maker = createPassMaker(
      loadConfig(configSchema, {
        POS_APPLE_PASS_CERT: issued.certificate.replaceAll('\r\n', '\\n'), // one line, as an env file holds it
        POS_APPLE_PASS_KEY: encryptedKey,
        POS_APPLE_PASS_KEY_PASSPHRASE: 'espresso',
        POS_APPLE_WWDR_CERT: issued.caCertificate,
        POS_APPLE_PASS_TYPE_ID: 'pass.com.bluebottle.loyalty',
        POS_APPLE_TEAM_ID: 'A1B2C3D4E5',
      }),
      logger,
    );
    const files = await unzip(await maker.apple(cardContent()));
    expect(JSON.parse(files['pass.json']!.toString())).toMatchObject({
      passTypeIdentifier: 'pass.com.bluebottle.loyalty',
      teamIdentifier: 'A1B2C3D4E5',
    });
    const { signer } = verifyDetachedSignature(files['signature']!, files['manifest.json']!);
    expect(forge.pki.certificateToPem(signer)).toBe(forge.pki.certificateToPem(forge.pki.certificateFromPem(issued.certificate)));
    if (hasOpenssl) expect(opensslVerifies(files['signature']!, files['manifest.json']!)).toBe(true);
    // Apple passes are not development ones; only Google's (unset here) are said to be.
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]!.at(-1))).toMatch(/Google Wallet/);
  });

  it('stop pos at start for a configuration that cannot sign, naming the variable', async () => {
    const issued = await developmentPassCertificate('pass.com.bluebottle.loyalty', 'A1B2C3D4E5');
    const other = await developmentPassCertificate('pass.com.bluebottle.loyalty', 'A1B2C3D4E5');
    const complete = {
      POS_APPLE_PASS_CERT: issued.certificate,
      POS_APPLE_PASS_KEY: issued.key,
      POS_APPLE_WWDR_CERT: issued.caCertificate,
      POS_APPLE_PASS_TYPE_ID: 'pass.com.bluebottle.loyalty',
      POS_APPLE_TEAM_ID: 'A1B2C3D4E5',
    };
    expect(() => makerOf(complete)).not.toThrow();
    const { POS_APPLE_WWDR_CERT: _, ...withoutWwdr } = complete;
    expect(() => makerOf(withoutWwdr)).toThrow(/without POS_APPLE_WWDR_CERT/);
    expect(() => makerOf({ ...complete, POS_APPLE_PASS_KEY: other.key })).toThrow(
      /POS_APPLE_PASS_KEY is not the key of POS_APPLE_PASS_CERT/,
    );
    const encrypted = forge.pki.encryptRsaPrivateKey(forge.pki.privateKeyFromPem(issued.key), 'espresso', { algorithm: 'aes256' });
    expect(() => makerOf({ ...complete, POS_APPLE_PASS_KEY: encrypted, POS_APPLE_PASS_KEY_PASSPHRASE: 'latte' })).toThrow(
      /POS_APPLE_PASS_KEY_PASSPHRASE/,
    );
    expect(() => makerOf({ ...complete, POS_APPLE_PASS_TYPE_ID: 'pass.com.other.loyalty' })).toThrow(/POS_APPLE_PASS_TYPE_ID/);
    const garbled = complete.POS_APPLE_PASS_CERT.replace(/\n[A-Za-z0-9+/]{10}/, '\n!!!!!!!!!!');
    expect(() => makerOf({ ...complete, POS_APPLE_PASS_CERT: garbled })).toThrow(/POS_APPLE_PASS_CERT/);
  });

  it('say once at start that they are development passes when no certificate is configured', () => {
    const { logger, warn } = recordingLogger();
    createPassMaker(loadConfig(configSchema, {}), logger);
    const messages = warn.mock.calls.map((call) => String(call.at(-1)));
    expect(messages).toHaveLength(2);
    expect(messages.filter((message) => /Apple Wallet passes are development passes/.test(message))).toHaveLength(1);
    expect(messages.filter((message) => /Google Wallet save links are development links/.test(message))).toHaveLength(1);
  });

  it('refuse content that breaks the rules (a bug of the caller), making no pass', async () => {
    const maker = makerOf();
    await expect(maker.apple(cardContent({ identifier: 'abcd-efgh' }))).rejects.toThrow(/identifier/);
    await expect(maker.apple(cardContent({ stampsForReward: 0 }))).rejects.toThrow(/stampsForReward/);
    await expect(maker.google(cardContent({ colours: { ...DEFAULT_PASS_COLOURS, background: 'brown' } }))).rejects.toThrow(/colours/);
  });
});

describe('Google Wallet save links', () => {
  /** A service account key file as Google issues one, with a fresh RSA key. */
  function serviceAccount() {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const json = {
      type: 'service_account',
      project_id: 'blue-bottle-wallet',
      private_key_id: '8f14e45fceea167a5a36dedd4bea2543',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: 'wallet@blue-bottle-wallet.iam.gserviceaccount.com',
    };
    return { json: JSON.stringify(json), publicKey };
  }

  it('are signed RS256 by the configured service account and carry the loyalty object of the card', async () => {
    const account = serviceAccount();
    const maker = makerOf({ POS_GOOGLE_SERVICE_ACCOUNT: account.json, POS_GOOGLE_ISSUER_ID: '3388000000022222222' });
    const content = cardContent({ logoUrl: 'https://pay.example.com/logo.png' });
    const { saveUrl, jwt } = await maker.google(content);
    expect(saveUrl).toBe(`${GOOGLE_SAVE_URL}${jwt}`);
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'RS256', typ: 'JWT', kid: '8f14e45fceea167a5a36dedd4bea2543' });

    const { payload } = await jwtVerify(jwt, account.publicKey, {
      issuer: 'wallet@blue-bottle-wallet.iam.gserviceaccount.com',
      audience: 'google',
      algorithms: ['RS256'],
    });
    expect(payload).toMatchObject({ typ: 'savetowallet', origins: ['https://pay.example.com'] });
    expect(Math.abs((payload.iat as number) - Date.now() / 1000)).toBeLessThan(300);
    const wallet = payload.payload as { loyaltyClasses: object[]; loyaltyObjects: object[] };
    expect(wallet.loyaltyClasses).toEqual([
      {
        id: '3388000000022222222.blue-bottle-cafe',
        issuerName: 'Blue Bottle Cafe',
        programName: 'Blue Bottle Cafe stamps',
        reviewStatus: 'UNDER_REVIEW',
        hexBackgroundColor: '#3B2A20',
        programLogo: { sourceUri: { uri: 'https://pay.example.com/logo.png' } },
      },
    ]);
    expect(wallet.loyaltyObjects).toEqual([
      expect.objectContaining({
        id: `3388000000022222222.${content.cardId}`,
        classId: '3388000000022222222.blue-bottle-cafe',
        state: 'ACTIVE',
        accountId: content.cardId,
        loyaltyPoints: { label: 'Stamps', balance: { int: 7 } },
        barcode: { type: 'QR_CODE', value: content.identifier, alternateText: content.identifier.slice(-4) },
      }),
    ]);

    // Another key does not verify it.
    await expect(jwtVerify(jwt, serviceAccount().publicKey)).rejects.toThrow();
  });

  it('are signed by a development key and issuer id when none is configured', async () => {
    const { saveUrl, jwt } = await makerOf().google(cardContent());
    expect(saveUrl).toBe(`${GOOGLE_SAVE_URL}${jwt}`);
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'RS256', typ: 'JWT' });

    // The development account's public key is its private key's half.
    const account = await googleWalletAccount({}, recordingLogger().logger)();
    expect(account).toMatchObject({
      clientEmail: DEVELOPMENT_CLIENT_EMAIL,
      development: true,
      issuerId: expect.stringMatching(/^\d{19}$/),
    });
    const content = cardContent();
    const link = await makeGoogleSaveLink(account, content);
    const { payload } = await jwtVerify(link.jwt, createPublicKey(account.privateKey), {
      issuer: DEVELOPMENT_CLIENT_EMAIL,
      audience: 'google',
    });
    expect(payload.typ).toBe('savetowallet');
    expect((payload.payload as { loyaltyObjects: { id: string }[] }).loyaltyObjects[0]!.id).toBe(`${account.issuerId}.${content.cardId}`);
  });

  it('stop pos at start for a service account without an issuer id, or whose key is not RSA', () => {
    const account = serviceAccount();
    expect(() => makerOf({ POS_GOOGLE_SERVICE_ACCOUNT: account.json })).toThrow(/POS_GOOGLE_ISSUER_ID/);
    expect(() => makerOf({ POS_GOOGLE_ISSUER_ID: '3388000000022222222' })).toThrow(/POS_GOOGLE_SERVICE_ACCOUNT/);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const ecAccount = JSON.stringify({ ...JSON.parse(account.json), private_key: ec });
    expect(() => makerOf({ POS_GOOGLE_SERVICE_ACCOUNT: ecAccount, POS_GOOGLE_ISSUER_ID: '3388000000022222222' })).toThrow(/private_key/);
  });
});
