import type { PrivateKey } from '@bsv/sdk';
import type { ChainClient, Utxo } from '@ctk/chain';
import { addressPrefix } from './chain-settings.js';
import { RECEIVE_BRANCH } from './hd-keys.js';
import { scanReceiveBranch } from './scan-receive-branch.js';
import type { WalletFile } from './wallet-file.js';

/** An address the wallet holds the key of: the identity key's, or a child m/0/n of the xpub that was used. */
export type OwnedAddress = { address: string; path: string | undefined; key: PrivateKey };
export type OwnedCoin = Utxo & { owner: OwnedAddress };

/**
 * The wallet's addresses with any history: the identity key's always, and for an HD wallet the children
 * m/0/n found by the gap-limit scan (as a wallet restored from the seed finds them, and as far as the
 * service hands them out: decision 0007). A child counts as used when it has a transaction in its address
 * history or `alsoUsed` says so: token outputs are not in an address's history (their scripts are not
 * plain P2PKH), so the token commands ask the token indexer too.
 */
export async function ownedAddresses(
  chain: ChainClient,
  wallet: WalletFile,
  alsoUsed?: (address: string) => Promise<boolean>,
): Promise<OwnedAddress[]> {
  const identity: OwnedAddress = { address: wallet.address, path: wallet.identityPath, key: wallet.key };
  const hd = wallet.hd;
  if (!hd) return [identity];
  const prefix = addressPrefix(wallet.network);
  const child = (n: number): OwnedAddress => {
    const key = hd.receiveKey(n);
    return { address: key.toAddress(prefix), path: `${RECEIVE_BRANCH}/${n}`, key };
  };
  const used = await scanReceiveBranch(
    async (n) => (await chain.history(child(n).address)).length > 0 || ((await alsoUsed?.(child(n).address)) ?? false),
  );
  return [identity, ...used.map(child)];
}

/** Every unspent output of the wallet's addresses, each with the key that spends it. */
export async function walletCoins(chain: ChainClient, wallet: WalletFile): Promise<OwnedCoin[]> {
  const addresses = await ownedAddresses(chain, wallet);
  const unspent = await Promise.all(addresses.map((owner) => chain.listUnspent(owner.address)));
  return addresses.flatMap((owner, i) => (unspent[i] ?? []).map((coin) => ({ ...coin, owner })));
}
