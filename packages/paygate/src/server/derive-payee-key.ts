import { KeyDeriver, PrivateKey, type WalletProtocol } from '@bsv/sdk';

/** BRC-29's payment protocol, as `@bsv/402-pay` derives a BRC-121 payment's key. */
const BRC29: WalletProtocol = [2, '3241645161d8'];
const COMPRESSED_KEY = /^0[23][0-9a-fA-F]{64}$/;

export type MerchantIdentity = {
  /** The compressed public key the 402 names as `x-bsv-server`. */
  publicKey: string;
  /** The BRC-42 key a BRC-121 payment with these headers pays, or undefined when they do not name one. */
  payeeKey(headers: Record<string, string>): string | undefined;
};

/**
 * The merchant's identity key in the middleware (decision 0021): a payer following BRC-121 as `@bsv/402-pay`
 * does pays the BRC-42 child of `x-bsv-server` for its own key and the key id `<x-bsv-nonce> <base64 of
 * x-bsv-time>`. Only the holder of `x-bsv-server`'s private key can tell which key that is; the gate holds
 * none, so the middleware derives it and sends it as `payee_key`, from the payer's headers, never from one
 * naming the key itself.
 */
export function merchantIdentity(secret: string): MerchantIdentity {
  const key = /^[0-9a-fA-F]{64}$/.test(secret) ? PrivateKey.fromHex(secret) : PrivateKey.fromWif(secret);
  const deriver = new KeyDeriver(key);
  return {
    publicKey: key.toPublicKey().toString(),
    payeeKey(headers) {
      const { 'x-bsv-beef': beef, 'x-bsv-sender': sender, 'x-bsv-nonce': nonce, 'x-bsv-time': time } = headers;
      if (!beef || !sender || !nonce || !time || !COMPRESSED_KEY.test(sender) || !/^\d{1,16}$/.test(time)) return undefined;
      try {
        const keyId = `${nonce} ${Buffer.from(time, 'utf8').toString('base64')}`;
        return deriver.derivePublicKey(BRC29, keyId, sender.toLowerCase(), true).toString();
      } catch {
        // A nonce BRC-43 refuses as part of a key id: no key is paid, and the gate refuses the payment.
        return undefined;
      }
    },
  };
}
