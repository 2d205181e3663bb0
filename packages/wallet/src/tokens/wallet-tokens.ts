import type { ChainClient, TokenUtxo } from '@ctk/chain';
import { ownedAddresses, type OwnedAddress } from '../wallet-coins.js';
import type { WalletFile } from '../wallet-file.js';

/** A token output of the wallet's, with the address (and key) holding it. */
export type OwnedTokenUtxo = TokenUtxo & { holder: OwnedAddress };

/**
 * The wallet's addresses for token commands: its own, and the receive children with BSV history or a balance
 * of one of `tokenIds` (a child a merchant's stablecoin payments went to may hold nothing else).
 */
export function tokenAddresses(chain: ChainClient, wallet: WalletFile, tokenIds: string[]): Promise<OwnedAddress[]> {
  return ownedAddresses(chain, wallet, async (address) => {
    const balances = await Promise.all(tokenIds.map((tokenId) => chain.tokenBalance(address, tokenId)));
    return balances.some((balance) => balance.confirmed + balance.pending > 0n);
  });
}

/** The wallet's valid unspent outputs of a token, each with the key that owns it, largest first. */
export async function walletTokenUtxos(chain: ChainClient, wallet: WalletFile, tokenId: string): Promise<OwnedTokenUtxo[]> {
  const addresses = await tokenAddresses(chain, wallet, [tokenId]);
  const found = await Promise.all(addresses.map((owner) => chain.tokenUtxos(owner.address, tokenId)));
  return addresses
    .flatMap((owner, i) => (found[i] ?? []).map((utxo) => ({ ...utxo, holder: owner })))
    .sort((a, b) => (a.amount < b.amount ? 1 : a.amount > b.amount ? -1 : 0));
}

/** As few of the outputs (largest first) as hold `amount`; undefined when all of them hold less. */
export function selectTokenUtxos<T extends { amount: bigint }>(utxos: T[], amount: bigint): { chosen: T[]; total: bigint } | undefined {
  const chosen: T[] = [];
  let total = 0n;
  for (const utxo of utxos) {
    if (total >= amount) break;
    chosen.push(utxo);
    total += utxo.amount;
  }
  return total >= amount ? { chosen, total } : undefined;
}
