import { AppError, validate } from '@ctk/shared';
import { z } from 'zod';
import type { Escrow } from '../data/escrow-repository.js';
import type { ContractsContext } from '../domain/contracts-context.js';
import { createJointTransaction } from '../joint/create-joint-transaction.js';
import { takeOrderPayment } from './escrow-order.js';
import { escrowState, type EscrowState } from './escrow-state.js';

const outpoint = z.object({ txid: z.string(), vout: z.number() });
const fundSchema = z.object({
  id: z.string(),
  inputs: z.array(outpoint).min(1, 'inputs must name the buyer’s coins that fund the lock'),
  changeAddress: z.string().min(1, 'change_address is required: where the rest goes back to the buyer'),
});
const settleSchema = z.object({ id: z.string(), outcome: z.enum(['release', 'refund'], { error: 'outcome must be release or refund' }) });

/**
 * The buyer's funding (decision 0038): a joint transaction from the buyer's coins paying the lock exactly the
 * escrow's amount as its first output, the rest back to the buyer; the buyer's wallet signs it. One funding per
 * escrow: asked again, the one proposed.
 */
export async function fundEscrow(context: ContractsContext, input: unknown): Promise<Escrow> {
  const request = validate(fundSchema, input);
  const escrow = await found(context, request.id);
  if (escrow.fundingId) return escrow;
  const joint = await createJointTransaction(
    context,
    { id: escrow.organizationId, handle: escrow.orgHandle },
    {
      inputs: request.inputs,
      outputs: [{ script: escrow.lockScript, address: '', satoshis: escrow.satoshis }],
      changeAddress: request.changeAddress,
      description: `Funding of escrow ${escrow.id}`,
    },
  );
  return (await context.escrows.link(escrow.id, 'fundingId', joint.id)).escrow;
}

/**
 * A release to the seller or a refund to the buyer (decision 0038): a joint transaction spending the lock (the
 * funding's first output) whole to the payee, less the fee; any two of the three keys sign it. Only once the
 * funding is on the chain, and not once either settlement is; an order's escrow is released only once pos holds
 * the order paid by it. Asked again for the same outcome, the one proposed.
 */
export async function settleEscrow(context: ContractsContext, input: unknown): Promise<Escrow> {
  const request = validate(settleSchema, input);
  const escrow = await found(context, request.id);
  const field = request.outcome === 'release' ? 'releaseId' : 'refundId';
  if (escrow[field]) return escrow;
  const state = await escrowState(context, escrow);
  if (!state.funding || state.funding.status !== 'broadcast')
    throw new AppError('failed_precondition', `Escrow ${escrow.id} is not funded yet: the buyer funds it first`, { reason: state.status });
  if (state.status === 'released' || state.status === 'refunded')
    throw new AppError('failed_precondition', `Escrow ${escrow.id} is ${state.status} already`, { reason: state.status });
  if (request.outcome === 'release') await orderHeldBy(context, escrow, state);
  const joint = await createJointTransaction(
    context,
    { id: escrow.organizationId, handle: escrow.orgHandle },
    {
      inputs: [{ txid: state.funding.txid!, vout: 0 }],
      outputs: [],
      changeAddress: request.outcome === 'release' ? escrow.releaseAddress : escrow.refundAddress,
      description: `${request.outcome === 'release' ? 'Release' : 'Refund'} of escrow ${escrow.id}`,
    },
  );
  return (await context.escrows.link(escrow.id, field, joint.id)).escrow;
}

/**
 * An escrow of an order is released only once pos holds the order paid by it: the shop is never paid twice for
 * one order (pos refused it: the order was paid another way first), nor paid for an order pos does not know paid.
 */
async function orderHeldBy(context: ContractsContext, escrow: Escrow, state: EscrowState): Promise<void> {
  const taken = await takeOrderPayment(context, escrow, state);
  if (taken.orderRefusal)
    throw new AppError(
      'failed_precondition',
      `pos did not take escrow ${escrow.id} as order ${escrow.orderNumber}'s payment (${taken.orderRefusal}): it can only be refunded`,
      { reason: 'order_refused' },
    );
  if (taken.orderNumber && !taken.orderPaidAt)
    throw new AppError(
      'unavailable',
      `pos could not be asked to take escrow ${escrow.id} as order ${escrow.orderNumber}'s payment: try again`,
    );
}

async function found(context: ContractsContext, id: string): Promise<Escrow> {
  const escrow = await context.escrows.byId(id);
  if (!escrow) throw new AppError('not_found', `No escrow ${id}`, { field: 'id' });
  return escrow;
}
