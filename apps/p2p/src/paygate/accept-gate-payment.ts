import { P2PKH, PublicKey, type Transaction } from '@bsv/sdk';
import { verifyBeef } from '@ctk/chain';
import type { GateCredential } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError, countPayment, isUniqueViolation } from '@ctk/shared';
import { findGatePaymentByNonce, isPaymentNonceUsed, takeResendCall } from '../data/gate-payment-repository.js';
import {
  claimPaymentRequest,
  findPaymentRequestByNonce,
  findRequestPayment,
  isOfferedAgain,
  releasePaymentRequestClaim,
} from '../data/gate-payment-request-repository.js';
import { findGateResource } from '../data/gate-resource-repository.js';
import { isTxidSpent } from '../data/spent-outputs.js';
import type { GatePayment, GatePaymentRequest, GateResource } from '../generated/prisma/client.js';
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
/**
 * How far a block's time may lag the moment it was mined: it need only pass the median time of the eleven
 * blocks before (about an hour behind), so a claim up to this long after a block's time may still predate it.
 */
const BLOCK_TIME_LAG_MS = 2 * 3_600_000;
const COMPRESSED_KEY = /^0[23][0-9a-f]{64}$/;
const DERIVATION_PREFIX = /^(?=.{1,256}$)[A-Za-z0-9+/]+={0,2}$/;

/** A payment accepted now, or `duplicate`: one offered again, answered as when it was accepted. */
export type AcceptedPayment = { payment: GatePayment; credential: GateCredential; outcome: 'accepted' | 'duplicate' };

export type AcceptOptions = {
  /**
   * Whether a payment offered again for the request it paid (its answer lost) is answered with the payment
   * recorded and its credential, as one more call of it: /check, where a payer's client retries what got no
   * answer. /verify refuses it (`txid_already_used`), as it refuses the copies of a payment offered at once.
   */
  answerResend?: boolean;
};

/**
 * The one verifier: SPV of the BEEF, the output at `vout` pays the request's fresh script at least the
 * price, the request is open (its nonce unknown, expired or paid is refused) and, for BRC-121, the time is
 * within the freshness window, and the txid was never accepted (spent_txids' primary key decides, across
 * replicas). Then, with the request claimed so no other transaction broadcasts for it, the BEEF is broadcast;
 * then the payment, the spent txid and `payment.received` commit together; then the credential is issued.
 * Nothing is broadcast unless every check passed. `forResource` is the resource a /check request priced:
 * a payment for another resource does not pay for this one.
 *
 * A payment offered again (the same transaction for the same nonce: a client retrying what got no answer) is
 * told apart from someone else's by the nonce, which the gate hands to the one client that asked, unless the
 * request was offered again to others (issue-payment-request.ts). The transaction proves nothing: the gate
 * broadcast it, anyone may read it. So, named by the nonce of a request offered to one payer only:
 *
 * - paid by this transaction: answered with the payment recorded and the same credential (`answerResend`),
 *   as one call of what it bought (takeResendCall), never a second payment, event or window;
 * - claimed for this transaction by an earlier attempt that recorded nothing: recorded now, even though the
 *   chain has mined it meanwhile, provided the claim predates the block. A mined transaction the gate never
 *   claimed for this request is still someone else's old payment, and refused.
 *
 * Of a request offered to several payers, such a payment is still recorded (the money moved) but its
 * credential goes only to the attempt that first offered the transaction.
 *
 * Each is counted in ctk_payments_total (path paygate): accepted, duplicate (a payment offered again and
 * answered as before), refused or error.
 */
export function acceptGatePayment(
  deps: GateDeps,
  account: Account,
  offered: OfferedPayment,
  forResource?: GateResource,
  options: AcceptOptions = {},
): Promise<AcceptedPayment> {
  return countPayment(
    'paygate',
    () => accept(deps, account, offered, forResource, options),
    (answer) => answer.outcome,
  );
}

async function accept(
  deps: GateDeps,
  account: Account,
  offered: OfferedPayment,
  forResource: GateResource | undefined,
  options: AcceptOptions,
): Promise<AcceptedPayment> {
  if (offered.protocol === 'brc121') checkFreshness(deps, offered);
  const { txid, tx } = await verifyBeef(offered.transaction, deps.chain.chainTracker);
  // The request its nonce names, when this very transaction already paid it or was claimed for it.
  const own = offered.nonce ? await requestOfTransaction(deps, account, offered.nonce, txid) : null;
  if (own?.paidTxid === txid)
    return answerAgain(deps, own, offered, txid, forResource, options.answerResend === true && !isOfferedAgain(own));
  let payment: GatePayment;
  try {
    payment = await acceptNew(deps, account, offered, { txid, tx }, own, forResource);
  } catch (error) {
    // Paid meanwhile by this transaction: a copy of it offered at the same moment recorded it first.
    const paid =
      offered.nonce && options.answerResend && isTxidRefusal(error) ? await requestOfTransaction(deps, account, offered.nonce, txid) : null;
    if (paid?.paidTxid !== txid) throw error;
    // The attempt that first offered it had the transaction before anyone else could: it is the payer's.
    return answerAgain(deps, paid, offered, txid, forResource, own === null || !isOfferedAgain(paid));
  }
  if (own && isOfferedAgain(own)) throw notShown(txid);
  return { payment, credential: await credentialFor(deps, payment), outcome: 'accepted' };
}

