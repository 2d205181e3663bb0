import { Utils, type Script, type TransactionOutput } from '@bsv/sdk';
import type { ChainNetwork } from '@ctk/chain';
import type { z } from 'zod';
import type { outputAnswer } from './receipt-answers.js';

const P2PKH = /^76a914([0-9a-f]{40})88ac$/;

export type OutputView = z.infer<typeof outputAnswer>;

/** An output as the receipt answer shows it: its P2PKH address in the network's form, else only its script. */
export function outputView(output: TransactionOutput, vout: number, network: ChainNetwork): OutputView {
  const script = (output.lockingScript as Script).toHex();
  const pkh = P2PKH.exec(script)?.[1];
  const address = pkh ? Utils.toBase58Check(Utils.toArray(pkh, 'hex'), network === 'main' ? [0x00] : [0x6f]) : null;
  return { vout, satoshis: output.satoshis ?? 0, address, script };
}
