import { Transaction, Utils } from '@bsv/sdk';
import { addressOfScript, type ChainNetwork } from '@ctk/chain';
import type { JointTransaction as JointMessage } from '@ctk/proto/ctk/contracts/v1/contracts';
import type { JointWithSignatures } from '../data/joint-repository.js';
import { lockOf } from './create-joint-transaction.js';
import { sourceTxidOf } from './sign-joint-transaction.js';

/** A joint transaction as the API answers it: the agreed transaction, who has signed each input, and what to do next. */
export function toJointMessage(row: JointWithSignatures, network: ChainNetwork): JointMessage {
  const agreed = Transaction.fromHexEF(row.transaction);
  const locks = (row.locks as unknown[]).map(lockOf);
  const prefix = network === 'main' ? 0x00 : 0x6f;
  return {
    id: row.id,
    status: row.status,
    description: row.description,
    orgHandle: row.orgHandle,
    transaction: row.transaction,
    inputs: agreed.inputs.map((input, index) => {
      const lock = locks[index]!;
      return {
        txid: sourceTxidOf(input)!,
        vout: input.sourceOutputIndex,
        satoshis: BigInt(input.sourceTransaction!.outputs[input.sourceOutputIndex]!.satoshis!),
        kind: lock.kind,
        address: lock.kind === 'p2pkh' ? Utils.toBase58Check(Utils.toArray(lock.pkh, 'hex'), [prefix]) : undefined,
        publicKeys: lock.kind === 'multisig' ? lock.publicKeys : [],
        required: lock.kind === 'multisig' ? lock.required : 1,
        signedBy: row.signatures.filter((signature) => signature.inputIndex === index).map((signature) => signature.publicKey),
      };
    }),
    outputs: agreed.outputs.map((output) => ({
      satoshis: BigInt(output.satoshis!),
      script: output.lockingScript.toHex(),
      address: addressOfScript(output.lockingScript.toHex(), network),
    })),
    feeSatoshis: row.feeSatoshis,
    txid: row.txid ?? undefined,
    signedTransaction: row.signedTransaction ?? undefined,
    createdAt: row.createdAt.toISOString(),
    broadcastAt: row.broadcastAt?.toISOString(),
    nextSteps: nextSteps(row),
  };
}

function nextSteps(row: JointWithSignatures): string[] {
  if (row.status === 'broadcast') return [];
  if (row.status === 'signed')
    return [
      `Every signature is in: send any partner's signatures again (POST /api/v1/joint-transactions/${row.id}/signatures) to broadcast it.`,
    ];
  return [
    `Each partner signs the agreed transaction with their own wallet: pnpm wallet --file <your wallet file> sign-transaction --partial <transaction>`,
    `and hands back what it printed: POST /api/v1/joint-transactions/${row.id}/signatures {"transaction": "<signed hex>"}`,
    'Once every input has its signatures, the service combines them and broadcasts the transaction.',
  ];
}
