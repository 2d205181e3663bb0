import { verifyPayment, type ChainClient, type PaymentSource } from '@ctk/chain';
import type { SettlePaymentRequest, SettlePaymentResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import { orgOf, type Sql } from '@ctk/shared';
import { isSettlementRecorded, recordSettlement } from '../data/record-settlement.js';
import { claimsOn, isSameClaim, outputsPaying } from '../data/spent-outputs.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { settlementOf } from './settlement-input.js';

export type SettleDeps = { prisma: PrismaClient; sql: Sql; chain: ChainClient };

/**
 * Verifies that a transaction pays the outputs another service issued and records its outputs to them as
 * paying that service's claim, once: each output pays one claim, so a transaction paying two orders'
 * outputs pays both (decision 0022). A submitted transaction is broadcast only once its outputs are right (verifyPayment);
 * a txid must be known to the chain and not refused. The txid is recorded after the chain has it, outside any
 * lock while the chain answers: a crash between the two is mended by the retry, which records it then.
 * The claim's txid already recorded for the same claim is a retry: looked up (not broadcast again) and
 * answered the same, `already_recorded`. p2p emits no payment event here: the claiming service does, in its
 * own outbox, with what it knows of the sale.
 */
export async function settlePayment(deps: SettleDeps, request: SettlePaymentRequest): Promise<SettlePaymentResponse> {
  const org = orgOf(request.org);
  const settlement = settlementOf(request);
  const { txid } = settlement;
  const claim = { organizationId: org.id, ...settlement.claim };

  const scripts = settlement.expected.map((output) => output.script);

  const retry = await isSettlementRecorded(deps.prisma, txid, claim);
  const payment: PaymentSource = retry || !settlement.transaction ? { txid } : { transaction: settlement.transaction };
  const verified = await verifyPayment({
    payment,
    expected: settlement.expected,
    chain: deps.chain,
    // An output pays one claim (decision 0022): used when an output this claim takes already paid another.
    isTxidUsed: async (id, tx) => (await claimsOn(deps.sql, id, outputsPaying(tx, scripts))).some((spent) => !isSameClaim(spent, claim)),
  });
  const recorded = await recordSettlement(deps.sql, {
    txid,
    vouts: outputsPaying(verified.tx, scripts),
    ...claim,
    scripts,
  });
  // Every output to an expected script counts toward it (a payer may split a payment over several).
  const outputs = verified.tx.outputs.map((output) => ({ script: output.lockingScript.toHex(), satoshis: BigInt(output.satoshis ?? 0) }));
  return {
    txid,
    paidSatoshis: settlement.expected.map((want) =>
      outputs.filter((output) => output.script === want.script).reduce((sum, output) => sum + output.satoshis, 0n),
    ),
    status: verified.status.state,
    blockHeight: verified.status.blockHeight,
    alreadyRecorded: !recorded,
  };
}
