import type { ChainNetwork } from '@ctk/chain';
import type { TimelockedRefund as RefundMessage } from '@ctk/proto/ctk/contracts/v1/contracts';
import { toJointMessage } from '../joint/joint-message.js';
import type { RefundState } from './timelocked-refund-state.js';

/** A time-locked refund as the API answers it: its terms and lock, its joint transactions, and what to do next. */
export function toRefundMessage(state: RefundState, network: ChainNetwork): RefundMessage {
  const { row } = state;
  const joint = (found: RefundState['funding']) => (found ? toJointMessage(found, network) : undefined);
  return {
    id: row.id,
    status: state.status,
    orgHandle: row.orgHandle,
    description: row.description,
    satoshis: row.satoshis,
    buyerPublicKey: row.buyerPublicKey,
    sellerPublicKey: row.sellerPublicKey,
    lockScript: row.lockScript,
    refundAfter: row.refundAfter.toISOString(),
    releaseAddress: row.releaseAddress,
    refundAddress: row.refundAddress,
    funding: joint(state.funding),
    refund: joint(state.refund),
    release: joint(state.release),
    cancel: joint(state.cancel),
    createdAt: row.createdAt.toISOString(),
    nextSteps: nextSteps(state),
  };
}

function nextSteps(state: RefundState): string[] {
  const at = `/api/v1/timelocked-refunds/${state.row.id}`;
  const sign = (what: string, id: string) =>
    `${what} with pnpm wallet sign-transaction --partial and hand it back: POST /api/v1/joint-transactions/${id}/signatures`;
  switch (state.status) {
    case 'awaiting_funding':
      return state.funding
        ? [sign('The buyer signs the funding (funding.transaction); it is kept off the chain until the refund is signed', state.funding.id)]
        : [`The buyer names the coins that fund it: POST ${at}/funding {"inputs": [{"txid", "vout"}], "change_address"}`];
    case 'signing_refund':
      return [
        sign(
          `Buyer and shop each sign the refund (refund.transaction, valid after ${state.row.refundAfter.toISOString()})`,
          state.refund!.id,
        ),
      ];
    case 'funding':
      return [`Read it again (GET ${at}): the funding goes to the chain now that the buyer holds the signed refund.`];
    case 'active':
      return [
        `After ${state.row.refundAfter.toISOString()} the service broadcasts the refund (the buyer may too: refund.signed_transaction).`,
        `Before then, both may settle it: POST ${at}/settlement {"outcome": "release"} (to the shop) or {"outcome": "cancel"} (back to the buyer now).`,
      ];
    default:
      return [];
  }
}
