import { P2PKH, PublicKey } from '@bsv/sdk';
import { verifyBeef } from '@ctk/chain';
import type { GateCredential } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError, isUniqueViolation } from '@ctk/shared';
import { isPaymentNonceUsed } from '../data/gate-payment-repository.js';
import { claimPaymentRequest, findRequestPayment, releasePaymentRequestClaim } from '../data/gate-payment-request-repository.js';
import { findGateResource } from '../data/gate-resource-repository.js';
import { isTxidSpent } from '../data/spent-outputs.js';
import type { GatePayment, GateResource } from '../generated/prisma/client.js';
import { signCredential } from './credential.js';
import type { Account } from './gate-account.js';
import type { GateDeps } from './gate-deps.js';
import { findPaymentRequest } from './find-payment-request.js';
import { brc42Nonce, recordGatePayment, type PaidTarget } from './record-gate-payment.js';

/** A payment as a client offers it: x402 names its request by nonce; BRC-121 by the script it pays, with a fresh time. */
export type OfferedPayment = {
  transaction: Uint8Array;
  vout: number;
  protocol: 'x402' | 'brc121';
  nonce?: string;
  sender?: string;
  /** BRC-121's x-bsv-time: Unix milliseconds. */
  time?: string;
  /** BRC-121's x-bsv-nonce: the payer's BRC-29 derivation prefix. */
  derivationPrefix?: string;
  /** The BRC-42 key the merchant's middleware derived for this payment (see brc42Target). */
  payeeKey?: string;
};

/** How long a claim holds a request while its transaction is broadcast; a claim whose process died frees it after this. */
const CLAIM_MS = 120_000;
const COMPRESSED_KEY = /^0[23][0-9a-f]{64}$/;
const DERIVATION_PREFIX = /^(?=.{1,256}$)[A-Za-z0-9+/]+={0,2}$/;

/**
 * The one verifier: SPV of the BEEF, the output at `vout` pays the request's fresh script at least the
 * price, the request is open (its nonce unknown, expired or paid is refused) and, for BRC-121, the time is
 * within the freshness window, and the txid was never accepted (spent_txids' primary key decides, across
 * replicas). Then, with the request claimed so no other transaction broadcasts for it, the BEEF is broadcast;
 * then the payment, the spent txid and `payment.received` commit together; then the credential is issued.
 * Nothing is broadcast unless every check passed. `forResource` is the resource a /check request priced:
 * a payment for another resource does not pay for this one.
 */
