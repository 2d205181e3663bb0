import { MerklePath } from '@bsv/sdk';
import { AppError } from '@ctk/shared';
import { parseJson, type ChainHttp } from './http.js';
import type { TxState, TxStatus } from './types.js';

type ArcStatusBody = {
  txid?: string;
  txStatus?: string;
  blockHash?: string;
  blockHeight?: number;
  merklePath?: string;
  extraInfo?: string;
  competingTxs?: string[] | null;
};
type ArcErrorBody = { status?: number; title?: string; detail?: string; extraInfo?: string; txid?: string | null };

const STATES: Record<string, TxState> = {
  MINED: 'mined',
  IMMUTABLE: 'mined',
  SEEN_ON_NETWORK: 'seen',
  ACCEPTED_BY_NETWORK: 'seen',
  MINED_IN_STALE_BLOCK: 'seen',
  DOUBLE_SPEND_ATTEMPTED: 'double_spend',
  REJECTED: 'rejected',
  INVALID: 'rejected',
  MALFORMED: 'rejected',
};

/** ARC's txStatus in our terms; the statuses before the network has it (QUEUED ... SENT_TO_NETWORK) are pending. */
export const stateOfArcStatus = (txStatus: string): TxState => STATES[txStatus] ?? 'pending';

/** Broadcast and status through ARC's API (`POST /v1/tx`, `GET /v1/tx/{txid}`). */
export class ArcAdapter {
  constructor(private readonly http: ChainHttp) {}

  async broadcast(bytes: Uint8Array, txid: string | undefined): Promise<TxStatus> {
    const response = await this.http.post('/v1/tx', bytes, 'application/octet-stream');
    if (response.status === 200) {
      const status = this.toStatus(parseJson<ArcStatusBody>(this.http, response), txid);
      if (status.state === 'double_spend' || status.state === 'rejected' || status.arcStatus?.includes('ORPHAN'))
        throw refusedStatus(status);
      return status;
    }
    throw this.refusal(response.status, parseJson<ArcErrorBody>(this.http, response), txid);
  }

  async status(txid: string): Promise<TxStatus> {
    const response = await this.http.get(`/v1/tx/${txid}`);
    if (response.status === 404) return { txid, state: 'unknown' };
    if (response.status !== 200) throw this.refusal(response.status, parseJson<ArcErrorBody>(this.http, response), txid);
    return this.toStatus(parseJson<ArcStatusBody>(this.http, response), txid);
  }

  private toStatus(body: ArcStatusBody, txid: string | undefined): TxStatus {
    const arcStatus = body.txStatus ?? 'UNKNOWN';
    return {
      txid: body.txid || txid || '',
      state: stateOfArcStatus(arcStatus),
      arcStatus,
      blockHash: body.blockHash || undefined,
      blockHeight: body.blockHeight || undefined,
      merklePath: body.merklePath ? MerklePath.fromHex(body.merklePath) : undefined,
      competingTxs: body.competingTxs ?? undefined,
      extraInfo: body.extraInfo || undefined,
    };
  }

  /** ARC's 4xx answers (460-475 and the rest) are refusals of the transaction, except a refused API key. */
  private refusal(status: number, body: ArcErrorBody, txid: string | undefined): AppError {
    if (status === 401 || status === 403) return this.http.unavailable(`refused the API key (${status})`, { status });
    const title = body.title ?? `HTTP ${status}`;
    const detail = body.detail ?? '';
    const extraInfo = body.extraInfo ?? '';
    const which = body.txid || txid ? `transaction ${body.txid || txid}` : 'the transaction';
    return new AppError('chain_rejected', `The chain refused ${which}: ${title} (${status}): ${extraInfo || detail}`, {
      arc_status: status,
      title,
      detail,
      extra_info: extraInfo,
      txid: body.txid || txid,
    });
  }
}

function refusedStatus(status: TxStatus): AppError {
  const competing = status.competingTxs?.length ? `; competing: ${status.competingTxs.join(', ')}` : '';
  return new AppError(
    'chain_rejected',
    `The chain refused transaction ${status.txid}: ${status.arcStatus}${status.extraInfo ? `: ${status.extraInfo}` : ''}${competing}`,
    {
      arc_status: 200,
      tx_status: status.arcStatus,
      title: status.arcStatus,
      detail: status.extraInfo ?? '',
      competing_txs: status.competingTxs ?? [],
      txid: status.txid,
    },
  );
}
