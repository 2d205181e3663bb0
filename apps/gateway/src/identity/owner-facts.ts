import type { TaxSettings } from '@ctk/proto/ctk/books/v1/books';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import type { Wallet } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError, invalidInput, type CallOptions, type InputIssue } from '@ctk/shared';
import type { GatewayDeps } from '../deps.js';
import type { OrganizationUpdate } from './organization-fields.js';

/**
 * The facts about an organisation that other services own and the organisation answers show
 * (decision 0028): its wallet (p2p's) and its tax settings (books'). The gateway keeps no copy.
 */
export type OwnerFacts = { wallet: Wallet; tax: TaxSettings };

type Owners = Pick<GatewayDeps, 'services'>;

/** What an organisation nobody has told anything yet answers: no wallet, no jurisdiction, prices before tax. */
export function noFacts(organizationId: string): OwnerFacts {
  return {
    wallet: { organizationId, receivingAddress: '', walletXpub: '', identityPublicKey: '' },
    tax: { organizationId, jurisdiction: '', pricesIncludeTax: false, rate: undefined },
  };
}

/**
 * The owners' facts of several organisations (a page at most), each owner asked once and both at once. An
 * owner that does not answer leaves its facts as an organisation without any shows them (logged by the
 * client): the organisation is the gateway's and its own fields still answer, as the capability map
 * answers `set_up: null` for a service that does not.
 */
export async function readOwnerFacts(deps: Owners, organizationIds: string[], options: CallOptions): Promise<OwnerFacts[]> {
  if (organizationIds.length === 0) return [];
  const [wallets, settings] = await Promise.all([
    orNothing(deps.services.p2p.getWallets({ organizationIds }, options).then((answer) => answer.wallets)),
    orNothing(deps.services.books.getTaxSettings({ organizationIds, at: '' }, options).then((answer) => answer.settings)),
  ]);
  return organizationIds.map((id, index) => {
    const none = noFacts(id);
    return { wallet: wallets?.[index] ?? none.wallet, tax: settings?.[index] ?? none.tax };
  });
}

async function orNothing<T>(answer: Promise<T>): Promise<T | undefined> {
  try {
    return await answer;
  } catch (error) {
    if (AppError.is(error) && error.code === 'unavailable') return undefined;
    throw error;
  }
}

/** The fields of a change that p2p and books own, as their Set calls take them (absent: not changed). */
function ownersChange(fields: OrganizationUpdate) {
  const wallet = {
    receivingAddress: fields.receiving_address,
    walletXpub: fields.wallet_xpub,
    identityPublicKey: fields.identity_public_key,
  };
  const tax = {
    jurisdiction: fields.jurisdiction,
    pricesIncludeTax: fields.prices_include_tax ?? undefined,
    clearPricesIncludeTax: fields.prices_include_tax === null,
  };
  return {
    wallet: Object.values(wallet).some((value) => value !== undefined) ? wallet : null,
    tax: tax.jurisdiction !== undefined || fields.prices_include_tax !== undefined ? tax : null,
  };
}

/**
 * Has each owner check its part of a change, storing nothing (both at once): a refusal comes before the
 * gateway or any owner writes, as a 422 on the field named, in the words of the owner's rule. An owner
 * that does not answer is a 503, and nothing is written either.
 */
export async function checkWithOwners(deps: Owners, org: OrgRef, fields: OrganizationUpdate, options: CallOptions): Promise<void> {
  const change = ownersChange(fields);
  await asBodyErrors(
    Promise.all([
      change.wallet && deps.services.p2p.setWallet({ org, ...change.wallet, validateOnly: true }, options),
      change.tax && deps.services.books.setTaxSettings({ org, ...change.tax, validateOnly: true }, options),
    ]),
  );
}

/**
 * Writes each owner's part of a change (checked already by checkWithOwners), p2p then books, and answers
 * the facts as stored. Called inside the gateway's transaction, so a failure here leaves the gateway's own
 * fields unwritten. Each write sets values, so the same request again writes the same: books stopping
 * answering between the check and the write is a 503 saying the wallet was saved, and repeating the
 * request completes it.
 */
export async function writeToOwners(
  deps: Owners,
  org: OrgRef,
  fields: OrganizationUpdate,
  options: CallOptions,
  current: OwnerFacts,
): Promise<OwnerFacts> {
  const change = ownersChange(fields);
  const wallet = change.wallet ? (await deps.services.p2p.setWallet({ org, ...change.wallet }, options)).wallet : current.wallet;
  try {
    const tax = change.tax ? (await deps.services.books.setTaxSettings({ org, ...change.tax }, options)).settings : current.tax;
    if (!wallet || !tax) throw new AppError('internal', 'an owner answered its Set call without the facts stored');
    return { wallet, tax };
  } catch (error) {
    if (!change.wallet || !AppError.is(error) || error.code !== 'unavailable') throw error;
    throw new AppError(
      'unavailable',
      `Partly saved: the wallet fields were saved; the tax settings and the other fields were not (${error.message}). Send the same request again to complete it.`,
    );
  }
}

/** An owner's refusal of a field as the gateway answers a refused body: `Invalid body: <field>: <why>`. */
async function asBodyErrors<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    const issues =
      AppError.is(error) && error.code === 'validation_failed' ? (error.details?.issues as InputIssue[] | undefined) : undefined;
    if (!issues?.length) throw error;
    throw invalidInput(issues, 'body');
  }
}
