import { AppError } from '@ctk/shared';
import type { ClockReading, LocalChain } from './local-chain.js';
import { jsonBody, type Route } from './router.js';

const MAX_BLOCKS_PER_REQUEST = 1000;

/** The clock as `/clock` answers it: unix seconds. */
const clockJson = (reading: ClockReading) => ({ now: reading.now, median_time_past: reading.medianTimePast, height: reading.height });

/** Routes only the local chain has: mine blocks now, pay from the faucet, read and move the clock, health. */
export function controlRoutes(chain: LocalChain): Route[] {
  return [
    {
      method: 'POST',
      path: /^\/mine$/,
      handle: (request) => {
        const { blocks = 1 } = jsonBody(request);
        if (!Number.isSafeInteger(blocks) || (blocks as number) < 1 || (blocks as number) > MAX_BLOCKS_PER_REQUEST) {
          throw new AppError('validation_failed', `blocks must be an integer from 1 to ${MAX_BLOCKS_PER_REQUEST}`);
        }
        const mined = chain.mine(blocks as number);
        return {
          status: 200,
          json: {
            height: chain.state.height,
            blocks: mined.map((block) => ({ height: block.height, hash: block.hash, tx_count: block.txids.length })),
          },
        };
      },
    },
    {
      method: 'POST',
      path: /^\/faucet$/,
      handle: async (request) => {
        const { address, satoshis } = jsonBody(request);
        if (typeof address !== 'string') throw new AppError('validation_failed', 'address must be a P2PKH address');
        const payment = await chain.faucet(address, satoshis as number);
        return {
          status: 200,
          json: { txid: payment.txid, vout: payment.vout, satoshis: payment.satoshis, address, raw_tx: payment.rawTx },
        };
      },
    },
    {
      method: 'POST',
      path: /^\/clock$/,
      handle: (request) => ({ status: 200, json: clockJson(chain.advanceClock(jsonBody(request).advance_seconds)) }),
    },
    {
      method: 'GET',
      path: /^\/clock$/,
      handle: () => ({ status: 200, json: clockJson(chain.clockReading()) }),
    },
    {
      method: 'GET',
      path: /^\/healthz$/,
      handle: () => ({ status: 200, json: { status: 'ok', height: chain.state.height, mempool: chain.state.mempoolTxids().length } }),
    },
  ];
}