export async function acceptGatePayment(
  deps: GateDeps,
  account: Account,
  offered: OfferedPayment,
  forResource?: GateResource,
): Promise<{ payment: GatePayment; credential: GateCredential }> {
  if (offered.protocol === 'brc121') checkFreshness(deps, offered);
  const { txid, tx } = await verifyBeef(offered.transaction, deps.chain.chainTracker);
  if (tx.merklePath) throw alreadyMined(txid);
  // Refused at once when the transaction paid something here before: an order's payment offered as the gate's
  // is refused, whichever output it names (its outputs do not pay the request's script either, decision 0022).
  if (await isTxidSpent(deps.prisma, txid)) throw txidUsed(txid);
  const { target, resource, price } =
    offered.payeeKey !== undefined
      ? brc42Target(account, offered, forResource)
      : await requestTarget(deps, account, offered, txid, tx.outputs[offered.vout]?.lockingScript.toHex() ?? '', forResource);
  const script = target.kind === 'request' ? target.request.script : target.script;
  // An x402 payload may leave the vout out: the output paying the request's script.
  const vout = offered.vout >= 0 ? offered.vout : tx.outputs.findIndex((output) => output.lockingScript.toHex() === script);
  const output = tx.outputs[vout];
  if (output?.lockingScript.toHex() !== script)
    throw new AppError('payment_wrong_output', `Output ${offered.vout} does not pay the script this payment was asked for.`, {
      field: 'vout',
      expected_script: script,
    });
  const satoshis = BigInt(output.satoshis ?? 0);
  if (satoshis < price)
    throw new AppError('payment_underpaid', `Output ${vout} pays ${satoshis} satoshis; the price is ${price}.`, {
      paid_satoshis: Number(satoshis),
      price_satoshis: Number(price),
    });

  const nonce = target.kind === 'request' ? target.request.nonce : undefined;
  if (nonce) await claim(deps, nonce, txid);
  // A BRC-42 payment's sender, nonce and time pay once: a second transaction for them is refused before it is broadcast.
  else if (target.kind === 'brc42' && (await isPaymentNonceUsed(deps.prisma, brc42Nonce(target))))
    throw new AppError(
      'payment_expired',
      'A payment with this x-bsv-sender, x-bsv-nonce and x-bsv-time was already made: pay with a new nonce.',
      {
        field: 'x-bsv-nonce',
      },
    );
  let payment: GatePayment;
  try {
    // Its BEEF may leave the proof out: the chain still knows a transaction it mined long ago.
    if ((await deps.chain.broadcast(offered.transaction)).state === 'mined') throw alreadyMined(txid);
    const lifetime = resource.grantKind === 'window' ? resource.grantSeconds! : deps.config.P2P_GATE_CALLS_CREDENTIAL_SECONDS;
    payment = await recordGatePayment(deps.prisma, {
      target,
      resource,
      txid,
      vout,
      satoshis,
      price,
      protocol: offered.protocol,
      payer: offered.sender && COMPRESSED_KEY.test(offered.sender) ? offered.sender : '',
      expiresAt: new Date(Date.now() + lifetime * 1000),
    });
  } catch (error) {
    if (nonce) await releasePaymentRequestClaim(deps.prisma, nonce, txid);
    if (isUniqueViolation(error)) throw txidUsed(txid);
    throw error;
  }
  deps.eventsCommitted();
  return { payment, credential: await credentialFor(deps, payment) };
}

type Target = { target: PaidTarget; resource: GateResource; price: bigint };

/**
 * A payment is a new transaction, handed over unbroadcast (x402 and BRC-121 alike). One already mined was
 * made before this payment was asked for: the chain is public, and a child of the xpub may be handed out
 * again (decision 0007), so someone else's earlier payment to it must not buy a credential.
 */
function alreadyMined(txid: string): AppError {
  return new AppError('payment_invalid', `Transaction ${txid} is already mined: a payment is a new transaction, handed over unbroadcast.`, {
    txid,
  });
}

/** A payment of a payment request the gate issued (x402 by nonce, BRC-121 by the script at its vout): open, and for the resource priced. */
async function requestTarget(
  deps: GateDeps,
  account: Account,
  offered: OfferedPayment,
  txid: string,
  scriptAtVout: string,
  forResource: GateResource | undefined,
): Promise<Target> {
  const request = await findPaymentRequest(
    deps.prisma,
    account,
    offered.nonce ? { nonce: offered.nonce } : { script: scriptAtVout, resourceId: forResource?.id },
    txid,
  );
  if (forResource && request.resourceId !== forResource.id)
    throw new AppError(
      'payment_wrong_output',
      `This payment was asked for another resource than ${forResource.method} ${forResource.path}.`,
      {
        field: 'nonce',
      },
    );
  const resource = forResource ?? (await findGateResource(deps.prisma, request.resourceId));
  if (!resource || resource.deletedAt)
    throw new AppError('payment_expired', 'The resource this payment request priced was removed: ask again.', { field: 'nonce' });
  return { target: { kind: 'request', request }, resource, price: request.satoshis };
}

/**
 * BRC-121 as @bsv/402-pay pays: to the BRC-42 child of the resource server's identity key for this sender,
 * nonce and time, which the merchant's middleware derived with its own key (`payeeKey`). No payment
 * request: the sender, nonce and time name the payment, and pay once.
 */
