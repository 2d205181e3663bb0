import { AppError, type Sql } from '@ctk/shared';
import type { PrismaClient } from '../generated/prisma/client.js';
import { recordPaidDerivationIndex } from './record-paid-derivation-index.js';
import { claimOutputs } from './spent-outputs.js';

export type SettlementRecord = {
  txid: string;
  /** The outputs of the transaction the claim takes: those paying its expected scripts. */
  vouts: number[];
  organizationId: string;
  purpose: string;
  sourceId: string;
  scripts: string[];
};

const PAID_CHILDREN = `SELECT xpub, MAX(derivation_index) AS index FROM allocated_destinations
  WHERE organization_id = $1::uuid AND script = ANY($2::text[]) GROUP BY xpub`;

/**
 * In one transaction, without Prisma's client (decision 0048: every payment settles here): each output the claim
 * takes as paying it (an output pays one claim; another output of the same transaction may pay another, decision
 * 0022), and the allocated children of the xpub it pays as paid (the gap window moves up, as a paymail payment
 * moves it). True when recorded now; false when those outputs already paid this same claim (a retry);
 * txid_already_used when one paid another claim.
 */
export async function recordSettlement(sql: Sql, record: SettlementRecord): Promise<boolean> {
  return sql.transaction(async (tx) => {
    const claimed = await claimOutputs(tx, record.txid, record.vouts, record);
    if (claimed.others.length > 0) throw txidAlreadyUsed(record.txid);
    if (claimed.recorded === 0) return false;
    const children = await tx.rows<{ xpub: string; index: number }>(PAID_CHILDREN, [record.organizationId, record.scripts]);
    for (const child of children)
      await recordPaidDerivationIndex(tx, {
        organizationId: record.organizationId,
        xpub: child.xpub,
        derivationIndex: Number(child.index),
      });
    return true;
  });
}

/** Whether this claim already recorded `txid` (a retry of a settlement). */
export async function isSettlementRecorded(
  prisma: PrismaClient,
  txid: string,
  claim: { organizationId: string; purpose: string; sourceId: string },
) {
  return (await prisma.spentTxid.count({ where: { txid, ...claim } })) > 0;
}

export function txidAlreadyUsed(txid: string): AppError {
  return new AppError('txid_already_used', `Transaction ${txid} already paid for something else with this output; an output pays once.`, {
    txid,
  });
}
