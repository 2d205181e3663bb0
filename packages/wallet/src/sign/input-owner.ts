import { Hash, Utils, type Transaction } from '@bsv/sdk';
import { parseMultisig, parseTokenOutput } from '@ctk/chain';
import { AppError } from '@ctk/shared';

const P2PKH = /^76a914([0-9a-f]{40})88ac$/;

/**
 * An input this wallet is asked to sign: a P2PKH (or P2PKH-owned token) output, by its key hash; or a bare
 * multisig, by its keys (in the lock's order, each with its hash) and how many signatures it needs.
 */
export type InputToSign =
  | { index: number; kind: 'p2pkh'; ownerPkh: string }
  | { index: number; kind: 'multisig'; required: number; keys: { publicKey: string; pkh: string }[] };

/**
 * The inputs of `tx` still to sign (empty unlocking script) and whose keys each needs. An input already signed
 * is left as it is (a partner's). Each input must carry the output it spends (Extended Format or BEEF):
 * without it there is nothing to sign against. A cosign-locked token output needs its cosigner too, and any
 * other script is not this wallet's to sign: both are refused, naming the input, unless `partial` (a joint
 * transaction, where partners sign what this wallet does not).
 */
export function inputsToSign(tx: Transaction, partial = false): InputToSign[] {
  return tx.inputs.flatMap((input, index): InputToSign[] => {
    if ((input.unlockingScript?.toBinary().length ?? 0) > 0) return [];
    const spent = input.sourceTransaction?.outputs[input.sourceOutputIndex];
    if (!spent)
      throw new AppError(
        'bad_request',
        `Input ${index} does not carry the output it spends: give the transaction in Extended Format (or BEEF), as the service's draft is.`,
      );
    const script = spent.lockingScript.toHex();
    const plain = P2PKH.exec(script)?.[1];
    if (plain) return [{ index, kind: 'p2pkh', ownerPkh: plain }];
    const multisig = parseMultisig(spent.lockingScript);
    if (multisig) {
      const keys = multisig.publicKeys.map((publicKey) => ({ publicKey, pkh: Utils.toHex(Hash.hash160(Utils.toArray(publicKey, 'hex'))) }));
      return [{ index, kind: 'multisig', required: multisig.required, keys }];
    }
    const token = parseTokenOutput(spent.lockingScript);
    if (partial) return token && !token.cosignerPublicKey ? [{ index, kind: 'p2pkh', ownerPkh: token.ownerPkh }] : [];
    if (token?.cosignerPublicKey)
      throw new AppError(
        'bad_request',
        `Input ${index} spends a token output cosign-locked to ${token.cosignerPublicKey}: send it with send-token.`,
      );
    if (token) return [{ index, kind: 'p2pkh', ownerPkh: token.ownerPkh }];
    throw new AppError(
      'bad_request',
      `Input ${index} spends a script this wallet does not sign (neither P2PKH, a P2PKH-owned token nor a bare multisig).`,
    );
  });
}

/** The key hashes an input could be signed with. */
export function keyHashesOf(input: InputToSign): string[] {
  return input.kind === 'p2pkh' ? [input.ownerPkh] : input.keys.map((key) => key.pkh);
}

/** The address of a public key hash in the network's form, for messages. */
export function addressOfPkh(pkh: string, mainnet: boolean): string {
  return Utils.toBase58Check(Utils.toArray(pkh, 'hex'), [mainnet ? 0x00 : 0x6f]);
}
