import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { orgOf } from '@ctk/shared';
import type { TokenRow } from '../data/token-repository.js';
import type { ContractsContext } from '../domain/contracts-context.js';

/** A shop mints a few tokens; drafts that were never signed are listed too, so the list is bounded rather than paged. */
const MOST_LISTED = 200;

/** The shop's tokens, newest first: drafts awaiting the wallet's signature and active tokens. */
export async function listTokens(context: ContractsContext, orgRef: OrgRef | undefined): Promise<TokenRow[]> {
  return context.tokens.listByOrg(orgOf(orgRef).id, MOST_LISTED);
}
