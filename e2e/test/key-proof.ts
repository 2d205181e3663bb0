import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { PrivateKey, Utils } from '@bsv/sdk';
import { api, ROOT } from './instance.js';

/**
 * Proof that a `pnpm wallet` file's key is the caller's (docs/decisions/0024-proof-holds-and-privacy.md): a
 * bind_card challenge for the key's did:key, signed as sign-in is (ECDSA over SHA-256, DER hex). The key
 * never leaves this process.
 */
export async function proveWalletKey(base: string, walletFile: string): Promise<{ nonce: string; signature: string }> {
  // The wallet's identity key as `pnpm wallet export` gives it (an HD wallet's m/0', or a single-key file's key).
  const exported = execFileSync(process.execPath, [
    join(ROOT, 'packages/wallet/bin/ctk-wallet.mjs'),
    '--file',
    walletFile,
    '--json',
    'export',
  ]);
  const key = PrivateKey.fromWif((JSON.parse(exported.toString()) as { wif: string }).wif);
  const did = `did:key:z${Utils.toBase58([0xe7, 0x01, ...(key.toPublicKey().toDER() as number[])])}`;
  const challenge = await api(base, 'POST', '/api/auth/challenge', undefined, { did, purpose: 'bind_card' });
  if (challenge.status !== 201) throw new Error(`challenge: ${JSON.stringify(challenge.body)}`);
  return { nonce: challenge.body.nonce, signature: key.sign(challenge.body.message, 'utf8').toDER('hex') as string };
}

/** Signs in from outside with a key's WIF (a back office backup): the session's API key. */
export async function signInWithWif(base: string, wif: string): Promise<string> {
  const key = PrivateKey.fromWif(wif);
  const did = `did:key:z${Utils.toBase58([0xe7, 0x01, ...(key.toPublicKey().toDER() as number[])])}`;
  const challenge = await api(base, 'POST', '/api/auth/challenge', undefined, { did });
  if (challenge.status !== 201) throw new Error(`challenge: ${JSON.stringify(challenge.body)}`);
  const signature = key.sign(challenge.body.message, 'utf8').toDER('hex') as string;
  const verified = await api(base, 'POST', '/api/auth/verify', undefined, { nonce: challenge.body.nonce, signature });
  if (verified.status !== 201) throw new Error(`verify: ${JSON.stringify(verified.body)}`);
  return verified.body.api_key.key as string;
}
