import { AppError, validate } from '@ctk/shared';
import { z } from 'zod';
import type { TimelockedRefund } from '../data/timelocked-refund-repository.js';
import type { ContractsContext } from '../domain/contracts-context.js';
import { createJointTransaction } from '../joint/create-joint-transaction.js';
import { advanceRefund, foundRefund } from './timelocked-refund-state.js';

const fundSchema = z.object({
  id: z.string(),
  inputs: z.array(z.object({ txid: z.string(), vout: z.number() })).min(1, 'inputs must name the buyer’s coins that fund the lock'),
  changeAddress: z.string().min(1, 'change_address is required: where the rest goes back to the buyer'),
});
const settleSchema = z.object({ id: z.string(), outcome: z.enum(['release', 'cancel'], { error: 'outcome must be release or cancel' }) });

/**
 * The buyer's funding (decision 0039): a joint transaction from the buyer's coins paying the lock the amount as
 * its first output, held once the buyer signs it: it goes to the chain only once the refund is signed too.
 */
export async function fundTimelockedRefund(context: ContractsContext, input: unknown): Promise<TimelockedRefund> {
  const request = validate(fundSchema, input);
  const row = await foundRefund(context, request.id);
  if (row.fundingId) return row;
  const joint = await createJointTransaction(
    context,
    { id: row.organizationId, handle: row.orgHandle },
    {
      inputs: request.inputs,
      outputs: [{ script: row.lockScript, address: '', satoshis: row.satoshis }],
      changeAddress: request.changeAddress,
      description: `Funding of time-locked refund ${row.id}`,
    },
    { holdBroadcast: true },
  );
  return context.refunds.link(row.id, 'fundingId', joint.id);
}

/**
 * A newer state than the refund (decision 0039): the lock to the shop now (release) or back to the buyer now
 * (cancel), final, which both sign; on the chain it spends what the refund would, so the refund is never taken.
 * Only while funded and not settled. Asked again for the same outcome, the one proposed.
 */
export async function settleTimelockedRefund(context: ContractsContext, input: unknown): Promise<TimelockedRefund> {
  const request = validate(settleSchema, input);
  const state = await advanceRefund(context, await foundRefund(context, request.id));
  const field = request.outcome === 'release' ? 'releaseId' : 'cancelId';
  if (state.row[field]) return state.row;
  if (state.status !== 'active')
    throw new AppError(
      'failed_precondition',
      `Time-locked refund ${state.row.id} is ${state.status}: only a funded one is released or cancelled`,
      {
        reason: state.status,
      },
    );
  const joint = await createJointTransaction(
    context,
    { id: state.row.organizationId, handle: state.row.orgHandle },
    {
      inputs: [{ txid: state.funding!.txid!, vout: 0 }],
      outputs: [],
      changeAddress: request.outcome === 'release' ? state.row.releaseAddress : state.row.refundAddress,
      description: `${request.outcome === 'release' ? 'Release' : 'Early refund'} of time-locked refund ${state.row.id}`,
    },
  );
  return context.refunds.link(state.row.id, field, joint.id);
}