/** Verifies, claims, broadcasts and records a payment not recorded yet: `own` is the request an earlier attempt claimed for it, if any. */
async function acceptNew(
  deps: GateDeps,
  account: Account,
  offered: OfferedPayment,
  { txid, tx }: { txid: string; tx: Transaction },
  own: GatePaymentRequest | null,
  forResource: GateResource | undefined,
): Promise<GatePayment> {
  if (tx.merklePath && !own) throw alreadyMined(txid);
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
  let broadcast = false;
  let payment: GatePayment;
  try {
    // Its BEEF may leave the proof out: the chain still knows a transaction it mined long ago. One the gate
    // claimed for this request before the block (an earlier attempt broadcast it) is this request's all the same.
    const status = await deps.chain.broadcast(offered.transaction);
    if (status.state === 'mined' && !(own && (await claimedBeforeBlock(deps, own, txid, status.blockHeight ?? tx.merklePath?.blockHeight))))
      throw alreadyMined(txid);
    broadcast = true;
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
    // Broadcast, the transaction pays this request whatever became of its record: the claim stays and names
    // it, so that the payment offered again is recorded then. A claim an earlier attempt made stays too.
    if (nonce && !broadcast && !own) await releasePaymentRequestClaim(deps.prisma, nonce, txid);
    if (isUniqueViolation(error)) throw txidUsed(txid);
    throw error;
  }
  deps.eventsCommitted();
  return payment;
}

/** The account's request `nonce` names when `txid` paid it, or claimed it and is not recorded; null otherwise. */
async function requestOfTransaction(deps: GateDeps, account: Account, nonce: string, txid: string): Promise<GatePaymentRequest | null> {
  const request = await findPaymentRequestByNonce(deps.prisma, nonce);
  if (!request || request.accountId !== account.id) return null;
  return request.paidTxid === txid || (request.paidTxid === null && request.claimedTxid === txid) ? request : null;
}

/**
 * A payment offered again for the request it paid: the payment recorded and its credential (the same token:
 * the same claims, signed again), this request counted as one call of what it bought. Refused when the answer
 * would not go to its payer (`allowed` false: /verify, or a nonce more than one client holds), for another
 * resource than the /check priced, and when what it bought is used up, expired or revoked.
 */
async function answerAgain(
  deps: GateDeps,
  request: GatePaymentRequest,
  offered: OfferedPayment,
  txid: string,
  forResource: GateResource | undefined,
  allowed: boolean,
): Promise<AcceptedPayment> {
  if (!allowed) throw isOfferedAgain(request) ? notShown(txid) : txidUsed(txid);
  const recorded = await findGatePaymentByNonce(deps.prisma, request.nonce);
  if (recorded?.txid !== txid || (offered.vout >= 0 && offered.vout !== recorded.vout)) throw txidUsed(txid);
  if (forResource && recorded.resourceId !== forResource.id)
    throw new AppError(
      'payment_wrong_output',
      `This payment was asked for another resource than ${forResource.method} ${forResource.path}.`,
      {
        field: 'nonce',
      },
    );
  const payment = await takeResendCall(deps.prisma, recorded, new Date());
  if (!payment)
    throw new AppError(
      'payment_expired',
      `Transaction ${txid} already paid this request, and what it bought is used up, expired or revoked: pay again.`,
      { txid },
    );
  return { payment, credential: await credentialFor(deps, payment), outcome: 'duplicate' };
}

/**
 * Whether the gate's claim for this transaction predates the block that mined it, by the block's time: a
 * claim outlives its attempt only when the gate broadcast the transaction (or died doing it), so it names
 * a transaction mined before only when one was offered unproven and the process died right then.
 */
async function claimedBeforeBlock(deps: GateDeps, own: GatePaymentRequest, txid: string, height: number | undefined): Promise<boolean> {
  const mined = height ?? (await deps.chain.getStatus(txid)).blockHeight;
  const header = mined === undefined ? null : await deps.chain.blockHeader(mined);
  if (!header)
    throw new AppError('chain_unavailable', `The chain reports transaction ${txid} mined but not its block: offer it again shortly.`, {
      txid,
    });
  return own.claimedAt !== null && own.claimedAt.getTime() <= header.time * 1000 + BLOCK_TIME_LAG_MS;
}

/** Whether the error is a refusal of this transaction as already used (or the database's unique constraint saying so). */
function isTxidRefusal(error: unknown): boolean {
  return (AppError.is(error) && error.code === 'txid_already_used') || isUniqueViolation(error);
}

/** The refusal of a payment offered again for a request offered to several payers: recorded, its credential not given again. */
function notShown(txid: string): AppError {
  return new AppError(
    'txid_already_used',
    `Transaction ${txid} paid this payment request, which was offered to more than one payer: offered again, it does not show who ` +
      'paid, so its credential is not given again.',
    { txid },
  );
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
