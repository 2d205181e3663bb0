import { P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { cosignOwnerUnlock, createChainClient, tokenLock, tokenTransferOutput, type ChainClient } from '@ctk/chain';
import { requestFaucet, requestStablecoinFaucet } from '@ctk/chain/local';

/** A coin a customer holds: the transaction that made it and its output index. */
type Held = { source: Transaction; vout: number };

/** One token output of a transfer: to an address, an amount, and (unless plain) the stablecoin's cosign lock. */
type Pay = { address: string; amount: bigint; plain?: boolean; tokenId?: string };

/**
 * A customer's wallet on the local chain for the stablecoin tests: it holds USDX from the chain's stablecoin
 * faucet (cosign-locked to it) and satoshis for fees, and builds transfers as a wallet does: its token coin
 * in (signed by the owner, for the cosigner to complete), the outputs asked for, the token change back to
 * itself, the fee coin's change back. `cosigned` asks the chain's cosigner to approve before it is handed over.
 * Each transfer spends the same coins: a test makes one customer per transfer that reaches the chain.
 */
export async function stablecoinCustomer(chainUrl: string, units: bigint) {
  const chain: ChainClient = createChainClient({ network: 'local', localUrl: chainUrl, retries: 0 });
  const stablecoin = await chain.stablecoin();
  const key = PrivateKey.fromRandom();
  const address = key.toAddress('testnet');
  const usdxPaid = await requestStablecoinFaucet(chainUrl, address, units);
  const usdx: Held & { units: bigint } = { source: Transaction.fromHex(usdxPaid.rawtx), vout: usdxPaid.vout, units };
  const feePaid = await requestFaucet(chainUrl, address, 100_000);
  const fees: Held = { source: Transaction.fromHex(feePaid.raw_tx), vout: feePaid.vout };

  async function transfer(pays: Pay[], options: { cosigned?: boolean } = {}): Promise<Transaction> {
    const tx = new Transaction();
    tx.addInput({ sourceTransaction: usdx.source, sourceOutputIndex: usdx.vout, unlockingScriptTemplate: cosignOwnerUnlock(key) });
    tx.addInput({ sourceTransaction: fees.source, sourceOutputIndex: fees.vout, unlockingScriptTemplate: new P2PKH().unlock(key) });
    const output = (pay: Pay) =>
      tokenTransferOutput({
        address: pay.address,
        tokenId: pay.tokenId ?? stablecoin.tokenId,
        amount: pay.amount,
        cosignerPublicKey: pay.plain ? undefined : stablecoin.cosignerPublicKey,
      });
    for (const pay of pays) tx.addOutput(output(pay));
    const spent = pays.filter((pay) => !pay.tokenId).reduce((sum, pay) => sum + pay.amount, 0n);
    const change = usdx.units - spent;
    if (change > 0n) tx.addOutput(output({ address, amount: change }));
    const satoshis = fees.source.outputs[fees.vout]!.satoshis! + 1 - tx.outputs.length - 400;
    tx.addOutput({ satoshis, lockingScript: new P2PKH().lock(address) });
    await tx.sign();
    return options.cosigned === false ? tx : chain.cosign(tx);
  }

  /** A token of the customer's own, deployed and minted straight to `to`: another token than the stablecoin. */
  async function mintOwnToken(to: string, amount: bigint): Promise<Transaction> {
    const tx = new Transaction();
    tx.addInput({ sourceTransaction: fees.source, sourceOutputIndex: fees.vout, unlockingScriptTemplate: new P2PKH().unlock(key) });
    tx.addOutput({
      satoshis: 1,
      lockingScript: tokenLock({ ownerAddress: to, inscription: { op: 'deploy+mint', symbol: 'FAKE', decimals: 5, amount } }),
    });
    tx.addOutput({ satoshis: fees.source.outputs[fees.vout]!.satoshis! - 1 - 400, lockingScript: new P2PKH().lock(address) });
    await tx.sign();
    return tx;
  }

  return {
    key,
    mintOwnToken,
    address,
    stablecoin,
    chain,
    /** A transfer paying `pays`, approved by the cosigner unless `cosigned: false`; not broadcast. */
    transfer,
  };
}
