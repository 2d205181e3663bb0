import type { CapabilitySetup } from '@ctk/proto/ctk/common/v1/common';
import type { Org } from '@ctk/shared';
import type { ContractsContext } from './contracts-context.js';

const REFERRAL_FIRST =
  'Make a referral link for an item (POST /api/v1/orgs/:handle/referral-links, staff): whoever it names is paid their share of ' +
  'each sale through it, by a covenant the buyer pays into that lets the money go only to you and to them.';

const MINT_FIRST =
  'Mint a token (POST /api/v1/orgs/:handle/tokens, admin): the service drafts it from your wallet’s coins, your wallet signs it ' +
  '(pnpm wallet sign-transaction), and you confirm it once broadcast.';

const ESCROW_FIRST =
  'Agree an escrow with a buyer and an arbiter (POST /api/v1/orgs/:handle/escrows, staff): the buyer funds the 2-of-3 lock, ' +
  'and any two of you release or refund it, each signing in their own wallet.';

const REFUND_FIRST =
  'Agree a time-locked refund with a buyer (POST /api/v1/orgs/:handle/timelocked-refunds, staff): the buyer funds a 2-of-2 lock ' +
  'only once you both signed a refund the chain takes after its date.';

const JOINT_FIRST =
  'Build a transaction your partners sign with you (POST /api/v1/orgs/:handle/joint-transactions, staff): each signs it in ' +
  'their own wallet (pnpm wallet sign-transaction --partial) and hands the signatures back; the service combines and broadcasts it.';

/**
 * Each capability contracts owns, set up or not for the organisation: escrow and time-locked refunds once it has
 * agreed one, referral covenants once it has made a referral link, tokens once it has an active token, jointly
 * signed transactions once it has built one.
 */
export async function getSetup(
  context: Pick<ContractsContext, 'tokens' | 'joints' | 'escrows' | 'refunds' | 'referrals'>,
  org: Org,
): Promise<CapabilitySetup[]> {
  const [minted, joint, escrow, refund, referral] = await Promise.all([
    context.tokens.hasActiveToken(org.id),
    context.joints.hasAny(org.id),
    context.escrows.hasAny(org.id),
    context.refunds.hasAny(org.id),
    context.referrals.hasAny(org.id),
  ]);
  return [
    { capabilityId: 'escrow', setUp: escrow, nextStep: escrow ? '' : ESCROW_FIRST },
    { capabilityId: 'timelocked_refund', setUp: refund, nextStep: refund ? '' : REFUND_FIRST },
    { capabilityId: 'referral_covenant', setUp: referral, nextStep: referral ? '' : REFERRAL_FIRST },
    { capabilityId: 'tokens', setUp: minted, nextStep: minted ? '' : MINT_FIRST },
    { capabilityId: 'psbt', setUp: joint, nextStep: joint ? '' : JOINT_FIRST },
  ];
}