function brc42Target(account: Account, offered: OfferedPayment, forResource: GateResource | undefined): Target {
  if (!forResource)
    throw new AppError('validation_failed', 'A BRC-42 payment is checked with the request it pays for (/check).', { field: 'payee_key' });
  if (!COMPRESSED_KEY.test(offered.payeeKey ?? ''))
    throw new AppError('validation_failed', 'payee_key must be a compressed public key, hex.', { field: 'payee_key' });
  if (!offered.sender || !COMPRESSED_KEY.test(offered.sender))
    throw new AppError('validation_failed', "x-bsv-sender must be the payer's compressed identity public key, hex.", {
      field: 'x-bsv-sender',
    });
  // Kept with the payment as the remittance the merchant's wallet spends it with: base64, as BRC-29 makes it, and short.
  if (!DERIVATION_PREFIX.test(offered.derivationPrefix ?? ''))
    throw new AppError('validation_failed', 'x-bsv-nonce must be the derivation prefix the payer used: base64, at most 256 characters.', {
      field: 'x-bsv-nonce',
    });
  const hash = PublicKey.fromString(offered.payeeKey!).toHash() as number[];
  return {
    target: {
      kind: 'brc42',
      accountId: account.id,
      organizationId: account.org.id,
      script: new P2PKH().lock(hash).toHex(),
      prefix: offered.derivationPrefix!,
      suffix: Buffer.from(offered.time ?? '').toString('base64'),
      payer: offered.sender,
    },
    resource: forResource,
    price: forResource.priceSatoshis,
  };
}

/** BRC-121: the payment's time (x-bsv-time, Unix ms) is within the freshness window of now, either way. */
function checkFreshness(deps: GateDeps, offered: OfferedPayment): void {
  const time = /^\d{1,16}$/.test(offered.time ?? '') ? Number(offered.time) : NaN;
  const window = deps.config.P2P_GATE_FRESHNESS_SECONDS * 1000;
  if (!Number.isSafeInteger(time) || Math.abs(Date.now() - time) > window)
    throw new AppError(
      'payment_expired',
      `x-bsv-time must be the payment's time in Unix milliseconds within ${window / 1000} s of now; got ${JSON.stringify((offered.time ?? '').slice(0, 20))}.`,
      { field: 'time' },
    );
}

/** The refusal of a transaction that already paid for something here. */
function txidUsed(txid: string): AppError {
  return new AppError('txid_already_used', `Transaction ${txid} already paid for something; a transaction pays once.`, { txid });
}

/** Marks the request as being paid by this transaction: another transaction for it is refused until this one settles or goes stale. */
async function claim(deps: GateDeps, nonce: string, txid: string): Promise<void> {
  if (await claimPaymentRequest(deps.prisma, nonce, txid, new Date(Date.now() - CLAIM_MS))) return;
  // Refused: said as the record would say it, when the request is already paid (by this very transaction, offered twice at once, or another).
  const request = await findRequestPayment(deps.prisma, nonce);
  if (request?.paidTxid === txid) throw txidUsed(txid);
  if (request?.paidTxid)
    throw new AppError('payment_expired', 'This payment request was already paid by another transaction: ask again for a new one.');
  throw new AppError('conflict', 'Another transaction is paying this payment request right now: ask again for a new one.');
}

/** The credential of a payment: what it pays for, signed with the gate's key. */
export async function credentialFor(deps: GateDeps, payment: GatePayment): Promise<GateCredential> {
  const key = await deps.signingKey();
  const token = signCredential(key, {
    sub: payment.accountId,
    jti: payment.id,
    res: payment.resourceId,
    mth: payment.method,
    pth: payment.path,
    ...(payment.calls !== null ? { calls: payment.calls } : {}),
    iat: Math.floor(payment.createdAt.getTime() / 1000),
    exp: Math.floor(payment.expiresAt.getTime() / 1000),
  });
  return { token, calls: payment.calls ?? undefined, expiresAt: payment.expiresAt.toISOString() };
}
