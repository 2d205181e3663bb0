import type { CapabilitySetup } from '@ctk/proto/ctk/common/v1/common';
import type { Org } from '@ctk/shared';
import type { ContractsContext } from './contracts-context.js';

/** The next step of each capability contracts owns that is not built yet: none is set up for any organisation. */
const NOT_BUILT = {
  escrow: '2-of-3 escrow becomes available in a later release; the contracts service does not build escrow contracts yet.',
  timelocked_refund: 'Time-locked refunds become available in a later release; the contracts service does not pre-sign refunds yet.',
  referral_covenant: 'Referral payouts become available in a later release; the contracts service does not create referral links yet.',
};

const MINT_FIRST =
  'Mint a token (POST /api/v1/orgs/:handle/tokens, admin): the service drafts it from your wallet’s coins, your wallet signs it ' +
  '(pnpm wallet sign-transaction), and you confirm it once broadcast.';

const JOINT_FIRST =
  'Build a transaction your partners sign with you (POST /api/v1/orgs/:handle/joint-transactions, staff): each signs it in ' +
  'their own wallet (pnpm wallet sign-transaction --partial) and hands the signatures back; the service combines and broadcasts it.';

/**
 * Each capability contracts owns, set up or not for the organisation: tokens once it has an active token, jointly
 * signed transactions once it has built one.
 */
export async function getSetup(context: Pick<ContractsContext, 'tokens' | 'joints'>, org: Org): Promise<CapabilitySetup[]> {
  const [minted, joint] = await Promise.all([context.tokens.hasActiveToken(org.id), context.joints.hasAny(org.id)]);
  return [
    ...Object.entries(NOT_BUILT).map(([capabilityId, nextStep]) => ({ capabilityId, setUp: false, nextStep })),
    { capabilityId: 'tokens', setUp: minted, nextStep: minted ? '' : MINT_FIRST },
    { capabilityId: 'psbt', setUp: joint, nextStep: joint ? '' : JOINT_FIRST },
  ];
}
