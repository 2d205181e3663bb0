import type { ChainClient } from '@ctk/chain';
import type { ListUtxosResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import { validate } from '@ctk/shared';
import { z } from 'zod';
import { bsvAddress } from '../wallet-facts/wallet-fields.js';

const utxosInput = z.object({ address: bsvAddress });

/**
 * An address's spendable outputs, as the chain's lookup API knows them (unconfirmed ones without a height).
 * Not a P2PKH address is validation_failed on `address`, before the chain is asked.
 */
export async function listUtxos(chain: ChainClient, input: string): Promise<ListUtxosResponse> {
  const { address } = validate(utxosInput, { address: input });
  const utxos = await chain.listUnspent(address);
  return {
    address,
    utxos: utxos.map((utxo) => ({ txid: utxo.txid, vout: utxo.vout, satoshis: BigInt(utxo.satoshis), height: utxo.height || undefined })),
  };
}
