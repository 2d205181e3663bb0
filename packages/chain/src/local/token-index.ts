import type { LockingScript, Transaction } from '@bsv/sdk';
import { parseTokenOutput } from '../tokens/parse-token-output.js';
import type { TokenOp } from '../tokens/token-types.js';

/** A token output the chain has seen, with the indexer's verdict on it. */
export type IndexedTokenOutput = {
  txid: string;
  vout: number;
  satoshis: number;
  lockingScript: LockingScript;
  /** A deploy+mint's own outpoint `<txid>_<vout>`, or the id a transfer names. */
  tokenId: string;
  op: TokenOp;
  amount: bigint;
  ownerPkh: string;
  cosignerPublicKey?: string;
  /** A deploy+mint's symbol and decimals (a transfer's are its token's). */
  symbol?: string;
  decimals?: number;
  /** Whether it holds tokens by the indexer's rule; an invalid output holds nothing. */
  valid: boolean;
  reason?: string;
  /** The transaction that spends it, if any. */
  spentBy?: string;
};

const key = (txid: string, vout: number) => `${txid}:${vout}`;

/**
 * BSV-21 tokens as 1Sat's indexer sees them, for every transaction the chain records (decision 0036): a
 * deploy+mint is valid and its outpoint is the token's id; a transaction's transfers of a token are valid
 * when the valid token outputs of that id it spends hold at least what they move (the rest is burned),
 * otherwise every transfer output of that id in it is invalid. An input that is not a valid output of the
 * id brings nothing. Consensus does not look at any of this: the chain mines what its scripts allow, and
 * this index says what the outputs hold. Built by `ChainState.add` as transactions arrive or are replayed,
 * and taken back by `remove`.
 */
export class TokenIndex {
  private readonly outputs = new Map<string, IndexedTokenOutput>();
  private readonly byTx = new Map<string, IndexedTokenOutput[]>();
  /** Valid, unspent outputs by their owner's public key hash. */
  private readonly unspentByOwner = new Map<string, Set<string>>();
  private readonly deploysById = new Map<string, IndexedTokenOutput>();

  add(txid: string, tx: Transaction): void {
    const held = new Map<string, bigint>();
    for (const input of tx.inputs) {
      const spent = this.outputs.get(key(input.sourceTXID ?? '', input.sourceOutputIndex));
      if (!spent) continue;
      spent.spentBy = txid;
      this.unspentByOwner.get(spent.ownerPkh)?.delete(key(spent.txid, spent.vout));
      if (spent.valid) held.set(spent.tokenId, (held.get(spent.tokenId) ?? 0n) + spent.amount);
    }
    const found = tx.outputs.flatMap((output, vout) => {
      const token = parseTokenOutput(output.lockingScript);
      return token ? [{ output, vout, token }] : [];
    });
    if (found.length === 0) return;
    const moved = new Map<string, bigint>();
    for (const { token } of found) if (token.op === 'transfer') moved.set(token.tokenId!, (moved.get(token.tokenId!) ?? 0n) + token.amount);

    const records = found.map(({ output, vout, token }): IndexedTokenOutput => {
      const tokenId = token.op === 'deploy+mint' ? `${txid}_${vout}` : token.tokenId!;
      const has = held.get(tokenId) ?? 0n;
      const moves = moved.get(tokenId) ?? 0n;
      const valid = token.op === 'deploy+mint' || has >= moves;
      return {
        txid,
        vout,
        satoshis: output.satoshis ?? 0,
        lockingScript: output.lockingScript,
        tokenId,
        op: token.op,
        amount: token.amount,
        ownerPkh: token.ownerPkh,
        ...(token.cosignerPublicKey ? { cosignerPublicKey: token.cosignerPublicKey } : {}),
        ...(token.op === 'deploy+mint' ? { symbol: token.symbol, decimals: token.decimals } : {}),
        valid,
        ...(valid ? {} : { reason: `insufficient inputs: the valid inputs of ${tokenId} hold ${has}, its transfer outputs move ${moves}` }),
      };
    });
    for (const record of records) {
      this.outputs.set(key(txid, record.vout), record);
      if (record.op === 'deploy+mint') this.deploysById.set(record.tokenId, record);
      if (record.valid) {
        const unspent = this.unspentByOwner.get(record.ownerPkh) ?? new Set<string>();
        unspent.add(key(txid, record.vout));
        this.unspentByOwner.set(record.ownerPkh, unspent);
      }
    }
    this.byTx.set(txid, records);
  }

  /** Takes back `add` of a transaction nothing spends yet: its token outputs go, and those it spent are unspent again. */
  remove(txid: string, tx: Transaction): void {
    for (const record of this.byTx.get(txid) ?? []) {
      this.outputs.delete(key(txid, record.vout));
      this.unspentByOwner.get(record.ownerPkh)?.delete(key(txid, record.vout));
      if (record.op === 'deploy+mint') this.deploysById.delete(record.tokenId);
    }
    this.byTx.delete(txid);
    for (const input of tx.inputs) {
      const spent = this.outputs.get(key(input.sourceTXID ?? '', input.sourceOutputIndex));
      if (spent?.spentBy !== txid) continue;
      delete spent.spentBy;
      if (spent.valid) this.unspentByOwner.get(spent.ownerPkh)?.add(key(spent.txid, spent.vout));
    }
  }

  output(txid: string, vout: number): IndexedTokenOutput | undefined {
    return this.outputs.get(key(txid, vout));
  }

  /** The token outputs of a transaction, valid or not, in output order; none when it has none. */
  outputsOf(txid: string): readonly IndexedTokenOutput[] {
    return this.byTx.get(txid) ?? [];
  }

  /** An owner's valid unspent token outputs, of one token when `tokenId` is given, oldest first. */
  unspent(ownerPkh: string, tokenId?: string): IndexedTokenOutput[] {
    return [...(this.unspentByOwner.get(ownerPkh) ?? [])]
      .map((outpoint) => this.outputs.get(outpoint)!)
      .filter((record) => tokenId === undefined || record.tokenId === tokenId);
  }

  /**
   * What each owner's valid unspent outputs of a token hold, most first (ties by owner, so pages are stable),
   * as 1Sat's holders query sums them. Walks every output: the local chain's are few.
   */
  holders(tokenId: string): { ownerPkh: string; amount: bigint }[] {
    const totals = new Map<string, bigint>();
    for (const record of this.outputs.values())
      if (record.tokenId === tokenId && record.valid && !record.spentBy)
        totals.set(record.ownerPkh, (totals.get(record.ownerPkh) ?? 0n) + record.amount);
    return [...totals]
      .map(([ownerPkh, amount]) => ({ ownerPkh, amount }))
      .sort((a, b) => (a.amount === b.amount ? a.ownerPkh.localeCompare(b.ownerPkh) : a.amount > b.amount ? -1 : 1));
  }

  /** The deploy+mint output of a token, which carries its symbol and decimals. */
  deploy(tokenId: string): IndexedTokenOutput | undefined {
    return this.deploysById.get(tokenId);
  }

  deploys(): IndexedTokenOutput[] {
    return [...this.deploysById.values()];
  }
}
