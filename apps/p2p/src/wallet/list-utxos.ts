import type { ChainClient } from '@ctk/chain';
import type { ListUtxosResponse } from '@ctk/proto/ctk/p2p/v1/p2p';

/** An address's spendable outputs, as the chain's lookup API knows them (unconfirmed ones with height 0). */
export async function listUtxos(chain: ChainClient, address: string): Promise<ListUtxosResponse> {
  const utxos = await chain.listUnspent(address);
  return { utxos: utxos.map((utxo) => ({ txid: utxo.txid, vout: utxo.vout, satoshis: BigInt(utxo.satoshis), height: utxo.height ?? 0 })) };
}
