import { Utils, type Transaction } from '@bsv/sdk';
import { parseTokenOutput } from '@ctk/chain';
import { AppError } from '@ctk/shared';

const P2PKH = /^76a914([0-9a-f]{40})88ac$/;

/** An input this wallet is asked to sign: its index and the public key hash (hex) its spent output is locked to. */
export type InputToSign = { index: number; ownerPkh: string };

/**
 * The inputs of `tx` still to sign (empty unlocking script) and whose key each needs: a P2PKH output, or a
 * token output whose owner's lock is P2PKH (its signature covers the whole script, as for a coin). An input
 * already signed is left as it is (a partner's). Each input must carry the output it spends (Extended Format
 * or BEEF): without it there is nothing to sign against. A cosign-locked token output needs its cosigner too,
 * and any other script is not this wallet's to sign: both are refused, naming the input.
 */
export function inputsToSign(tx: Transaction): InputToSign[] {
  return tx.inputs.flatMap((input, index) => {
    if ((input.unlockingScript?.toBinary().length ?? 0) > 0) return [];
    const spent = input.sourceTransaction?.outputs[input.sourceOutputIndex];
    if (!spent)
      throw new AppError(
        'bad_request',
        `Input ${index} does not carry the output it spends: give the transaction in Extended Format (or BEEF), as the service's draft is.`,
      );
    const script = spent.lockingScript.toHex();
    const plain = P2PKH.exec(script)?.[1];
    if (plain) return [{ index, ownerPkh: plain }];
    const token = parseTokenOutput(spent.lockingScript);
    if (token?.cosignerPublicKey)
      throw new AppError(
        'bad_request',
        `Input ${index} spends a token output cosign-locked to ${token.cosignerPublicKey}: send it with send-token.`,
      );
    if (token) return [{ index, ownerPkh: token.ownerPkh }];
    throw new AppError('bad_request', `Input ${index} spends a script this wallet does not sign (neither P2PKH nor a P2PKH-owned token).`);
  });
}

/** The address of a public key hash in the network's form, for messages. */
export function addressOfPkh(pkh: string, mainnet: boolean): string {
  return Utils.toBase58Check(Utils.toArray(pkh, 'hex'), [mainnet ? 0x00 : 0x6f]);
}
