import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { AppError, orgOf, validate } from '@ctk/shared';
import { z } from 'zod';
import type { TokenRow } from '../data/token-repository.js';
import { DRAFT_ID } from '../domain/record-id.js';
import { matchMint } from './match-mint.js';
import type { ContractsContext } from '../domain/contracts-context.js';

const confirmSchema = z.object({
  draftId: z.string().regex(DRAFT_ID, 'draft_id must be a draft id ("tkd_" and 24 characters)'),
  txid: z.string().regex(/^[0-9a-f]{64}$/, 'txid must be 64 lower-case hex characters'),
});

/** States of a transaction the chain will never mine. */
const REFUSED = new Set(['rejected', 'double_spend']);

/**
 * Confirms a drafted mint by the txid of the transaction the merchant's wallet signed and broadcast: the chain
 * must have it, and one of its outputs must be the draft's deploy+mint (symbol, decimals, whole supply, the
 * draft's owner address, P2PKH). The token is then active, its id that output's `<txid>_<vout>` (a deploy+mint
 * is always valid by BSV-21's rules). The same txid again answers the token as it is; a txid that is not the
 * draft's mint is validation_failed naming what differs, and another organisation's draft is not found.
 */
export async function confirmTokenMint(context: ContractsContext, orgRef: OrgRef | undefined, input: unknown): Promise<TokenRow> {
  const org = orgOf(orgRef);
  const { draftId, txid } = validate(confirmSchema, input);
  const token = await context.tokens.byDraftId(org.id, draftId);
  if (!token) throw new AppError('not_found', `${org.handle} has no token draft ${draftId}`, { field: 'draft_id' });
  if (token.status === 'active') return sameMint(token, txid);
  const found = await context.chain.getTransaction(txid);
  if (!found)
    throw new AppError(
      'not_found',
      `The chain does not have transaction ${txid}: broadcast the signed mint first (POST /api/v1/wallet/broadcast), then confirm it.`,
      { field: 'txid' },
    );
  if (REFUSED.has(found.status.state))
    throw new AppError('failed_precondition', `The chain refused transaction ${txid} (${found.status.state}): it mints nothing.`, {
      field: 'txid',
      state: found.status.state,
    });
  const match = matchMint(found.tx, token, context.chain.network);
  if ('differences' in match) {
    const said = match.differences.map((d) => `${d.field} ${JSON.stringify(d.found)} (the draft's: ${JSON.stringify(d.expected)})`);
    throw new AppError('validation_failed', `Transaction ${txid} is not draft ${draftId}'s mint: its deploy+mint has ${said.join(', ')}.`, {
      field: 'txid',
      differences: match.differences,
    });
  }
  const activated = await context.tokens.activate(token.id, { tokenId: `${txid}_${match.vout}`, txid, deployedAt: context.now() });
  return sameMint(activated, txid);
}

/** An active token confirmed again: the same txid answers it, another is refused (a draft mints once). */
function sameMint(token: TokenRow, txid: string): TokenRow {
  if (token.txid === txid) return token;
  throw new AppError(
    'failed_precondition',
    `Draft ${token.id} was already confirmed as token ${token.tokenId} (transaction ${token.txid}).`,
    {
      token_id: token.tokenId,
    },
  );
}
