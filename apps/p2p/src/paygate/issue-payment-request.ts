import { randomBytes } from 'node:crypto';
import { HD } from '@bsv/sdk';
import { addressOfScript } from '@ctk/chain';
import { AppError, prismaQueries } from '@ctk/shared';
import {
  addPaymentRequest,
  deleteExpiredRequests,
  findSharedOpenRequest,
  markOfferedAgain,
  type OfferedRequest,
} from '../data/gate-payment-request-repository.js';
import type { GateResource } from '../generated/prisma/client.js';
import { deriveOutput } from '../paymail/derive-output.js';
import { walletOf, type WalletOrg } from '../domain/org-wallet.js';
import type { Account } from './gate-account.js';
import type { GateDeps } from './gate-deps.js';
import type { Offer } from './payment-required.js';

/** Unpaid requests are kept this long past their expiry (a late payment is told it expired), then deleted. */
const KEEP_EXPIRED_MS = 3_600_000;
/** An open request offered again must leave its new payer this long to pay. */
const SHARED_OFFER_MIN_MS = 30_000;

/**
 * A new payment request for one payment of a resource: a fresh child of the organisation's xpub under the
 * gap limit (p2p's allocation, decision 0007), held for the payer until it expires, and a 128-bit nonce.
 * The gate needs the xpub: the payment goes to a key only the merchant's wallet holds, and BRC-121's
 * x-bsv-server names that child's public key. Expired unpaid requests of the account are cleared here.
 *
 * When the anonymous opens hold every address they may (decision 0022), the resource's open request is
 * offered again, nonce and all, rather than a 503: a flood of unpaid 402s cannot take a paid API down.
 * Its payers race to pay one request, which is claimed before anything is broadcast, so one transaction
 * pays it and the others are refused with their coins unmoved, and ask again. Such a request is marked
 * offered again first: its nonce no longer shows who paid it, so a payment of it offered again is not
 * answered with its credential (accept-gate-payment.ts).
 */
export async function issuePaymentRequest(deps: GateDeps, account: Account, resource: GateResource, url: string): Promise<Offer> {
  const org = await walletOf(prismaQueries(deps.prisma), account.org);
  if (!org.walletXpub)
    throw new AppError(
      'failed_precondition',
      `${org.handle} has no wallet xpub for the payment gate to derive a fresh output per payment from: an owner or admin sets wallet_xpub with PATCH /api/v1/organizations/${org.handle}.`,
    );
  const request = await newRequest(deps, account, org, resource).catch(async (error: unknown) => {
    if (!(error instanceof AppError) || error.code !== 'unavailable') throw error;
    const open = await openRequestOf(deps, account, resource, org.walletXpub!);
    if (!open) throw error;
    return open;
  });
  return {
    resource,
    url,
    network: deps.network,
    nonce: request.nonce,
    script: request.script,
    address: addressOfScript(request.script, deps.chain.network)!,
    serverKey: HD.fromString(org.walletXpub).derive(`m/0/${request.derivationIndex}`).pubKey.toString(),
    timeoutSeconds: Math.round((request.expiresAt.getTime() - Date.now()) / 1000),
  };
}

/** A request on a child of the xpub allocated for it alone, held until it expires. */
async function newRequest(deps: GateDeps, account: Account, org: WalletOrg, resource: GateResource): Promise<OfferedRequest> {
  const nonce = randomBytes(16).toString('base64url');
  const expiresAt = new Date(Date.now() + deps.config.P2P_GATE_REQUEST_TTL_SECONDS * 1000);
  return deps.prisma.$transaction(
    async (tx) => {
      const output = await deriveOutput(prismaQueries(tx), org, {
        gapLimit: deps.config.P2P_GAP_LIMIT,
        staffReserved: deps.config.P2P_STAFF_RESERVED_ADDRESSES,
        perClient: deps.config.P2P_ANONYMOUS_HOLDS_PER_CLIENT,
        holdUntil: expiresAt,
        purpose: 'paygate',
        // Anyone may ask for a 402 (decision 0022): bounded with the other anonymous opens. The gate is asked
        // by the merchant's resource server, which does not say who its client is: no per-client bound.
        anonymous: true,
        client: '',
      });
      // The wallet is read again as the child is taken: x-bsv-server names a child of the xpub read above.
      if (output.xpub !== org.walletXpub)
        throw new AppError('conflict', `${org.handle} changed its wallet while this payment request was made: ask again.`);
      await addPaymentRequest(tx, {
        nonce,
        accountId: account.id,
        organizationId: org.id,
        resourceId: resource.id,
        script: output.script,
        satoshis: resource.priceSatoshis,
        xpub: output.xpub,
        derivationIndex: output.derivationIndex,
        expiresAt,
      });
      await deleteExpiredRequests(tx, account.id, new Date(Date.now() - KEEP_EXPIRED_MS));
      return { nonce, script: output.script, derivationIndex: output.derivationIndex, expiresAt };
    },
    { maxWait: 20_000, timeout: 20_000 },
  );
}

/**
 * The resource's unpaid, unclaimed request on the current xpub with the most time left, if it leaves enough,
 * marked offered again before its nonce leaves here (one claimed meanwhile is not offered: the next is).
 */
async function openRequestOf(deps: GateDeps, account: Account, resource: GateResource, xpub: string): Promise<OfferedRequest | null> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const open = await findSharedOpenRequest(
      deps.prisma,
      { accountId: account.id, resourceId: resource.id, xpub, satoshis: resource.priceSatoshis },
      new Date(Date.now() + SHARED_OFFER_MIN_MS),
    );
    if (!open || (await markOfferedAgain(deps.prisma, open.nonce))) return open;
  }
  return null;
}
