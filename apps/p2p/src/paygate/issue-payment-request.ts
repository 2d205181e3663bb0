import { randomBytes } from 'node:crypto';
import { HD } from '@bsv/sdk';
import { addressOfScript } from '@ctk/chain';
import { AppError } from '@ctk/shared';
import type { GateResource } from '../generated/prisma/client.js';
import { deriveOutput } from '../paymail/derive-output.js';
import type { Account } from './gate-account.js';
import type { GateDeps } from './gate-deps.js';
import type { Offer } from './payment-required.js';

/** Unpaid requests are kept this long past their expiry (a late payment is told it expired), then deleted. */
const KEEP_EXPIRED_MS = 3_600_000;

/**
 * A new payment request for one payment of a resource: a fresh child of the organisation's xpub under the
 * gap limit (p2p's allocation, decision 0007), held for the payer until it expires, and a 128-bit nonce.
 * The gate needs the xpub: the payment goes to a key only the merchant's wallet holds, and BRC-121's
 * x-bsv-server names that child's public key. Expired unpaid requests of the account are cleared here.
 */
export async function issuePaymentRequest(deps: GateDeps, account: Account, resource: GateResource, url: string): Promise<Offer> {
  const { org } = account;
  if (!org.walletXpub)
    throw new AppError(
      'failed_precondition',
      `${org.handle} has no wallet xpub for the payment gate to derive a fresh output per payment from: an owner or admin sets wallet_xpub with PATCH /api/v1/organizations/${org.handle}.`,
    );
  const nonce = randomBytes(16).toString('base64url');
  const timeoutSeconds = deps.config.P2P_GATE_REQUEST_TTL_SECONDS;
  const expiresAt = new Date(Date.now() + timeoutSeconds * 1000);
  const derived = await deps.prisma.$transaction(
    async (tx) => {
      const output = await deriveOutput(tx, org, {
        gapLimit: deps.config.P2P_GAP_LIMIT,
        staffReserved: deps.config.P2P_STAFF_RESERVED_ADDRESSES,
        holdUntil: expiresAt,
        purpose: 'paygate',
        // Anyone may ask for a 402 (decision 0022): bounded with the other anonymous opens.
        anonymous: true,
      });
      await tx.gatePaymentRequest.create({
        data: {
          nonce,
          accountId: account.id,
          organizationId: org.id,
          resourceId: resource.id,
          script: output.script,
          satoshis: resource.priceSatoshis,
          xpub: output.xpub,
          derivationIndex: output.derivationIndex,
          expiresAt,
        },
      });
      await tx.gatePaymentRequest.deleteMany({
        where: { accountId: account.id, paidTxid: null, expiresAt: { lt: new Date(Date.now() - KEEP_EXPIRED_MS) } },
      });
      return output;
    },
    { maxWait: 20_000, timeout: 20_000 },
  );
  const serverKey = HD.fromString(org.walletXpub).derive(`m/0/${derived.derivationIndex}`).pubKey.toString();
  return {
    resource,
    url,
    network: deps.network,
    nonce,
    script: derived.script,
    address: addressOfScript(derived.script, deps.chain.network)!,
    serverKey,
    timeoutSeconds,
  };
}
