/**
 * Why the local chain refuses a transaction, in ARC's terms. ARC answers most refusals with an error status
 * (460-475, RFC 7807 body); a conflict with a transaction it already has is instead a 200 whose txStatus is
 * DOUBLE_SPEND_ATTEMPTED (with the competing txids), and what a node refuses (a non-final transaction) is a
 * 200 whose txStatus is REJECTED.
 */
export type Rejection =
  | { kind: 'error'; status: ArcErrorStatus; extraInfo: string; txid?: string }
  | { kind: 'status'; txStatus: 'DOUBLE_SPEND_ATTEMPTED' | 'REJECTED'; extraInfo: string; txid: string; competingTxs?: string[] };

/** ARC's error statuses with their titles and details (bitcoin-sv/arc, pkg/api). */
export const ARC_ERRORS = {
  400: { title: 'Bad request', detail: 'The request seems to be malformed and cannot be processed' },
  404: { title: 'Not found', detail: 'The requested resource could not be found' },
  // ARC's HTTP server answers these too, outside its list: a body over its limit, and a fault of its own.
  413: { title: 'Request entity too large', detail: 'The request body is larger than the server accepts' },
  500: { title: 'Internal server error', detail: 'The server could not process the request' },
  460: { title: 'Not extended format', detail: 'Missing input scripts: Transaction could not be transformed to extended format' },
  461: { title: 'Malformed transaction', detail: 'Transaction is malformed and cannot be processed' },
  462: { title: 'Invalid inputs', detail: 'Transaction is invalid because the inputs are non-existent or spent' },
  463: { title: 'Malformed transaction', detail: 'Transaction is malformed and cannot be processed' },
  464: { title: 'Invalid outputs', detail: 'Transaction is invalid because the outputs are non-existent or invalid' },
  465: { title: 'Fee too low', detail: 'Fees are insufficient' },
  467: {
    title: 'Mined ancestors not found',
    detail: "BEEF validation failed: couldn't find mined ancestor of the transaction in provided beef transactions",
  },
  468: { title: 'Invalid BUMPs', detail: "BEEF validation failed: couldn't calculate Merkle Roots from given BUMPs" },
  469: { title: 'Merkle Roots validation failed', detail: "BEEF validation failed: couldn't validate Merkle Roots" },
} as const;

export type ArcErrorStatus = keyof typeof ARC_ERRORS;

/** An ARC status for an HTTP status: itself when ARC has it, else 400 for the caller's fault and 500 for ours. */
export const arcStatusOf = (status: number): ArcErrorStatus =>
  status in ARC_ERRORS ? (status as ArcErrorStatus) : status < 500 ? 400 : 500;

export const reject = (status: ArcErrorStatus, extraInfo: string, txid?: string): Rejection => ({ kind: 'error', status, extraInfo, txid });

/** The RFC 7807 body ARC answers an error with. */
export function arcErrorBody(status: ArcErrorStatus, extraInfo: string, txid?: string) {
  return {
    type: `https://bitcoin-sv.github.io/arc/#/errors?id=_${status}`,
    title: ARC_ERRORS[status].title,
    status,
    detail: ARC_ERRORS[status].detail,
    instance: null,
    txid: txid ?? null,
    extraInfo,
  };
}
