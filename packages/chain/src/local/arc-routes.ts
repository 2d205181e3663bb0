import type { AppError } from '@ctk/shared';
import type { LocalChain } from './local-chain.js';
import { arcErrorBody, arcStatusOf, type Rejection } from './rejection.js';
import { requestTransactionBytes } from './request-transaction.js';
import type { Reply, Route } from './router.js';

const TXID = /^[0-9a-f]{64}$/i;

/** An error the router meets on an ARC route (a body over the limit) in ARC's RFC 7807 shape. */
const arcErrorReply = (error: AppError): Reply => {
  const status = arcStatusOf(error.httpStatus);
  return { status, json: arcErrorBody(status, error.message) };
};

/** The subset of ARC's API the chain client uses: submit a transaction, read its status, read the policy. */
export function arcRoutes(chain: LocalChain, minFeeSatsPerKb: number): Route[] {
  return [
    {
      method: 'POST',
      path: /^\/v1\/tx$/,
      errorReply: arcErrorReply,
      handle: ({ body, contentType }) => {
        const bytes = requestTransactionBytes(body, contentType, 'rawTx');
        if (!bytes) return { status: 400, json: arcErrorBody(400, 'expected a transaction as bytes, hex text or JSON {"rawTx": hex}') };
        const outcome = chain.submit(bytes);
        return outcome.ok
          ? { status: 200, json: { ...emptyStatus(), ...outcome.status, status: 200, title: 'OK' } }
          : rejectionReply(outcome.rejection, chain.clock.nowMs());
      },
    },
    {
      method: 'GET',
      path: /^\/v1\/tx\/([^/]*)$/,
      errorReply: arcErrorReply,
      handle: ({ params: [id] }) => {
        if (!TXID.test(id!)) return { status: 400, json: arcErrorBody(400, `${JSON.stringify(id)} is not a txid: 64 hex digits`) };
        const txid = id!.toLowerCase();
        const status = chain.status(txid);
        return status
          ? { status: 200, json: { ...emptyStatus(), ...status } }
          : { status: 404, json: arcErrorBody(404, 'transaction not found', txid) };
      },
    },
    {
      method: 'GET',
      path: /^\/v1\/policy$/,
      errorReply: arcErrorReply,
      handle: () => ({
        status: 200,
        json: {
          policy: {
            maxscriptsizepolicy: 100_000_000,
            maxtxsigopscountspolicy: 4_294_967_295,
            maxtxsizepolicy: 100_000_000,
            miningFee: { satoshis: minFeeSatsPerKb, bytes: 1000 },
          },
          timestamp: new Date(chain.clock.nowMs()).toISOString(),
        },
      }),
    },
  ];
}

const emptyStatus = () => ({ blockHash: '', blockHeight: 0, extraInfo: '', merklePath: '', competingTxs: null as string[] | null });

/** A refusal as ARC answers it; `now` (milliseconds, the chain's clock) stamps a txStatus answer. */
function rejectionReply(rejection: Rejection, now: number): Reply {
  if (rejection.kind === 'error')
    return { status: rejection.status, json: arcErrorBody(rejection.status, rejection.extraInfo, rejection.txid) };
  const { txid, txStatus, extraInfo, competingTxs } = rejection;
  return {
    status: 200,
    json: {
      ...emptyStatus(),
      txid,
      txStatus,
      extraInfo,
      competingTxs: competingTxs ?? null,
      status: 200,
      title: 'OK',
      timestamp: new Date(now).toISOString(),
    },
  };
}
