import type { ContractsServiceImplementation } from '@ctk/proto/ctk/contracts/v1/contracts';
import { AppError, orgOf, qrImage } from '@ctk/shared';
import { shopIdentityAddress } from '../domain/contract-terms.js';
import { getSetup } from '../domain/get-setup.js';
import type { Escrow } from '../data/escrow-repository.js';
import { createEscrow } from '../escrow/create-escrow.js';
import { toEscrowMessage } from '../escrow/escrow-message.js';
import { takeOrderPayment } from '../escrow/escrow-order.js';
import { escrowState } from '../escrow/escrow-state.js';
import { fundEscrow, settleEscrow } from '../escrow/settle-escrow.js';
import { createTimelockedRefund } from '../refunds/create-timelocked-refund.js';
import { fundTimelockedRefund, settleTimelockedRefund } from '../refunds/settle-timelocked-refund.js';
import { toRefundMessage } from '../refunds/timelocked-refund-message.js';
import { advanceRefund, foundRefund, refundState } from '../refunds/timelocked-refund-state.js';
import type { TimelockedRefund } from '../data/timelocked-refund-repository.js';
import { createJointTransaction } from '../joint/create-joint-transaction.js';
import { toJointMessage } from '../joint/joint-message.js';
import { signJointTransaction } from '../joint/sign-joint-transaction.js';
import { confirmTokenMint } from '../tokens/confirm-token-mint.js';
import { draftTokenMint } from '../tokens/draft-token-mint.js';
import { listTokens } from '../tokens/list-tokens.js';
import { openTokenRedemption } from '../tokens/open-token-redemption.js';
import { redeemTokens } from '../tokens/redeem-tokens.js';
import { sellCredits } from '../tokens/sell-credits.js';
import { toRedemptionAddressMessage, toRedemptionMessage } from '../tokens/redemption-message.js';
import { tokenBalance } from '../tokens/token-balance.js';
import { tokenHolders } from '../tokens/token-holders.js';
import { toTokenMessage } from '../tokens/token-message.js';
import type { ContractsContext } from '../domain/contracts-context.js';
import type { ReferralCheckout } from '../data/referral-repository.js';
import { createReferralLink } from '../referrals/create-referral-link.js';
import { openReferralCheckout } from '../referrals/open-referral-checkout.js';
import { payReferralCheckout } from '../referrals/pay-referral-checkout.js';
import { checkoutUrls, toCheckoutMessage } from '../referrals/referral-checkout-message.js';
import { advanceCheckout, foundCheckout } from '../referrals/referral-checkout-state.js';
import { referralLinkMessages } from '../referrals/referral-link-message.js';
import { referralPaymentRequest } from '../referrals/referral-payment-request.js';

