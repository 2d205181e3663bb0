import { LockingScript, OP, PublicKey, type Script } from '@bsv/sdk';

/** The most keys a bare multisig lock of this project has: escrow's three, and partners' up to five. */
export const MAX_MULTISIG_KEYS = 5;

export type MultisigLock = { required: number; publicKeys: string[] };

const SMALL_INTEGER = (op: number | undefined): number | undefined =>
  op !== undefined && op >= OP.OP_1 && op <= OP.OP_16 ? op - OP.OP_1 + 1 : undefined;

/**
 * A bare multisig lock, `OP_m <key 1> ... <key n> OP_n OP_CHECKMULTISIG` (1 <= m <= n <= 5, compressed keys
 * of 33 bytes): what it needs, or undefined for any other script.
 */
export function parseMultisig(script: Script): MultisigLock | undefined {
  const chunks = script.chunks;
  const required = SMALL_INTEGER(chunks[0]?.op);
  const count = SMALL_INTEGER(chunks.at(-2)?.op);
  if (required === undefined || count === undefined || chunks.at(-1)?.op !== OP.OP_CHECKMULTISIG) return undefined;
  const keys = chunks.slice(1, -2);
  if (keys.length !== count || count > MAX_MULTISIG_KEYS || required > count) return undefined;
  if (!keys.every((chunk) => chunk.data?.length === 33 && chunk.op === 33)) return undefined;
  return { required, publicKeys: keys.map((chunk) => Buffer.from(chunk.data!).toString('hex')) };
}

/** The lock `required` of these compressed public keys (hex) open, in the order given. */
export function multisigLock(required: number, publicKeys: readonly string[]): LockingScript {
  if (publicKeys.length < 1 || publicKeys.length > MAX_MULTISIG_KEYS || required < 1 || required > publicKeys.length)
    throw new Error(`A multisig lock takes 1 to ${MAX_MULTISIG_KEYS} keys and 1 to that many signatures.`);
  const keys = publicKeys.map((hex) => PublicKey.fromString(hex).encode(true) as number[]);
  return new LockingScript([
    { op: OP.OP_1 + required - 1 },
    ...keys.map((data) => ({ op: data.length, data })),
    { op: OP.OP_1 + keys.length - 1 },
    { op: OP.OP_CHECKMULTISIG },
  ]);
}
