import type { SqlQueries } from '@ctk/shared';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

type Db = PrismaClient | Prisma.TransactionClient;

/** The public side of an organisation's wallet; null fields: not registered. */
export type WalletFacts = { receivingAddress: string | null; walletXpub: string | null; identityPublicKey: string | null };

export const NO_WALLET: WalletFacts = { receivingAddress: null, walletXpub: null, identityPublicKey: null };

const FACTS = { organizationId: true, receivingAddress: true, walletXpub: true, identityPublicKey: true } as const;

const WALLET = 'SELECT receiving_address, wallet_xpub, identity_public_key FROM organization_wallets WHERE organization_id = $1::uuid';

/** The wallet of the organisation of an id (a UUID): every order and checkout asks, so read without Prisma's client (decision 0048). */
export async function findWallet(sql: SqlQueries, organizationId: string): Promise<WalletFacts> {
  const [wallet] = await sql.rows<WalletFacts>(WALLET, [organizationId]);
  return wallet ?? NO_WALLET;
}

/** The wallets of several organisations, one per id in order (NO_WALLET for one that registered nothing). */
export async function findWallets(db: Db, organizationIds: readonly string[]): Promise<WalletFacts[]> {
  const rows = await db.organizationWallet.findMany({ where: { organizationId: { in: [...organizationIds] } }, select: FACTS });
  const byId = new Map(rows.map((row) => [row.organizationId, row]));
  return organizationIds.map((id) => byId.get(id) ?? NO_WALLET);
}

/** Stores the fields given (undefined: left as it is) and answers the wallet as stored. */
export async function saveWallet(db: Db, organizationId: string, fields: Partial<WalletFacts>): Promise<WalletFacts> {
  return db.organizationWallet.upsert({ where: { organizationId }, create: { organizationId, ...fields }, update: fields, select: FACTS });
}