/** ContractsService over gRPC: thin handlers calling the use cases. */
export function contractsService(context: ContractsContext): ContractsServiceImplementation {
  const joint = (row: Parameters<typeof toJointMessage>[0]) => toJointMessage(row, context.chain.network);
  // A funded escrow of an order is read with pos's taking of it (decision 0038).
  const escrow = async (row: Escrow) => {
    const state = await escrowState(context, row);
    return toEscrowMessage(await takeOrderPayment(context, row, state), state, context.chain.network);
  };
  const refund = async (row: TimelockedRefund) => toRefundMessage(await refundState(context, row), context.chain.network);
  const checkout = async (row: ReferralCheckout, publicUrl: string) => {
    const link = await context.referrals.linkById(row.referralLinkId);
    return toCheckoutMessage(row, link!, publicUrl, context.now());
  };
  return {
    async getSetup({ org }) {
      return { capabilities: await getSetup(context, orgOf(org)) };
    },
    async draftTokenMint({ org, ...input }) {
      return { token: toTokenMessage(await draftTokenMint(context, org, input)) };
    },
    async confirmTokenMint({ org, ...input }) {
      return { token: toTokenMessage(await confirmTokenMint(context, org, input)) };
    },
    async listTokens({ org }) {
      return { data: (await listTokens(context, org)).map(toTokenMessage) };
    },
    listTokenHolders: (request) => tokenHolders(context, request),
    async openTokenRedemption({ org, ...input }) {
      return { redemptionAddress: toRedemptionAddressMessage(await openTokenRedemption(context, org, input)) };
    },
    async sellCredits({ org, ...input }) {
      return { sale: await sellCredits(context, org, input) };
    },
    async redeemTokens({ org, ...input }) {
      return { redemption: toRedemptionMessage(await redeemTokens(context, org, input)) };
    },
    getTokenBalance: (request) => tokenBalance(context, request),
    async createJointTransaction({ org, ...input }) {
      // Of its own, what it pays the shop posts to the shop's books once broadcast (decision 0037).
      const shopAddress = await shopIdentityAddress(context, orgOf(org));
      return { jointTransaction: joint(await createJointTransaction(context, org, input, { shopAddress })) };
    },
    async listJointTransactions({ org }) {
      return { data: (await context.joints.ofOrganization(orgOf(org).id)).map(joint) };
    },
    async getJointTransaction({ id }) {
      const found = await context.joints.byId(id);
      if (!found) throw new AppError('not_found', `No joint transaction ${id}`, { field: 'id' });
      return { jointTransaction: joint(found) };
    },
    async signJointTransaction(request) {
      const signed = await signJointTransaction(context, request);
      // The funding of an escrow of an order, broadcast: pos takes it as the order's payment now.
      const funded = signed.status === 'broadcast' ? await context.escrows.byFunding(signed.id) : null;
      if (funded) await takeOrderPayment(context, funded, await escrowState(context, funded));
      return { jointTransaction: joint(signed) };
    },
    async createEscrow({ org, ...input }) {
      return { escrow: await escrow(await createEscrow(context, org, input)) };
    },
    async listEscrows({ org }) {
      return { data: await Promise.all((await context.escrows.ofOrganization(orgOf(org).id)).map(escrow)) };
    },
    async getEscrow({ id }) {
      const found = await context.escrows.byId(id);
      if (!found) throw new AppError('not_found', `No escrow ${id}`, { field: 'id' });
      return { escrow: await escrow(found) };
    },
    async fundEscrow(request) {
      return { escrow: await escrow(await fundEscrow(context, request)) };
    },
    async settleEscrow(request) {
      return { escrow: await escrow(await settleEscrow(context, request)) };
    },
    async createTimelockedRefund({ org, ...input }) {
      return { timelockedRefund: await refund(await createTimelockedRefund(context, org, input)) };
    },
    async listTimelockedRefunds({ org }) {
      return { data: await Promise.all((await context.refunds.ofOrganization(orgOf(org).id)).map(refund)) };
    },
    async getTimelockedRefund({ id }) {
      const state = await advanceRefund(context, await foundRefund(context, id));
      return { timelockedRefund: toRefundMessage(state, context.chain.network) };
    },
    async fundTimelockedRefund(request) {
      return { timelockedRefund: await refund(await fundTimelockedRefund(context, request)) };
    },
    async settleTimelockedRefund(request) {
      return { timelockedRefund: await refund(await settleTimelockedRefund(context, request)) };
    },
    async createReferralLink({ org, publicUrl, ...input }) {
      const created = await createReferralLink(context, org, input);
      const [link] = await referralLinkMessages(context, [created], { withSales: true, publicUrl });
      return { referralLink: link };
    },
    async listReferralLinks({ org, publicUrl }) {
      const links = await context.referrals.linksOf(orgOf(org).id);
      return { data: await referralLinkMessages(context, links, { withSales: true, publicUrl }) };
    },
    async disableReferralLink({ org, id, publicUrl }) {
      const disabled = await context.referrals.disableLink(orgOf(org).id, id, context.now());
      if (!disabled) throw new AppError('not_found', `${orgOf(org).handle} has no referral link ${id}`, { field: 'id' });
      const [link] = await referralLinkMessages(context, [disabled], { withSales: true, publicUrl });
      return { referralLink: link };
    },
    async getReferralLink({ id, publicUrl }) {
      const found = await context.referrals.linkById(id);
      if (!found) throw new AppError('not_found', `No referral link ${id}`, { field: 'id' });
      const [link] = await referralLinkMessages(context, [found], { withSales: false, publicUrl });
      return { referralLink: link };
    },
    async openReferralCheckout(request) {
      return { referralCheckout: await checkout(await openReferralCheckout(context, request), request.publicUrl) };
    },
    async listReferralCheckouts({ org, publicUrl }) {
      const organizationId = orgOf(org).id;
      const links = new Map((await context.referrals.linksOf(organizationId)).map((link) => [link.id, link]));
      const rows = await context.referrals.checkoutsOf(organizationId);
      const missing = rows.filter((row) => !links.has(row.referralLinkId));
      for (const row of missing) links.set(row.referralLinkId, (await context.referrals.linkById(row.referralLinkId))!);
      return { data: rows.map((row) => toCheckoutMessage(row, links.get(row.referralLinkId)!, publicUrl, context.now())) };
    },
    async getReferralCheckout({ id, publicUrl }) {
      return { referralCheckout: await checkout(await advanceCheckout(context, await foundCheckout(context, id)), publicUrl) };
    },
    async getReferralPaymentRequest({ id, publicUrl }) {
      return referralPaymentRequest(await foundCheckout(context, id), publicUrl, context.now());
    },
    payReferralCheckout: (request) => payReferralCheckout(context, request),
    async getReferralCheckoutQr({ id, publicUrl, format }) {
      const found = await foundCheckout(context, id);
      return qrImage(checkoutUrls(publicUrl, found.id).payUri, format);
    },
  };
}
