import { Utils } from '@bsv/sdk';
import { z } from 'zod';
import { parseTokenOutput } from '../tokens/parse-token-output.js';
import type { ChainNetwork, TokenBalance, TokenHolder, TokenTxOutput, TokenUtxo } from './types.js';
import { parseJson, type ChainHttp } from './http.js';

const units = z.string().regex(/^\d{1,30}$/);
const balanceRows = z.array(
  z.object({
    id: z.string().nullish(),
    sym: z.string().nullish(),
    dec: z.number().int().min(0).max(18).nullish(),
    all: z.object({ confirmed: units, pending: units }),
  }),
);
const txoRows = z.array(
  z.object({
    txid: z.string().regex(/^[0-9a-f]{64}$/),
    vout: z.number().int().min(0),
    satoshis: z.number().int().min(0).optional(),
    id: z.string().nullish(),
    op: z.string().nullish(),
    amt: units,
    status: z.number().int(),
    reason: z.string().nullish(),
    owner: z.string().nullish(),
    script: z.string().nullish(),
    cosigner: z.string().nullish(),
  }),
);
type TxoRow = z.infer<typeof txoRows>[number];
/** 1Sat's holders: `amt` is a SUM over its outputs, which its database driver answers as a string (a number also read). */
const holderRows = z.array(
  z.object({
    address: z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{25,40}$/),
    amt: z.union([units, z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)]),
  }),
);

/**
 * Token reads through 1Sat's indexer API (`<base>/api/bsv20/...`, GorillaPool's in production, the local
 * chain's locally). Every answer's shape is checked, and an output's script, when the answer carries it, must
 * say what the answer says: anything else is `chain_unavailable` naming the indexer, as for the other services.
 */
export class TokenIndexerAdapter {
  constructor(
    private readonly http: ChainHttp,
    private readonly network: ChainNetwork,
  ) {}

  async balance(address: string, tokenId: string): Promise<TokenBalance> {
    const rows = await this.read(`/api/bsv20/${address}/balance`, balanceRows);
    const row = rows?.find((candidate) => candidate.id === tokenId);
    if (!row) return { tokenId, confirmed: 0n, pending: 0n };
    return {
      tokenId,
      ...(row.sym ? { symbol: row.sym } : {}),
      ...(typeof row.dec === 'number' ? { decimals: row.dec } : {}),
      confirmed: BigInt(row.all.confirmed),
      pending: BigInt(row.all.pending),
    };
  }

  /** 1Sat's `unspent` may list every token of the address (and invalid outputs): only valid outputs of `tokenId` are kept. */
  async unspent(address: string, tokenId: string): Promise<TokenUtxo[]> {
    const rows = (await this.read(`/api/bsv20/${address}/unspent?id=${tokenId}`, txoRows)) ?? [];
    return rows
      .filter((row) => row.id === tokenId && row.status === 1 && (row.op === 'transfer' || row.op === 'deploy+mint'))
      .map((row) => {
        const read = this.checkedScript(row, tokenId);
        if (!read) throw this.http.unavailable(`answered an unspent output ${row.txid}_${row.vout} without its script`);
        return {
          txid: row.txid,
          vout: row.vout,
          satoshis: row.satoshis ?? 1,
          tokenId,
          amount: BigInt(row.amt),
          owner: this.address(read.token.ownerPkh),
          lockingScript: read.hex,
          ...(read.token.cosignerPublicKey ? { cosignerPublicKey: read.token.cosignerPublicKey } : {}),
        };
      });
  }

  /** 1Sat's `/id/{id}/holders?limit=&offset=`: most units first; an unknown id (its 404, or none) has no holders. */
  async holders(tokenId: string, limit: number, offset: number): Promise<TokenHolder[]> {
    const rows = (await this.read(`/api/bsv20/id/${tokenId}/holders?limit=${limit}&offset=${offset}`, holderRows)) ?? [];
    return rows.map((row) => ({ address: row.address, amount: BigInt(row.amt) }));
  }

  /** A transaction's BSV-21 outputs (BSV-20 ticker outputs, which have no id, are left out); null for a 404. */
  async txOutputs(txid: string): Promise<TokenTxOutput[] | null> {
    const rows = await this.read(`/api/bsv20/txid/${txid}`, txoRows);
    if (rows === null) return null;
    return rows
      .filter((row) => row.id && (row.op === 'transfer' || row.op === 'deploy+mint'))
      .map((row) => {
        if (row.txid !== txid) throw this.http.unavailable(`answered outputs of ${row.txid} for ${txid}`);
        const read = this.checkedScript(row, row.id!);
        const cosigner = read?.token.cosignerPublicKey ?? row.cosigner ?? undefined;
        return {
          txid,
          vout: row.vout,
          tokenId: row.id!,
          op: row.op as TokenTxOutput['op'],
          amount: BigInt(row.amt),
          ...(read ? { owner: this.address(read.token.ownerPkh) } : row.owner ? { owner: row.owner } : {}),
          ...(cosigner ? { cosignerPublicKey: cosigner } : {}),
          status: row.status === 1 ? 'valid' : row.status === -1 ? 'invalid' : 'pending',
          ...(row.reason ? { reason: row.reason } : {}),
        };
      });
  }

  /** The row's script (base64) read as a token output: it must be one, of `tokenId`, moving `amt`. */
  private checkedScript(row: TxoRow, tokenId: string) {
    if (!row.script) return undefined;
    const hex = Utils.toHex(Utils.toArray(row.script, 'base64'));
    const token = parseTokenOutput(hex);
    const id = token?.op === 'deploy+mint' ? `${row.txid}_${row.vout}` : token?.tokenId;
    if (!token || id !== tokenId || token.amount.toString() !== row.amt || token.op !== row.op)
      throw this.http.unavailable(`answered output ${row.txid}_${row.vout} as ${row.amt} of ${tokenId}, which its script does not say`);
    return { hex, token };
  }

  private address(pkh: string): string {
    return Utils.toBase58Check(Utils.toArray(pkh, 'hex'), [this.network === 'main' ? 0x00 : 0x6f]);
  }

  private async read<T>(path: string, schema: z.ZodType<T>): Promise<T | null> {
    const response = await this.http.get(path);
    if (response.status === 404) return null;
    if (response.status !== 200)
      throw this.http.unavailable(`answered ${response.status} to ${path.split('/').slice(0, 3).join('/')}`, { status: response.status });
    const parsed = schema.safeParse(parseJson<unknown>(this.http, response));
    if (!parsed.success)
      throw this.http.unavailable(`answered ${path.split('?')[0]} with a body that is not its API's`, { status: response.status });
    return parsed.data;
  }
}
