import { LockingScript, Transaction, UnlockingScript } from '@bsv/sdk';
import { scriptOfAddress } from '@ctk/chain';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { AppError, lineOfText, MAX_SATOSHIS_BIGINT, orgOf, validate } from '@ctk/shared';
import { z } from 'zod';
import type { JointWithSignatures } from '../data/joint-repository.js';
import type { ContractsContext } from '../domain/contracts-context.js';
import { newRecordId } from '../domain/record-id.js';
import { inputLockOf, type InputLock } from './input-lock.js';

const MAX_INPUTS = 50;
const MAX_OUTPUTS = 50;
const MAX_SCRIPT_BYTES = 10_000;
/** The sequence of every input of a time-locked transaction: not final, so that its lock time binds. */
const NON_FINAL_SEQUENCE = 0xfffffffe;

/**
 * What a contract built on a joint transaction asks beyond its inputs and outputs (decision 0039): a lock time
 * (unix seconds; the inputs' sequences non-final), and to keep it once signed rather than broadcast it (the
 * contract broadcasts it when its time comes).
 */
export type JointTerms = {
  lockTime?: number;
  holdBroadcast?: boolean;
  /** Transactions an input may spend that the chain does not have yet (a held funding), by txid. */
  unbroadcast?: readonly Transaction[];
  /** A joint transaction of its own: the address of the shop's identity key, whose net receipt posts (decision 0037). */
  shopAddress?: string;
};

/** A P2PKH change output: 8 bytes of value, 1 of length, 25 of script. */
const CHANGE_OUTPUT_BYTES = 34;

const createSchema = z
  .object({
    inputs: z
      .array(
        z.object({
          txid: z.string().regex(/^[0-9a-f]{64}$/, 'txid must be 64 lower-case hex characters'),
          vout: z.number().int().min(0).max(1_000_000),
        }),
      )
      .min(1, 'inputs must name at least one output on the chain')
      .max(MAX_INPUTS, `inputs takes at most ${MAX_INPUTS}`),
    outputs: z
      .array(
        z.object({
          address: z.string().max(100).default(''),
          script: z
            .string()
            .max(MAX_SCRIPT_BYTES * 2)
            .regex(/^([0-9a-f]{2})*$/, 'script must be hex')
            .default(''),
          satoshis: z.bigint().min(1n, 'satoshis must be at least 1').max(MAX_SATOSHIS_BIGINT),
        }),
      )
      .max(MAX_OUTPUTS, `outputs takes at most ${MAX_OUTPUTS}`),
    description: lineOfText('description', 200).default(''),
    changeAddress: z.string().max(100).default(''),
    createdBy: z.string().max(100).default(''),
  })
  .refine((request) => request.outputs.length > 0 || request.changeAddress, {
    message: 'outputs must pay at least one output, or give change_address for all of it',
    path: ['outputs'],
  });

/**
 * Builds a transaction partners sign together (docs/decisions/0037-jointly-signed-transactions.md): each input
 * an output the chain has, P2PKH or bare multisig, read on the chain (its value and script are the chain's, not
 * the caller's); the outputs as agreed; the rest the fee, at least the configured rate for the signed size. The
 * agreed transaction is kept unsigned in Extended Format: every partner's wallet signs that one. With a change
 * address, what is left above the outputs and that fee is a last output paying it.
 */
