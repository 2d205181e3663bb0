import { decodeTransaction, hexToBytes, type ExpectedOutput } from '@ctk/chain';
import type { SettlePaymentRequest } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError, MAX_SATOSHIS_BIGINT } from '@ctk/shared';

/** What a settlement pays for, as `spent_txids` records it. */
export type Claim = { purpose: string; sourceId: string };

export type Settlement = {
  claim: Claim;
  expected: ExpectedOutput[];
  txid: string;
  /** The payer's transaction, when submitted rather than named by txid. */
  transaction?: Uint8Array;
};

// "<service>.<thing>": a dot is required, so a caller cannot pose as this service's own "paymail" claims.
const PURPOSE = /^[a-z][a-z0-9_]{0,31}(\.[a-z][a-z0-9_]{0,31}){1,3}$/;
const SOURCE_ID = /^[A-Za-z0-9._:-]{1,200}$/;
const TXID = /^[0-9a-fA-F]{64}$/;
const SCRIPT = /^(?:[0-9a-fA-F]{2}){1,10000}$/;
const MAX_EXPECTED = 10;

/** The request checked, nothing looked up yet: every refusal here is a 422 naming its field. */
export function settlementOf(request: SettlePaymentRequest): Settlement {
  const claim = claimOf(request);
  const expected = expectedOf(request);
  if (Boolean(request.transaction) === Boolean(request.txid))
    throw invalid(
      'transaction',
      'Send exactly one of "transaction" (the payer\'s transaction, hex) and "txid" (one to look up on the chain).',
    );
  if (request.txid) {
    if (!TXID.test(request.txid)) throw invalid('txid', `${quote(request.txid)} is not a txid (64 hex characters).`);
    return { claim, expected, txid: request.txid.toLowerCase() };
  }
  try {
    const bytes = hexToBytes(request.transaction.trim());
    return { claim, expected, txid: decodeTransaction(bytes).txid, transaction: bytes };
  } catch (error) {
    throw invalid(
      'transaction',
      `"transaction" is not a raw, EF or BEEF transaction in hex: ${error instanceof Error ? error.message : String(error)}.`,
    );
  }
}

function claimOf(request: SettlePaymentRequest): Claim {
  const purpose = request.claim?.purpose ?? '';
  const sourceId = request.claim?.sourceId ?? '';
  if (!PURPOSE.test(purpose))
    throw invalid('claim.purpose', `claim.purpose ${quote(purpose)} must name what is paid as <service>.<thing>, e.g. "pos.order".`);
  if (!SOURCE_ID.test(sourceId))
    throw invalid(
      'claim.source_id',
      `claim.source_id ${quote(sourceId)} must be 1 to 200 letters, digits or . _ : - (the id of what is paid).`,
    );
  return { purpose, sourceId };
}

function expectedOf(request: SettlePaymentRequest): ExpectedOutput[] {
  if (request.expected.length < 1 || request.expected.length > MAX_EXPECTED)
    throw invalid('expected', `expected must list 1 to ${MAX_EXPECTED} outputs; got ${request.expected.length}.`);
  return request.expected.map((output, index) => {
    if (!SCRIPT.test(output.script))
      throw invalid(`expected[${index}].script`, `expected[${index}].script is not a locking script in hex.`);
    if (output.minSatoshis < 0n || output.minSatoshis > MAX_SATOSHIS_BIGINT)
      throw invalid(
        `expected[${index}].min_satoshis`,
        `expected[${index}].min_satoshis must be from 0 to ${MAX_SATOSHIS_BIGINT.toLocaleString('en-US')}.`,
      );
    // At most 2.1e15: exact as a number.
    return { script: output.script.toLowerCase(), satoshis: Number(output.minSatoshis) };
  });
}

function invalid(field: string, message: string): AppError {
  return new AppError('validation_failed', message, { field });
}

function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}...` : text);
}
