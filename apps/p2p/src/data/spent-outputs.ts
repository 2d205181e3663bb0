import type { Transaction } from '@bsv/sdk';
import type { SqlQueries } from '@ctk/shared';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

type Db = PrismaClient | Prisma.TransactionClient;

/** What an output paid for: the organisation, and the claim's purpose and source. */
export type ClaimRow = { organizationId: string; purpose: string; sourceId: string };

// An output claimed is (txid, vout): the primary key decides between concurrent claims on one output (the
// second waits for the first's commit, then inserts nothing). vout -1 is a row from before outputs were
// told apart: the whole transaction paid that claim, so it stands in the way of any other.
const CLAIM_OUTPUT = `INSERT INTO spent_txids (txid, vout, organization_id, purpose, source_id) VALUES ($1, $2::int4, $3::uuid, $4, $5)
  ON CONFLICT (txid, vout) DO NOTHING RETURNING vout`;
const CLAIMS_ON = `SELECT organization_id AS "organizationId", purpose, source_id AS "sourceId" FROM spent_txids
  WHERE txid = $1 AND (vout = -1 OR vout = ANY($2::int[]))`;

/** The outputs of `tx` that pay any of `scripts` (hex): what a claim on those scripts takes. */
export function outputsPaying(tx: Transaction, scripts: readonly string[]): number[] {
  const wanted = new Set(scripts.map((script) => script.toLowerCase()));
  return tx.outputs.flatMap((output, vout) => (wanted.has(output.lockingScript.toHex()) ? [vout] : []));
}

/** The claims already recorded on any of these outputs of the transaction (or on all of it). */
export async function claimsOn(sql: SqlQueries, txid: string, vouts: readonly number[]): Promise<ClaimRow[]> {
  return sql.rows<ClaimRow>(CLAIMS_ON, [txid, vouts.map(String)]);
}

/**
 * In the caller's transaction: each output as paying `claim`. Answers how many were recorded now (0: all
 * were this claim's already, a retry) and the other claims found on them: the caller refuses the payment
 * (and rolls back) when there is any.
 */
export async function claimOutputs(
  sql: SqlQueries,
  txid: string,
  vouts: readonly number[],
  claim: ClaimRow,
): Promise<{ recorded: number; others: ClaimRow[] }> {
  let recorded = 0;
  for (const vout of vouts)
    recorded += (await sql.rows(CLAIM_OUTPUT, [txid, vout, claim.organizationId, claim.purpose, claim.sourceId])).length;
  const others = (await claimsOn(sql, txid, vouts)).filter((row) => !isSameClaim(row, claim));
  return { recorded, others };
}

/** Whether a spent output's row is this claim's: the same organisation, purpose and source. */
export function isSameClaim(spent: ClaimRow, claim: ClaimRow): boolean {
  return spent.organizationId === claim.organizationId && spent.purpose === claim.purpose && spent.sourceId === claim.sourceId;
}

/** Whether any output of the transaction (or all of it) paid something here. */
export async function isTxidSpent(db: Db, txid: string): Promise<boolean> {
  return (await db.spentTxid.findFirst({ where: { txid }, select: { txid: true } })) !== null;
}

/** In the caller's transaction: each output as paying `claim`; an output already claimed is a unique violation. */
export async function recordSpentOutputs(db: Db, txid: string, vouts: readonly number[], claim: ClaimRow): Promise<void> {
  await db.spentTxid.createMany({ data: vouts.map((vout) => ({ txid, vout, ...claim })) });
}
