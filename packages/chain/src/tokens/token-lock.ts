import { LockingScript, Utils } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import { envelopeChunks } from './inscription-envelope.js';
import { ownerLockChunks } from './owner-lock.js';
import { tokenJson } from './token-json.js';
import { BSV20_CONTENT_TYPE, isTokenId, MAX_TOKEN_AMOUNT, MAX_TOKEN_DECIMALS, type TokenInscription } from './token-types.js';

const COMPRESSED_KEY = /^0[23][0-9a-f]{64}$/;

/**
 * The locking script of a token output (1 satoshi): the inscription envelope, then the owner's P2PKH lock,
 * or MNEE's cosign lock (`... OP_EQUALVERIFY OP_CHECKSIGVERIFY <cosigner key> OP_CHECKSIG`) when a cosigner
 * is given, so that the owner alone cannot move it. With a P2PKH owner the bytes are js-1sat-ord's.
 */
export function tokenLock(input: { ownerAddress: string; inscription: TokenInscription; cosignerPublicKey?: string }): LockingScript {
  const ownerPkh = pkhOfAddress(input.ownerAddress);
  const cosigner = input.cosignerPublicKey?.toLowerCase();
  if (cosigner !== undefined && !COMPRESSED_KEY.test(cosigner))
    throw new AppError('validation_failed', 'The cosigner public key must be a compressed key: 66 hex digits starting with 02 or 03.', {
      field: 'cosigner_public_key',
    });
  checkInscription(input.inscription);
  const json = Utils.toArray(tokenJson(input.inscription), 'utf8') as number[];
  return new LockingScript([
    ...envelopeChunks(BSV20_CONTENT_TYPE, json),
    ...ownerLockChunks(ownerPkh, cosigner === undefined ? undefined : Utils.toArray(cosigner, 'hex')),
  ]);
}

/**
 * A transfer's output of `amount` units of a token to `address` (1 satoshi), cosign-locked when the token has a
 * cosigner: what every wallet, faucet and test building a transfer puts in it.
 */
export function tokenTransferOutput(input: { address: string; tokenId: string; amount: bigint; cosignerPublicKey?: string }): {
  satoshis: number;
  lockingScript: LockingScript;
} {
  const inscription = { op: 'transfer' as const, tokenId: input.tokenId, amount: input.amount };
  return {
    satoshis: 1,
    lockingScript: tokenLock({ ownerAddress: input.address, inscription, cosignerPublicKey: input.cosignerPublicKey }),
  };
}

/** What `parseTokenOutput` would refuse is never built. */
function checkInscription(inscription: TokenInscription): void {
  if (inscription.amount < 1n || inscription.amount > MAX_TOKEN_AMOUNT)
    throw new AppError('validation_failed', `A token amount is a whole number of units from 1 to ${MAX_TOKEN_AMOUNT}.`, {
      field: 'amount',
    });
  if (inscription.op === 'transfer' && !isTokenId(inscription.tokenId))
    throw new AppError('validation_failed', `${JSON.stringify(inscription.tokenId)} is not a token id (<txid>_<vout>).`, {
      field: 'token_id',
    });
  if (
    inscription.op === 'deploy+mint' &&
    (!Number.isInteger(inscription.decimals) || inscription.decimals < 0 || inscription.decimals > MAX_TOKEN_DECIMALS)
  )
    throw new AppError('validation_failed', `A token's decimals are a whole number from 0 to ${MAX_TOKEN_DECIMALS}.`, {
      field: 'decimals',
    });
}

/** The public key hash of a P2PKH address, mainnet or testnet. */
function pkhOfAddress(address: string): number[] {
  try {
    const { prefix, data } = Utils.fromBase58Check(address);
    if (prefix.length === 1 && (prefix[0] === 0x00 || prefix[0] === 0x6f) && data.length === 20) return data as number[];
  } catch {
    // refused below
  }
  throw new AppError('validation_failed', `${JSON.stringify(address)} is not a P2PKH address.`, { field: 'address' });
}
