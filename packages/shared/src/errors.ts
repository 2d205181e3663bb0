import { Status } from 'nice-grpc-common';

/**
 * The one error type of the project. Services throw it; the gRPC middleware turns it into a status,
 * the gateway turns the status back into it and answers with the HTTP status of its code.
 */
const ERRORS = {
  bad_request: { grpc: Status.INVALID_ARGUMENT, http: 400 },
  validation_failed: { grpc: Status.INVALID_ARGUMENT, http: 422 },
  unauthenticated: { grpc: Status.UNAUTHENTICATED, http: 401 },
  invalid_api_key: { grpc: Status.UNAUTHENTICATED, http: 401 },
  invalid_signature: { grpc: Status.UNAUTHENTICATED, http: 401 },
  forbidden: { grpc: Status.PERMISSION_DENIED, http: 403 },
  not_found: { grpc: Status.NOT_FOUND, http: 404 },
  route_not_found: { grpc: Status.NOT_FOUND, http: 404 },
  already_exists: { grpc: Status.ALREADY_EXISTS, http: 409 },
  conflict: { grpc: Status.ABORTED, http: 409 },
  idempotency_in_progress: { grpc: Status.ABORTED, http: 409 },
  idempotency_key_reused: { grpc: Status.FAILED_PRECONDITION, http: 422 },
  failed_precondition: { grpc: Status.FAILED_PRECONDITION, http: 409 },
  /** An If-Match (or the version it carries) that is missing or not the current one: re-read, then retry. */
  precondition_failed: { grpc: Status.FAILED_PRECONDITION, http: 412 },
  payment_required: { grpc: Status.FAILED_PRECONDITION, http: 402 },
  payload_too_large: { grpc: Status.RESOURCE_EXHAUSTED, http: 413 },
  /** The request did not arrive whole within the gateway's request timeout (Node's own 408). */
  request_timeout: { grpc: Status.DEADLINE_EXCEEDED, http: 408 },
  /** The request's headers are larger than the server reads (Node's own 431). */
  headers_too_large: { grpc: Status.RESOURCE_EXHAUSTED, http: 431 },
  /** A header that must come once (a credential) came more than once (details: header). */
  duplicate_header: { grpc: Status.INVALID_ARGUMENT, http: 400 },
  rate_limited: { grpc: Status.RESOURCE_EXHAUSTED, http: 429 },
  unsupported_media_type: { grpc: Status.INVALID_ARGUMENT, http: 415 },
  not_implemented: { grpc: Status.UNIMPLEMENTED, http: 501 },
  unavailable: { grpc: Status.UNAVAILABLE, http: 503 },
  timeout: { grpc: Status.DEADLINE_EXCEEDED, http: 504 },
  /** The chain (ARC) refused a transaction; details carry ARC's status, title and detail. */
  chain_rejected: { grpc: Status.FAILED_PRECONDITION, http: 422 },
  /** The chain's services (ARC, WhatsOnChain or the local chain) could not be reached. */
  chain_unavailable: { grpc: Status.UNAVAILABLE, http: 503 },
  /** A payment pays the expected script, but fewer satoshis than required. */
  payment_underpaid: { grpc: Status.FAILED_PRECONDITION, http: 422 },
  /** A payment lacks an expected output (script, or the OP_RETURN carrying the reference). */
  payment_wrong_output: { grpc: Status.FAILED_PRECONDITION, http: 422 },
  /** A token transfer to a stablecoin intent moves another token than the stablecoin (details: token_id, expected). */
  stablecoin_wrong_token: { grpc: Status.FAILED_PRECONDITION, http: 422 },
  /** A stablecoin transfer without its cosigner's signature: the chain would refuse it (details: input). */
  stablecoin_not_approved: { grpc: Status.FAILED_PRECONDITION, http: 422 },
  /** A stablecoin transfer the token's rules make void: its inputs do not hold the tokens it moves (details: reason). */
  stablecoin_transfer_invalid: { grpc: Status.FAILED_PRECONDITION, http: 422 },
  /** A partner signed another transaction than the agreed one (details: what differs): its signatures are not taken. */
  transaction_mismatch: { grpc: Status.FAILED_PRECONDITION, http: 422 },
  /** A signature that does not verify against the agreed transaction with the input's key (details: input). */
  signature_invalid: { grpc: Status.FAILED_PRECONDITION, http: 422 },
  /** The transaction already paid for something else: one txid pays once. */
  txid_already_used: { grpc: Status.ALREADY_EXISTS, http: 409 },
  /** The transaction does not prove itself: a merkle path, a script or an amount fails SPV. */
  payment_invalid: { grpc: Status.FAILED_PRECONDITION, http: 422 },
  /** What was to be paid (a paymail P2P reference, a payment request) is past its expiry. */
  payment_expired: { grpc: Status.FAILED_PRECONDITION, http: 422 },
  /** A pay link that takes no more payments: disabled by its organisation, past its expiry, or every use paid. */
  pay_link_closed: { grpc: Status.FAILED_PRECONDITION, http: 410 },
  /** A card that cannot be used now: a prepaid card whose order is not paid (pending) or never was (void). */
  card_not_active: { grpc: Status.FAILED_PRECONDITION, http: 409 },
  /** A prepaid card's balance is less than the amount asked for (details: balance_minor). */
  insufficient_balance: { grpc: Status.FAILED_PRECONDITION, http: 409 },
  /** A loyalty card has fewer stamps than a reward takes (details: stamps, stamps_for_reward). */
  not_enough_stamps: { grpc: Status.FAILED_PRECONDITION, http: 409 },
  /** The order already stamped a loyalty card: an order stamps once. */
  already_stamped: { grpc: Status.ALREADY_EXISTS, http: 409 },
  /** A ticket already checked in at the door: a ticket admits once (details: checked_in_at). */
  already_checked_in: { grpc: Status.ALREADY_EXISTS, http: 409 },
  /** Fewer tickets of a type are left than a checkout asks for (details: field, available). */
  sold_out: { grpc: Status.FAILED_PRECONDITION, http: 409 },
  /** A refund would take back more than the order took (details: refundable_minor, what is left to refund). */
  refund_exceeds_paid: { grpc: Status.FAILED_PRECONDITION, http: 409 },
  internal: { grpc: Status.INTERNAL, http: 500 },
} as const satisfies Record<string, { grpc: Status; http: number }>;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

