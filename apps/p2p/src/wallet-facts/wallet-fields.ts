import { HD, Utils } from '@bsv/sdk';
import { z } from 'zod';

const P2PKH_PREFIXES = new Set([0x00, 0x6f]); // mainnet, testnet (and the local chain)

/** A P2PKH address on mainnet or testnet, checked by its base58check checksum. */
export const bsvAddress = z.string().refine((value) => {
  try {
    const { prefix, data } = Utils.fromBase58Check(value);
    return prefix.length === 1 && P2PKH_PREFIXES.has(prefix[0] as number) && data.length === 20;
  } catch {
    return false;
  }
}, 'not a valid BSV P2PKH address');

/** A BIP32 extended public key (xpub/tpub): the public side of the wallet; an extended private key is refused. */
export const walletXpubField = z
  .string()
  .trim()
  .max(200)
  .refine((value) => {
    try {
      const hd = HD.fromString(value);
      return !value.slice(1, 4).startsWith('prv') && hd.privKey === undefined;
    } catch {
      return false;
    }
  }, 'not an extended public key (xpub or tpub); never send an extended private key');

/** A compressed secp256k1 public key in hex (66 characters), kept in lower case. */
export const publicKeyField = z
  .string()
  .regex(/^0[23][0-9a-fA-F]{64}$/, 'a compressed public key: 66 hex characters starting with 02 or 03')
  .transform((value) => value.toLowerCase());

/** The facts of a wallet an organisation registers, named as the API names them; each optional. */
export const walletFields = z.object({
  receiving_address: bsvAddress.optional(),
  wallet_xpub: walletXpubField.optional(),
  identity_public_key: publicKeyField.optional(),
});
