import { AppError } from '@ctk/shared';
import type { LocalChain } from './local-chain.js';
import { requestTransactionBytes } from './request-transaction.js';
import { jsonBody, type Route } from './router.js';
import { WOC_BASE_PATH } from './woc-routes.js';

/** Token units in a JSON body: a string of digits (what a bigint is written as) or a safe integer. */
function unitsOf(value: unknown): bigint {
  if (typeof value === 'string' && /^\d{1,19}$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  throw new AppError('validation_failed', 'amount must be a whole number of token units (a string of digits)', { field: 'amount' });
}

/**
 * The test stablecoin's routes: what it is, its faucet, and its cosigner, which approves a transfer and
 * signs as MNEE's does (decision 0036), broadcasting nothing.
 */
export function stablecoinRoutes(chain: LocalChain): Route[] {
  return [
    {
      method: 'GET',
      path: new RegExp(`^${WOC_BASE_PATH}/stablecoin$`),
      handle: () => {
        const { tokenId, symbol, decimals, cosignerPublicKey } = chain.stablecoin;
        return { status: 200, json: { token_id: tokenId, symbol, decimals, cosigner_public_key: cosignerPublicKey } };
      },
    },
    {
      method: 'POST',
      path: new RegExp(`^${WOC_BASE_PATH}/stablecoin/faucet$`),
      handle: async (request) => {
        const { address, amount } = jsonBody(request);
        if (typeof address !== 'string') throw new AppError('validation_failed', 'address must be a P2PKH address', { field: 'address' });
        const payment = await chain.stablecoinFaucet(address, unitsOf(amount));
        return {
          status: 200,
          json: {
            txid: payment.txid,
            vout: payment.vout,
            amount: payment.amount.toString(),
            address,
            token_id: payment.tokenId,
            rawtx: payment.rawTx,
          },
        };
      },
    },
    {
      method: 'POST',
      path: new RegExp(`^${WOC_BASE_PATH}/cosign$`),
      handle: ({ body, contentType }) => {
        const bytes = requestTransactionBytes(body, contentType, 'rawtx');
        if (!bytes)
          throw new AppError('bad_request', 'Expected a transaction: JSON {"rawtx": hex}, hex text, or bytes (raw or EF).', {
            field: 'rawtx',
          });
        return { status: 200, json: { rawtx: chain.cosign(bytes).toHex() } };
      },
    },
  ];
}
