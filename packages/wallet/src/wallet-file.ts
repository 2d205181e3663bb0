import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { PrivateKey } from '@bsv/sdk';
import type { ChainNetwork } from '@ctk/chain';
import { AppError } from '@ctk/shared';
import { z } from 'zod';
import { addressPrefix } from './chain-settings.js';

const FORMAT = 'ctk-wallet/1';

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

const walletFileSchema = z.object({
  format: z.literal(FORMAT),
  network: z.enum(['main', 'test', 'local']),
  wif: z.string(),
  created_at: z.string(),
  payments: z.array(paymentRecord).default([]),
  credentials: z.array(credentialRecord).default([]),
});
type WalletFileData = z.infer<typeof walletFileSchema>;
export type CredentialRecord = z.infer<typeof credentialRecord>;

/** The wallet: one key in a local file (mode 0600). The key is used here and never sent anywhere. */
export class WalletFile {
  private constructor(
    readonly path: string,
    private data: WalletFileData,
    readonly key: PrivateKey,
  ) {}

  get network(): ChainNetwork {
    return this.data.network;
  }

  get address(): string {
    return this.key.toAddress(addressPrefix(this.network));
  }

  get publicKey(): string {
    return this.key.toPublicKey().toString();
  }

  get payments(): readonly PaymentRecord[] {
    return this.data.payments;
  }

  /** The key in WIF, for `export` only. */
  wif(): string {
    return this.data.wif;
  }

  static create(path: string, network: ChainNetwork, force: boolean): WalletFile {
    if (existsSync(path) && !force)
      throw new AppError(
        'already_exists',
        `A wallet already exists at ${path} (it holds a key: move it away, or use --force to replace it).`,
      );
    const key = PrivateKey.fromRandom();
    const wallet = new WalletFile(
      path,
      {
        format: FORMAT,
        network,
        wif: key.toWif(network === 'main' ? [0x80] : [0xef]),
        created_at: new Date().toISOString(),
        payments: [],
        credentials: [],
      },
      key,
    );
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
    return new WalletFile(path, data, PrivateKey.fromWif(data.wif));
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
