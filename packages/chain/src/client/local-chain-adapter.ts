import { Transaction } from '@bsv/sdk';
import { AppError, isErrorCode } from '@ctk/shared';
import { z } from 'zod';
import { parseJson, type ChainHttp } from './http.js';
import type { StablecoinInfo } from './types.js';

const stablecoinAnswer = z.object({
  token_id: z.string().regex(/^[0-9a-f]{64}_\d+$/),
  symbol: z.string(),
  decimals: z.number().int().min(0).max(18),
  cosigner_public_key: z.string().regex(/^0[23][0-9a-f]{64}$/),
});
const cosignAnswer = z.object({ rawtx: z.string().regex(/^(?:[0-9a-fA-F]{2})+$/) });
const errorAnswer = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }),
});

/** The local chain's own routes the client uses: its test stablecoin and that stablecoin's cosigner. */
export class LocalChainAdapter {
  constructor(private readonly http: ChainHttp) {}

  async stablecoin(): Promise<StablecoinInfo> {
    const response = await this.http.get('/v1/bsv/local/stablecoin');
    const parsed = response.status === 200 ? stablecoinAnswer.safeParse(parseJson<unknown>(this.http, response)) : undefined;
    if (!parsed?.success)
      throw this.http.unavailable(`answered ${response.status} to /v1/bsv/local/stablecoin, not the stablecoin`, {
        status: response.status,
      });
    const { token_id: tokenId, symbol, decimals, cosigner_public_key: cosignerPublicKey } = parsed.data;
    return { tokenId, symbol, decimals, cosignerPublicKey };
  }

  /** The transaction (hex, raw or EF) back with the cosigner's signatures; its refusal as the AppError it answered. */
  async cosign(hex: string): Promise<Transaction> {
    const response = await this.http.post(
      '/v1/bsv/local/cosign',
      new TextEncoder().encode(JSON.stringify({ rawtx: hex })),
      'application/json',
    );
    const body = parseJson<unknown>(this.http, response);
    if (response.status === 200) {
      const parsed = cosignAnswer.safeParse(body);
      if (parsed.success) return Transaction.fromHex(parsed.data.rawtx);
    }
    const refusal = errorAnswer.safeParse(body);
    if (response.status >= 400 && response.status < 500 && refusal.success) {
      const { code, message, details } = refusal.data.error;
      throw new AppError(isErrorCode(code) ? code : 'chain_rejected', message, {
        service: 'cosigner',
        status: response.status,
        ...details,
      });
    }
    throw this.http.unavailable(`answered ${response.status} to /v1/bsv/local/cosign with a body that is not its API's`, {
      status: response.status,
    });
  }
}
