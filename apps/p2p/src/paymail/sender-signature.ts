import { BigNumber, BSM, PublicKey, Signature, Utils } from '@bsv/sdk';
import { AppError } from '@ctk/shared';

const invalid = (message: string) => new AppError('invalid_signature', message, { field: 'signature' });

/**
 * Checks a Bitcoin Signed Message (BSM, compact and base64, as paymail senders sign) over `message`
 * against `pubkey` (hex). Any failure, a malformed signature or key included, is `invalid_signature`.
 */
export function verifySenderSignature(message: string, signature: string, pubkey: string): void {
  let valid = false;
  try {
    valid = BSM.verify(Utils.toArray(message, 'utf8'), Signature.fromCompact(signature, 'base64'), PublicKey.fromString(pubkey));
  } catch {
    valid = false;
  }
  if (!valid) throw invalid("The sender's signature does not verify against the sender's public key.");
}

/** The public key (hex) a BSM compact signature over `message` was made with; `invalid_signature` when none. */
export function recoverSigner(message: string, signature: string): string {
  let key: string;
  try {
    const bytes = Utils.toArray(signature, 'base64');
    const recovery = (bytes[0] ?? 0) - 27 - 4;
    if (bytes.length !== 65 || recovery < 0 || recovery > 3) throw new Error('not a compact signature of a compressed key');
    const hash = new BigNumber(BSM.magicHash(Utils.toArray(message, 'utf8')));
    key = Signature.fromCompact(signature, 'base64').RecoverPublicKey(recovery, hash).toString();
  } catch {
    throw invalid("The sender's signature is not a Bitcoin Signed Message signature (65 bytes, base64).");
  }
  verifySenderSignature(message, signature, key);
  return key;
}