export async function createJointTransaction(
  context: ContractsContext,
  orgRef: OrgRef | undefined,
  input: unknown,
  terms: JointTerms = {},
): Promise<JointWithSignatures> {
  const org = orgOf(orgRef);
  const request = validate(createSchema, input);
  const outpoints = request.inputs.map(({ txid, vout }) => `${txid}:${vout}`);
  const twice = outpoints.findIndex((outpoint, index) => outpoints.indexOf(outpoint) !== index);
  if (twice >= 0)
    throw new AppError('validation_failed', `inputs[${twice}] names ${outpoints[twice]} a second time`, { field: `inputs[${twice}]` });

  const tx = new Transaction();
  if (terms.lockTime) tx.lockTime = terms.lockTime;
  // A lock time binds only with a non-final sequence (decision 0039).
  const sequence = terms.lockTime ? NON_FINAL_SEQUENCE : 0xffffffff;
  const locks: InputLock[] = [];
  let inputSatoshis = 0n;
  for (const [index, { txid, vout }] of request.inputs.entries()) {
    const held = terms.unbroadcast?.find((tx) => tx.id('hex') === txid);
    const source = held ? { tx: held } : await context.chain.getTransaction(txid);
    if (!source)
      throw new AppError('failed_precondition', `The chain does not have transaction ${txid} (inputs[${index}])`, {
        field: `inputs[${index}]`,
      });
    const spent = source.tx.outputs[vout];
    if (!spent) throw new AppError('validation_failed', `Transaction ${txid} has no output ${vout}`, { field: `inputs[${index}]` });
    locks.push(inputLockOf(spent.lockingScript, index));
    inputSatoshis += BigInt(spent.satoshis ?? 0);
    tx.addInput({ sourceTransaction: source.tx, sourceOutputIndex: vout, sequence, unlockingScript: new UnlockingScript() });
  }
  for (const [index, output] of request.outputs.entries())
    tx.addOutput({ lockingScript: outputScript(context, output, index), satoshis: Number(output.satoshis) });

  const outputSatoshis = request.outputs.reduce((sum, output) => sum + output.satoshis, 0n);
  if (outputSatoshis > inputSatoshis)
    throw new AppError('validation_failed', `The outputs pay ${outputSatoshis} satoshis, more than the inputs' ${inputSatoshis}`, {
      field: 'outputs',
    });
  const feeFor = (bytes: number) => feeOf(context.feeSatsPerKb, bytes);
  if (request.changeAddress) {
    const lockingScript = LockingScript.fromHex(scriptOfAddress(request.changeAddress, context.chain.network, 'change_address'));
    const change = inputSatoshis - outputSatoshis - feeFor(signedSize(tx, locks) + CHANGE_OUTPUT_BYTES);
    if (change >= 1n) tx.addOutput({ lockingScript, satoshis: Number(change) });
  }
  const fee = inputSatoshis - tx.outputs.reduce((sum, output) => sum + BigInt(output.satoshis!), 0n);
  const least = feeFor(signedSize(tx, locks));
  if (fee < least)
    throw new AppError(
      'validation_failed',
      `The outputs leave a fee of ${fee} satoshis; the signed transaction needs at least ${least} (${context.feeSatsPerKb} sat/kB): pay ${least - fee} less`,
      { field: 'outputs' },
    );
  return context.joints.insert({
    id: newRecordId('jtx'),
    organizationId: org.id,
    orgHandle: org.handle,
    description: request.description,
    transaction: tx.toHexEF(),
    locks: locks.map(lockJson),
    feeSatoshis: fee,
    holdBroadcast: terms.holdBroadcast ?? false,
    shopAddress: terms.shopAddress ?? null,
    createdBy: request.createdBy,
    createdAt: context.now(),
  });
}

function outputScript(context: ContractsContext, output: { address: string; script: string }, index: number): LockingScript {
  const field = `outputs[${index}]`;
  if (Boolean(output.address) === Boolean(output.script))
    throw new AppError('validation_failed', `${field} pays an address or a script: give one of them`, { field });
  if (output.address) return LockingScript.fromHex(scriptOfAddress(output.address, context.chain.network, `${field}.address`));
  try {
    return LockingScript.fromHex(output.script);
  } catch {
    throw new AppError('validation_failed', `${field}.script is not a script`, { field: `${field}.script` });
  }
}

/**
 * The least fee of a transaction spending one output under `lock` whole to one P2PKH address, as a joint
 * transaction with only a change address builds it: what an escrow's release takes (decision 0038).
 */
export function wholeSpendFee(feeSatsPerKb: number, lock: InputLock): bigint {
  const tx = new Transaction();
  tx.addInput({ sourceTXID: '00'.repeat(32), sourceOutputIndex: 0, sequence: 0xffffffff, unlockingScript: new UnlockingScript() });
  return feeOf(feeSatsPerKb, signedSize(tx, [lock]) + CHANGE_OUTPUT_BYTES);
}

function feeOf(feeSatsPerKb: number, bytes: number): bigint {
  return BigInt(Math.ceil((bytes * feeSatsPerKb) / 1000));
}

/** The transaction's size once signed: each P2PKH unlocking script at most 107 bytes, a multisig's 1 + 73 per signature. */
function signedSize(tx: Transaction, locks: readonly InputLock[]): number {
  const unsigned = tx.toBinary().length;
  return unsigned + locks.reduce((sum, lock) => sum + (lock.kind === 'p2pkh' ? 108 : 3 + 74 * lock.required), 0);
}

/** As stored (snake_case keys, as the API says them). */
export function lockJson(lock: InputLock) {
  return lock.kind === 'p2pkh'
    ? { kind: lock.kind, pkh: lock.pkh }
    : { kind: lock.kind, required: lock.required, public_keys: lock.publicKeys };
}

/** The stored form read back. */
export function lockOf(json: unknown): InputLock {
  const lock = json as { kind: string; pkh?: string; required?: number; public_keys?: string[] };
  return lock.kind === 'p2pkh'
    ? { kind: 'p2pkh', pkh: lock.pkh! }
    : { kind: 'multisig', required: lock.required!, publicKeys: lock.public_keys! };
}
