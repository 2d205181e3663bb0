import type { ChainNetwork } from '@ctk/chain';
import type { Escrow as EscrowMessage } from '@ctk/proto/ctk/contracts/v1/contracts';
import type { Escrow } from '../data/escrow-repository.js';
import { toJointMessage } from '../joint/joint-message.js';
import { escrowOrder, orderPayment } from './escrow-order.js';
import type { EscrowState } from './escrow-state.js';

/** An escrow as the API answers it: its terms and lock, the order it pays, its joint transactions, and what to do next. */
export function toEscrowMessage(escrow: Escrow, state: EscrowState, network: ChainNetwork): EscrowMessage {
  const joint = (row: EscrowState['funding']) => (row ? toJointMessage(row, network) : undefined);
  const order = escrowOrder(escrow);
  return {
    id: escrow.id,
    status: state.status,
    orgHandle: escrow.orgHandle,
    description: escrow.description,
    satoshis: escrow.satoshis,
    buyerPublicKey: escrow.buyerPublicKey,
    sellerPublicKey: escrow.sellerPublicKey,
    arbiterPublicKey: escrow.arbiterPublicKey,
    lockScript: escrow.lockScript,
    releaseAddress: escrow.releaseAddress,
    refundAddress: escrow.refundAddress,
    funding: joint(state.funding),
    release: joint(state.release),
    refund: joint(state.refund),
    createdAt: escrow.createdAt.toISOString(),
    nextSteps: nextSteps(escrow, state),
    ...(order && {
      orderNumber: order.orderNumber,
      orderTotalMinor: order.totalMinor,
      currency: order.currency,
      orderPayment: orderPayment(escrow),
      orderRefusal: escrow.orderRefusal ?? undefined,
    }),
  };
}

function nextSteps(escrow: Escrow, state: EscrowState): string[] {
  const at = `/api/v1/escrows/${escrow.id}`;
  switch (state.status) {
    case 'awaiting_funding':
      return [`The buyer names the coins that fund it: POST ${at}/funding {"inputs": [{"txid", "vout"}], "change_address"}`];
    case 'funding':
      return [
        `The buyer signs the funding (funding.transaction) with pnpm wallet sign-transaction --partial and hands it back: POST /api/v1/joint-transactions/${state.funding!.id}/signatures`,
      ];
    case 'funded':
      if (escrow.orderRefusal)
        return [
          `pos did not take it as order ${escrow.orderNumber}'s payment (${escrow.orderRefusal}): two of the three refund the buyer, POST ${at}/settlement {"outcome": "refund"}`,
        ];
      return [
        `Any of the three proposes the outcome: POST ${at}/settlement {"outcome": "release"} (to the seller) or {"outcome": "refund"} (to the buyer)`,
      ];
    case 'settling':
      return [
        'Two of the three sign the release or the refund with pnpm wallet sign-transaction --partial and hand it back to its joint transaction: the first with two signatures is broadcast.',
      ];
    default:
      return [];
  }
}