const BRAND = Symbol.for('ctk.AppError');

export class AppError extends Error {
  readonly [BRAND] = true;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get httpStatus(): number {
    return ERRORS[this.code].http;
  }

  get grpcStatus(): Status {
    return ERRORS[this.code].grpc;
  }

  /** A brand check rather than instanceof: two copies of this package can load in one workspace. */
  static is(error: unknown): error is AppError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERRORS, value);
}

/** The code a gRPC status stands for when the service sent no code of ours (a transport failure). */
export function codeForGrpcStatus(status: Status): ErrorCode {
  switch (status) {
    case Status.INVALID_ARGUMENT:
      return 'bad_request';
    case Status.UNAUTHENTICATED:
      return 'unauthenticated';
    case Status.PERMISSION_DENIED:
      return 'forbidden';
    case Status.NOT_FOUND:
      return 'not_found';
    case Status.ALREADY_EXISTS:
      return 'already_exists';
    case Status.ABORTED:
      return 'conflict';
    case Status.FAILED_PRECONDITION:
      return 'failed_precondition';
    case Status.RESOURCE_EXHAUSTED:
      return 'rate_limited';
    case Status.UNIMPLEMENTED:
      return 'not_implemented';
    case Status.UNAVAILABLE:
      return 'unavailable';
    case Status.DEADLINE_EXCEEDED:
      return 'timeout';
    default:
      return 'internal';
  }
}
