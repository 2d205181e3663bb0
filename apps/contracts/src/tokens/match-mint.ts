import { Utils, type Transaction } from '@bsv/sdk';
import { parseTokenOutput, type ChainNetwork, type TokenOutput } from '@ctk/chain';
import type { TokenRow } from '../data/token-repository.js';

/** One way a transaction's deploy+mint is not the draft's: what the draft says and what the chain has. */
export type MintDifference = { field: string; expected: string; found: string };

/**
 * The output of `tx` that is the draft's deploy+mint (its symbol, decimals, whole supply, and P2PKH owner the
 * draft's address), or, when none is, the differences of the deploy+mint output closest to it (or that it
 * has none at all).
 */
export function matchMint(tx: Transaction, token: TokenRow, network: ChainNetwork): { vout: number } | { differences: MintDifference[] } {
  const mints = tx.outputs.flatMap((output, vout) => {
    const parsed = parseTokenOutput(output.lockingScript);
    return parsed?.op === 'deploy+mint' ? [{ vout, differences: differencesOf(parsed, token, network) }] : [];
  });
  if (mints.length === 0) return { differences: [{ field: 'deploy_mint', expected: 'a BSV-21 deploy+mint output', found: 'none' }] };
  const closest = mints.reduce((best, mint) => (mint.differences.length < best.differences.length ? mint : best));
  return closest.differences.length === 0 ? { vout: closest.vout } : { differences: closest.differences };
}

function differencesOf(mint: TokenOutput, token: TokenRow, network: ChainNetwork): MintDifference[] {
  const differences: MintDifference[] = [];
  const differ = (field: string, expected: string, found: string) => {
    if (expected !== found) differences.push({ field, expected, found });
  };
  differ('symbol', token.symbol, mint.symbol ?? '');
  differ('decimals', String(token.decimals), String(mint.decimals ?? 0));
  differ('supply', token.supply.toString(), mint.amount.toString());
  differ('owner_address', token.ownerAddress, Utils.toBase58Check(Utils.toArray(mint.ownerPkh, 'hex'), [network === 'main' ? 0x00 : 0x6f]));
  differ('lock', 'P2PKH', mint.cosignerPublicKey ? `cosign-locked to ${mint.cosignerPublicKey}` : 'P2PKH');
  return differences;
}
