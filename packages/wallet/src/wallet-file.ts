import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { PrivateKey, Random, Utils } from '@bsv/sdk';
import type { ChainNetwork } from '@ctk/chain';
import { AppError } from '@ctk/shared';
import { z } from 'zod';
import { addressPrefix } from './chain-settings.js';
import { hdKeys, IDENTITY_PATH, type HdKeys } from './hd-keys.js';

/** Seed-based (HD) wallets; `ctk-wallet/1` files hold a single key and are read as before. */
const FORMAT = 'ctk-wallet/2';
const SINGLE_KEY_FORMAT = 'ctk-wallet/1';

const paymentRecord = z.object({
  txid: z.string(),
  to: z.string(),
  satoshis: z.number().int(),
  fee: z.number().int(),
  reference: z.string().optional(),
  at: z.string(),
});
export type PaymentRecord = z.infer<typeof paymentRecord>;

/** A credential a 402 payment bought (`ctk-wallet fetch`): a bearer token, kept here until it expires or is refused. */
const credentialRecord = z.object({
  token: z.string(),
  origin: z.string(),
  method: z.string(),
  path: z.string(),
  expires_at: z.number().int(),
});

const common = {
  network: z.enum(['main', 'test', 'local']),
  created_at: z.string(),
  payments: z.array(paymentRecord).default([]),
  credentials: z.array(credentialRecord).default([]),
};
const walletFileSchema = z.discriminatedUnion('format', [
  // The BIP32 seed, hex: every key of the wallet derives from it (src/hd-keys.ts).
  z.object({ format: z.literal(FORMAT), seed: z.string().regex(/^(?:[0-9a-f]{2}){16,64}$/), ...common }),
  z.object({ format: z.literal(SINGLE_KEY_FORMAT), wif: z.string(), ...common }),
]);
type WalletFileData = z.infer<typeof walletFileSchema>;
export type CredentialRecord = z.infer<typeof credentialRecord>;

/**
 * The wallet: a BIP32 seed in a local file (mode 0600), or the single key of a file made before HD wallets.
 * Keys are used here and never sent anywhere. `key` is the identity key: it signs, and its address is the
 * wallet's address (faucet coins and change go there); an HD wallet also owns the receive branch m/0/n of its
 * xpub, where the service's payments to the merchant arrive.
 */
export class WalletFile {
  readonly key: PrivateKey;
  /** The HD keys; undefined for a single-key file. */
  readonly hd: HdKeys | undefined;

  private constructor(
    readonly path: string,
    private data: WalletFileData,
  ) {
    if (data.format === FORMAT) {
      this.hd = hdKeys(Utils.toArray(data.seed, 'hex'));
      this.key = this.hd.identityKey;
    } else {
      this.hd = undefined;
      this.key = PrivateKey.fromWif(data.wif);
    }
  }

  get network(): ChainNetwork {
    return this.data.network;
  }

  get address(): string {
    return this.key.toAddress(addressPrefix(this.network));
  }

  get publicKey(): string {
    return this.key.toPublicKey().toString();
  }

  /** Where the identity key sits: m/0' of an HD wallet, nowhere for a single key. */
  get identityPath(): string | undefined {
    return this.hd ? IDENTITY_PATH : undefined;
  }

  /** The extended public key the merchant registers as `wallet_xpub`. */
  xpub(): string {
    if (!this.hd)
      throw new AppError(
        'failed_precondition',
        `The wallet at ${this.path} holds a single key (made before HD wallets), so it has no xpub: make an HD wallet with \`ctk-wallet create --file <another file>\`.`,
      );
    return this.hd.xpub;
  }

  get payments(): readonly PaymentRecord[] {
    return this.data.payments;
  }

  /** The identity key in WIF, for `export` only. */
  wif(): string {
    return this.data.format === SINGLE_KEY_FORMAT ? this.data.wif : this.key.toWif(this.network === 'main' ? [0x80] : [0xef]);
  }

  static create(path: string, network: ChainNetwork, force: boolean): WalletFile {
    if (existsSync(path) && !force)
      throw new AppError(
        'already_exists',
        `A wallet already exists at ${path} (it holds keys: move it away, or use --force to replace it).`,
      );
    const wallet = new WalletFile(path, {
      format: FORMAT,
      network,
      seed: Utils.toHex(Random(32)),
      created_at: new Date().toISOString(),
      payments: [],
      credentials: [],
    });
    wallet.save();
    return wallet;
  }

  static open(path: string, network: ChainNetwork): WalletFile {
    if (!existsSync(path)) throw new AppError('not_found', `No wallet at ${path}: run \`ctk-wallet create\` first (or pass --file).`);
    let data: WalletFileData;
    try {
      data = walletFileSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
    } catch {
      throw new AppError('validation_failed', `${path} is not a ctk-wallet file.`);
    }
    if (data.network !== network)
      throw new AppError(
        'failed_precondition',
        `The wallet at ${path} is for the ${data.network} network, and CHAIN_NETWORK is ${network}.`,
      );
    return new WalletFile(path, data);
  }

  recordPayment(payment: PaymentRecord): void {
    this.data.payments.push(payment);
    this.save();
  }

  get credentials(): readonly CredentialRecord[] {
    return this.data.credentials;
  }

  /** Keeps a credential, replacing one for the same resource and dropping expired ones. */
  saveCredential(credential: CredentialRecord): void {
    const now = Date.now() / 1000;
    this.data.credentials = [
      ...this.data.credentials.filter(
        (kept) =>
          kept.expires_at > now &&
          kept.token !== credential.token &&
          !(kept.origin === credential.origin && kept.method === credential.method && kept.path === credential.path),
      ),
      credential,
    ];
    this.save();
  }

  dropCredential(token: string): void {
    const kept = this.data.credentials.filter((credential) => credential.token !== token);
    if (kept.length === this.data.credentials.length) return;
    this.data.credentials = kept;
    this.save();
  }

  /** Written to a temporary file of mode 0600 and renamed, so the key is never readable by others nor half written. */
  private save(): void {
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(this.data, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.path);
  }
}
