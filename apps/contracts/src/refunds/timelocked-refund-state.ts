import { Transaction } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import type { JointWithSignatures } from '../data/joint-repository.js';
import type { TimelockedRefund } from '../data/timelocked-refund-repository.js';
import type { ContractsContext } from '../domain/contracts-context.js';
import { createJointTransaction } from '../joint/create-joint-transaction.js';
import { broadcastSigned } from '../joint/sign-joint-transaction.js';

export type RefundStatus = 'awaiting_funding' | 'signing_refund' | 'funding' | 'active' | 'released' | 'cancelled' | 'refunded';
export type RefundState = {
  row: TimelockedRefund;
  status: RefundStatus;
  funding?: JointWithSignatures;
  refund?: JointWithSignatures;
  release?: JointWithSignatures;
  cancel?: JointWithSignatures;
};

/** Where a time-locked refund stands, from its joint transactions (decision 0039). */
export async function refundState(context: Pick<ContractsContext, 'joints'>, row: TimelockedRefund): Promise<RefundState> {
  const read = async (id: string | null) => (id ? ((await context.joints.byId(id)) ?? undefined) : undefined);
  const [funding, refund, release, cancel] = await Promise.all([
    read(row.fundingId),
    read(row.refundId),
    read(row.releaseId),
    read(row.cancelId),
  ]);
  return { row, status: statusOf(funding, refund, release, cancel), funding, refund, release, cancel };
}

function statusOf(
  funding?: JointWithSignatures,
  refund?: JointWithSignatures,
  release?: JointWithSignatures,
  cancel?: JointWithSignatures,
): RefundStatus {
  if (release?.status === 'broadcast') return 'released';
  if (cancel?.status === 'broadcast') return 'cancelled';
  if (refund?.status === 'broadcast') return 'refunded';
  if (funding?.status === 'broadcast') return 'active';
  if (refund && refund.status !== 'collecting') return 'funding';
  if (funding && funding.status !== 'collecting') return 'signing_refund';
  return 'awaiting_funding';
}

const isSigned = (joint?: JointWithSignatures) => joint !== undefined && joint.status !== 'collecting';

/**
 * Moves a time-locked refund on as far as it can go now (decision 0039), in order, each step once:
 * the funding signed, the refund to sign is built (spending the funding's lock output back to the buyer,
 * nLockTime its date, held once signed); the refund signed by both, the funding goes to the chain (never
 * before: the buyer's money moves only once the buyer holds the way back); past its date and funded, the
 * refund is broadcast, which the chain takes once its median time past is later (until then it is refused
 * as non-final and tried again); once any of refund, release or cancel is on the chain, it is closed.
 */
export async function advanceRefund(context: ContractsContext, row: TimelockedRefund): Promise<RefundState> {
  let state = await refundState(context, row);
  if (row.closedAt) return state;
  if (state.funding && isSigned(state.funding) && !state.refund) {
    const funding = Transaction.fromHex(state.funding.signedTransaction!);
    const refund = await createJointTransaction(
      context,
      { id: row.organizationId, handle: row.orgHandle },
      {
        inputs: [{ txid: funding.id('hex'), vout: 0 }],
        outputs: [],
        changeAddress: row.refundAddress,
        description: `Time-locked refund ${row.id}`,
      },
      { lockTime: Math.floor(row.refundAfter.getTime() / 1000), holdBroadcast: true, unbroadcast: [funding] },
    );
    state = await refundState(context, await context.refunds.link(row.id, 'refundId', refund.id));
  }
  if (state.funding?.status === 'signed' && isSigned(state.refund)) {
    await broadcastSigned(context, state.funding);
    state = await refundState(context, state.row);
  }
  if (state.status === 'active' && state.refund?.status === 'signed' && context.now() >= row.refundAfter) {
    try {
      await broadcastSigned(context, state.refund);
    } catch (error) {
      // Not final yet by the chain's median time past, or the lock was spent by a release or a cancel: both are
      // the chain's to say, and neither is this reader's error.
      if (!AppError.is(error) || error.code !== 'chain_rejected') throw error;
      context.logger.info({ id: row.id, reason: error.message }, 'the time-locked refund is not taken yet');
    }
    state = await refundState(context, state.row);
  }
  if (['released', 'cancelled', 'refunded'].includes(state.status))
    state = { ...state, row: await context.refunds.close(row.id, context.now()) };
  return state;
}

/** The refund, or not_found. */
export async function foundRefund(context: ContractsContext, id: string): Promise<TimelockedRefund> {
  const row = await context.refunds.byId(id);
  if (!row) throw new AppError('not_found', `No time-locked refund ${id}`, { field: 'id' });
  return row;
}
