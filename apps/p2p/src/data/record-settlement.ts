import { AppError } from '@ctk/shared';
import type { PrismaClient } from '../generated/prisma/client.js';
import { recordPaidDerivationIndex } from './record-paid-derivation-index.js';

export type SettlementRecord = { txid: string; organizationId: string; purpose: string; sourceId: string; scripts: string[] };

// The primary key decides: of concurrent claims on one txid, the first commits and the others find its
// row (ON CONFLICT waits for that commit), so no two claims ever both win.
const CLAIM_TXID = `INSERT INTO spent_txids (txid, organization_id, purpose, source_id) VALUES ($1, $2::uuid, $3, $4)
  ON CONFLICT (txid) DO NOTHING RETURNING txid`;
const PAID_CHILDREN = `SELECT xpub, MAX(derivation_index) AS index FROM allocated_destinations
  WHERE organization_id = $1::uuid AND script = ANY($2::text[]) GROUP BY xpub`;

/**
 * In one transaction: the txid as paying this claim, and the allocated children of the xpub it pays as
 * paid (the gap window moves up, as a paymail payment moves it). True when recorded now; false when it
 * already paid this same claim (a retry); txid_already_used when it paid another claim.
 */
export async function recordSettlement(prisma: PrismaClient, record: SettlementRecord): Promise<boolean> {
  return prisma.$transaction(
    async (tx) => {
      const inserted = await tx.$queryRawUnsafe<unknown[]>(CLAIM_TXID, record.txid, record.organizationId, record.purpose, record.sourceId);
      if (inserted.length === 0) {
        const spent = await tx.spentTxid.findUnique({ where: { txid: record.txid } });
        if (spent && isSameClaim(spent, record)) return false;
        throw txidAlreadyUsed(record.txid);
      }
      const children = await tx.$queryRawUnsafe<{ xpub: string; index: number }[]>(PAID_CHILDREN, record.organizationId, record.scripts);
      for (const child of children)
        await recordPaidDerivationIndex(tx, {
          organizationId: record.organizationId,
          xpub: child.xpub,
          derivationIndex: Number(child.index),
        });
      return true;
    },
    { maxWait: 10_000 },
  );
}

export function txidAlreadyUsed(txid: string): AppError {
  return new AppError('txid_already_used', `Transaction ${txid} already paid for something else; a transaction pays once.`, { txid });
}

type ClaimRow = { organizationId: string; purpose: string; sourceId: string };

/** Whether a spent txid's row is this claim's: the same organisation, purpose and source. */
export function isSameClaim(spent: ClaimRow, claim: ClaimRow): boolean {
  return spent.organizationId === claim.organizationId && spent.purpose === claim.purpose && spent.sourceId === claim.sourceId;
}
