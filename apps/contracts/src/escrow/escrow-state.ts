import type { Escrow } from '../data/escrow-repository.js';
import type { JointWithSignatures } from '../data/joint-repository.js';
import type { ContractsContext } from '../domain/contracts-context.js';

export type EscrowStatus = 'awaiting_funding' | 'funding' | 'funded' | 'settling' | 'released' | 'refunded';
export type EscrowState = {
  status: EscrowStatus;
  funding?: JointWithSignatures;
  release?: JointWithSignatures;
  refund?: JointWithSignatures;
};

/** Where an escrow stands, from its joint transactions (decision 0038): nothing is stored twice. */
export async function escrowState(context: Pick<ContractsContext, 'joints'>, escrow: Escrow): Promise<EscrowState> {
  const read = async (id: string | null) => (id ? ((await context.joints.byId(id)) ?? undefined) : undefined);
  const [funding, release, refund] = await Promise.all([read(escrow.fundingId), read(escrow.releaseId), read(escrow.refundId)]);
  return { status: statusOf(funding, release, refund), funding, release, refund };
}

function statusOf(funding?: JointWithSignatures, release?: JointWithSignatures, refund?: JointWithSignatures): EscrowStatus {
  if (release?.status === 'broadcast') return 'released';
  if (refund?.status === 'broadcast') return 'refunded';
  if (release || refund) return 'settling';
  if (funding?.status === 'broadcast') return 'funded';
  return funding ? 'funding' : 'awaiting_funding';
}
