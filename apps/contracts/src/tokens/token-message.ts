import type { Token } from '@ctk/proto/ctk/contracts/v1/contracts';
import type { TokenRow } from '../data/token-repository.js';

/** A token as the contract answers it: while a draft, with its transaction and the steps that finish the mint. */
export function toTokenMessage(row: TokenRow): Token {
  const { draft } = row;
  return {
    id: row.id,
    status: row.status,
    kind: row.kind,
    symbol: row.symbol,
    name: row.name,
    decimals: row.decimals,
    supply: row.supply,
    unitValueMinor: row.unitValueMinor ?? undefined,
    currency: row.currency ?? undefined,
    ownerAddress: row.ownerAddress,
    ownerDerivationPath: row.ownerDerivationIndex === null ? undefined : `m/0/${row.ownerDerivationIndex}`,
    tokenId: row.tokenId ?? undefined,
    txid: row.txid ?? undefined,
    createdAt: row.createdAt.toISOString(),
    deployedAt: row.deployedAt?.toISOString(),
    draft:
      row.status === 'draft'
        ? {
            transaction: draft.transaction,
            inputs: draft.inputs.map((input) => ({ ...input, satoshis: BigInt(input.satoshis) })),
            mintVout: draft.mintVout,
            feeSatoshis: BigInt(draft.feeSatoshis),
            changeSatoshis: BigInt(draft.changeSatoshis),
            changeAddress: draft.changeAddress,
            expiresAt: row.holdExpiresAt.toISOString(),
            nextSteps: nextSteps(row),
          }
        : undefined,
  };
}

function nextSteps(row: TokenRow): string[] {
  return [
    'Sign it with your wallet: pnpm wallet --file <your wallet file> sign-transaction <draft.transaction>',
    'Broadcast the signed hex: POST /api/v1/wallet/broadcast {"transaction": "<signed hex>"}',
    `Confirm the mint: POST /api/v1/orgs/${row.orgHandle}/tokens/${row.id}/deployed {"txid": "<txid>"}`,
  ];
}
