/** The content type of a BSV-20/BSV-21 inscription, as 1Sat Ordinals writes it. */
export const BSV20_CONTENT_TYPE = 'application/bsv-20';

/** 1Sat's indexer reads `amt` as an unsigned 64-bit integer; we keep to the signed range, as its database does. */
export const MAX_TOKEN_AMOUNT = 2n ** 63n - 1n;

/** 1Sat's indexer caps `dec` at 18. */
export const MAX_TOKEN_DECIMALS = 18;

/** A BSV-21 token id: the outpoint of its deploy+mint output, `<txid>_<vout>`. */
export const TOKEN_ID_PATTERN = /^[0-9a-f]{64}_(0|[1-9]\d{0,9})$/;

export type TokenOp = 'deploy+mint' | 'transfer';

/** What a token output's locking script says: the operation, the amount in whole token units, and who may spend it. */
export type TokenOutput = {
  op: TokenOp;
  /** A transfer's token id; a deploy+mint's id is its own outpoint, which the script cannot know. */
  tokenId?: string;
  /** Whole token units (`dec` only says where a wallet puts the point). */
  amount: bigint;
  /** A deploy+mint's symbol. */
  symbol?: string;
  /** A deploy+mint's decimals (0 when it gives none). */
  decimals?: number;
  /** The owner's public key hash, hex (20 bytes). */
  ownerPkh: string;
  /** The cosigner's compressed public key, hex, when the owner's lock is MNEE's cosign template. */
  cosignerPublicKey?: string;
};

/** The inscription of a token output to build. */
export type TokenInscription =
  | { op: 'deploy+mint'; symbol: string; decimals: number; amount: bigint; icon?: string }
  | { op: 'transfer'; tokenId: string; amount: bigint };

/** True for a token id's form, `<64 lowercase hex>_<vout>`. */
export function isTokenId(value: string): boolean {
  if (!TOKEN_ID_PATTERN.test(value)) return false;
  return Number(value.slice(65)) <= 0xffffffff;
}
