import { Hash, Utils, type LockingScript } from '@bsv/sdk';
import { parseMultisig } from '@ctk/chain';
import { AppError } from '@ctk/shared';

/** What an input of a joint transaction needs: one key's signature (P2PKH), or `required` of `publicKeys` (bare multisig). */
export type InputLock = { kind: 'p2pkh'; pkh: string } | { kind: 'multisig'; required: number; publicKeys: string[] };

const P2PKH = /^76a914([0-9a-f]{40})88ac$/;

/** The lock of the output input `index` spends; any other script than P2PKH or a bare multisig is refused, naming it. */
export function inputLockOf(script: LockingScript, index: number): InputLock {
  const pkh = P2PKH.exec(script.toHex())?.[1];
  if (pkh) return { kind: 'p2pkh', pkh };
  const multisig = parseMultisig(script);
  if (multisig) return { kind: 'multisig', ...multisig };
  throw new AppError(
    'validation_failed',
    `Input ${index} spends a script partners cannot sign here: only P2PKH and bare multisig (OP_m <keys> OP_n OP_CHECKMULTISIG, up to 5 keys) are.`,
    { field: `inputs[${index}]` },
  );
}

/** Whether `publicKey` (compressed, hex) may sign an input: one of a multisig's keys, or the key of the P2PKH's hash. */
export function mayBeSignedBy(lock: InputLock, publicKey: string): boolean {
  if (lock.kind === 'multisig') return lock.publicKeys.includes(publicKey);
  return Utils.toHex(Hash.hash160(Utils.toArray(publicKey, 'hex'))) === lock.pkh;
}
