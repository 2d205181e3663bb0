import type { PrismaClient, Token } from '../generated/prisma/client.js';
import { mintDraftSchema, type MintDraft } from '../tokens/mint-draft.js';

/** A token as the use cases see it: the row, its draft read. */
export type TokenRow = Omit<Token, 'draft'> & { draft: MintDraft };

export type NewTokenDraft = Omit<TokenRow, 'status' | 'tokenId' | 'txid' | 'deployedAt'>;

/** The tokens table (prisma/schema.prisma): drafts and the active tokens they became. */
export function createTokenRepository(prisma: PrismaClient) {
  return {
    /**
     * Stores the draft `build` makes from the organisation's open drafts (those whose hold has not ended: the
     * coins they spend are spoken for). One organisation's drafts are made one at a time, under a
     * transaction-scoped advisory lock, so two at once never spend the same coin.
     */
    async insertDraft(organizationId: string, now: Date, build: (open: TokenRow[]) => NewTokenDraft): Promise<TokenRow> {
      return prisma.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`tokens.mint:${organizationId}`}))`;
        const open = await tx.token.findMany({ where: { organizationId, status: 'draft', holdExpiresAt: { gt: now } } });
        const draft = build(open.map(rowOf));
        return rowOf(await tx.token.create({ data: { ...draft, status: 'draft' } }));
      });
    },

    /** The token of this organisation with this draft id; another organisation's is not found. */
    async byDraftId(organizationId: string, id: string): Promise<TokenRow | null> {
      const row = await prisma.token.findFirst({ where: { id, organizationId } });
      return row ? rowOf(row) : null;
    },

    /** The organisation's tokens, newest first, at most `take`. */
    async listByOrg(organizationId: string, take: number): Promise<TokenRow[]> {
      const rows = await prisma.token.findMany({ where: { organizationId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take });
      return rows.map(rowOf);
    },

    /** Whether the organisation has an active token (the tokens capability is then set up). */
    async hasActiveToken(organizationId: string): Promise<boolean> {
      return (await prisma.token.count({ where: { organizationId, status: 'active' } })) > 0;
    },

    /** The active token with this id (`<txid>_<vout>`), of whichever organisation minted it here. */
    async byTokenId(tokenId: string): Promise<TokenRow | null> {
      const row = await prisma.token.findUnique({ where: { tokenId } });
      return row ? rowOf(row) : null;
    },

    /**
     * Makes a draft the active token of `tokenId`, only while it is a draft: of two confirmations at once one
     * changes it, and the other reads what the first wrote. A token id is unique (another draft's is refused).
     */
    async activate(id: string, deployed: { tokenId: string; txid: string; deployedAt: Date }): Promise<TokenRow> {
      await prisma.token.updateMany({ where: { id, status: 'draft' }, data: { status: 'active', ...deployed } });
      return rowOf(await prisma.token.findUniqueOrThrow({ where: { id } }));
    },
  };
}

export type TokenRepository = ReturnType<typeof createTokenRepository>;

function rowOf(row: Token): TokenRow {
  return { ...row, draft: mintDraftSchema.parse(row.draft) };
}
