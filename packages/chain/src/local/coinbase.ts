import { Transaction, UnlockingScript, Utils, type LockingScript } from '@bsv/sdk';
import { MAX_SATOSHIS } from '@ctk/shared';
import { NULL_TXID } from './chain-state.js';

/** What the genesis block pays the faucet: every satoshi there can be. */
export const GENESIS_SATOSHIS = MAX_SATOSHIS;

const TAG = Utils.toArray('ctk local chain', 'utf8') as number[];

/** A block's first transaction: it spends nothing, names its height (BIP 34) and pays `satoshis` to `to`. */
export function coinbaseTransaction(height: number, satoshis: number, to: LockingScript): Transaction {
  const heightBytes = [height & 0xff, (height >> 8) & 0xff, (height >> 16) & 0xff, (height >>> 24) & 0xff];
  const unlockingScript = new UnlockingScript([
    { op: heightBytes.length, data: heightBytes },
    { op: TAG.length, data: TAG },
  ]);
  return new Transaction(
    1,
    [{ sourceTXID: NULL_TXID, sourceOutputIndex: 0xffffffff, unlockingScript, sequence: 0xffffffff }],
    [{ satoshis, lockingScript: to }],
    0,
  );
}
