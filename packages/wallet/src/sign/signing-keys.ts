import { Utils, type PrivateKey } from '@bsv/sdk';
import type { ChainClient } from '@ctk/chain';
import { RECEIVE_BRANCH } from '../hd-keys.js';
import { scanReceiveBranch } from '../scan-receive-branch.js';
import { ownedAddresses } from '../wallet-coins.js';
import type { WalletFile } from '../wallet-file.js';

/** A key of the wallet and its BIP32 path (undefined for a single-key wallet's one key). */
export type SigningKey = { key: PrivateKey; path: string | undefined };

const pkhOf = (key: PrivateKey) => Utils.toHex(key.toPublicKey().toHash() as number[]);

/**
 * The wallet's keys for the public key hashes asked, found as cheaply as can be: the identity key m/0' (where
 * the wallet's coins are), then the receive children m/0/n the way a restored wallet scans them, first without
 * the chain (a child counts as used when it is one asked for), then with the address histories the chain keeps
 * too (the addresses every spending command covers), for a child past the first gap of children asked for. Hashes no key of the wallet has are left out of the answer.
 */
export async function signingKeys(chain: ChainClient, wallet: WalletFile, wanted: ReadonlySet<string>): Promise<Map<string, SigningKey>> {
  const found = new Map<string, SigningKey>();
  if (wanted.has(pkhOf(wallet.key))) found.set(pkhOf(wallet.key), { key: wallet.key, path: wallet.identityPath });
  const hd = wallet.hd;
  const missing = () => [...wanted].some((pkh) => !found.has(pkh));
  if (!hd || !missing()) return found;
  const child = (n: number) => ({ key: hd.receiveKey(n), path: `${RECEIVE_BRANCH}/${n}` });
  const take = (n: number) => {
    const candidate = child(n);
    const pkh = pkhOf(candidate.key);
    if (!wanted.has(pkh)) return false;
    found.set(pkh, candidate);
    return true;
  };
  await scanReceiveBranch(async (n) => take(n));
  if (!missing()) return found;
  // A child holding only tokens has no history (token scripts are not P2PKH): one asked for counts as used.
  const asked = async (address: string) => wanted.has(Utils.toHex(Utils.fromBase58Check(address).data as number[]));
  for (const owned of await ownedAddresses(chain, wallet, asked)) {
    const pkh = pkhOf(owned.key);
    if (wanted.has(pkh) && !found.has(pkh)) found.set(pkh, { key: owned.key, path: owned.path });
  }
  return found;
}
