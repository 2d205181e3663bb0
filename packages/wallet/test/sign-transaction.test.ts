import { P2PKH, PrivateKey, Transaction, UnlockingScript, type LockingScript } from '@bsv/sdk';
import { tokenLock } from '@ctk/chain';
import { requestFaucet } from '@ctk/chain/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiveAddress } from '../src/hd-keys.js';
import { fundedWallet, startTestChain, wallet, type TestChain } from './support.js';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain?.close());

type Spend = { txid: string; vout: number };

/** A transaction as a service drafts one for a wallet: each input carrying the output it spends, unsigned (Extended Format). */
async function unsignedEf(spends: Spend[], outputs: { lockingScript: LockingScript; satoshis: number }[]): Promise<string> {
  const tx = new Transaction();
  for (const spend of spends) {
    const source = (await chain.client.getTransaction(spend.txid))!.tx;
    tx.addInput({ sourceTransaction: source, sourceOutputIndex: spend.vout, unlockingScript: new UnlockingScript([]) });
  }
  for (const output of outputs) tx.addOutput(output);
  return tx.toHexEF();
}

const sign = (hex: string, env: Record<string, string>) => wallet(['sign-transaction', hex, '--json'], env);
type Signed = { txid: string; transaction: string; signed_inputs: Array<{ index: number; address: string; path: string | null }> };

describe('sign-transaction: the wallet signs what a service built for it', () => {
  it('signs inputs at its address and at a receive child, and the chain takes the transaction', async () => {
    const merchant = await fundedWallet(chain, 50_000);
    const xpub = (await wallet(['xpub', '--json'], merchant.env)).json<{ xpub: string }>().xpub;
    const child = receiveAddress(xpub, 3, 'testnet');
    const paidChild = await requestFaucet(chain.running.url, child, 20_000);
    const [coin] = await chain.client.listUnspent(merchant.address);
    const payee = PrivateKey.fromRandom().toAddress('testnet');
    const hex = await unsignedEf(
      [coin!, { txid: paidChild.txid, vout: paidChild.vout }],
      [{ lockingScript: new P2PKH().lock(payee), satoshis: 69_000 }],
    );

    const signed = await sign(hex, merchant.env);
    expect(signed.err).toEqual([]);
    const answer = signed.json<Signed>();
    expect(answer.signed_inputs).toEqual([
      { index: 0, address: merchant.address, path: "m/0'" },
      { index: 1, address: child, path: 'm/0/3' },
    ]);
    const status = await chain.client.broadcast(answer.transaction);
    expect(status.txid).toBe(answer.txid);
    expect((await chain.client.listUnspent(payee)).map((utxo) => utxo.satoshis)).toEqual([69_000]);
  });

  it('prints only the signed hex without --json, and signs a token output held P2PKH by the wallet', async () => {
    const holder = await fundedWallet(chain, 50_000);
    const [coin] = await chain.client.listUnspent(holder.address);
    const mint = tokenLock({ ownerAddress: holder.address, inscription: { op: 'deploy+mint', symbol: 'SIGN', decimals: 0, amount: 100n } });
    const deployHex = await unsignedEf(
      [coin!],
      [
        { lockingScript: mint, satoshis: 1 },
        { lockingScript: new P2PKH().lock(holder.address), satoshis: 49_000 },
      ],
    );
    const deployed = await wallet(['sign-transaction', deployHex], holder.env);
    expect(deployed.out).toHaveLength(1);
    const deployTxid = (await chain.client.broadcast(deployed.out[0]!)).txid;
    const tokenId = `${deployTxid}_0`;

    const other = PrivateKey.fromRandom().toAddress('testnet');
    const transfer = (amount: bigint, to: string) => tokenLock({ ownerAddress: to, inscription: { op: 'transfer', tokenId, amount } });
    const sendHex = await unsignedEf(
      [
        { txid: deployTxid, vout: 0 },
        { txid: deployTxid, vout: 1 },
      ],
      [
        { lockingScript: transfer(30n, other), satoshis: 1 },
        { lockingScript: transfer(70n, holder.address), satoshis: 1 },
        { lockingScript: new P2PKH().lock(holder.address), satoshis: 48_000 },
      ],
    );
    const sent = (await sign(sendHex, holder.env)).json<Signed>();
    await chain.client.broadcast(sent.transaction);
    expect((await chain.client.tokenBalance(other, tokenId)).pending).toBe(30n);
    expect((await chain.client.tokenBalance(holder.address, tokenId)).pending).toBe(70n);
  });

  it("refuses an input at an address that is not the wallet's, signing nothing, and a transaction without its inputs' outputs", async () => {
    const merchant = await fundedWallet(chain, 50_000);
    const stranger = PrivateKey.fromRandom().toAddress('testnet');
    const theirs = await requestFaucet(chain.running.url, stranger, 10_000);
    const [coin] = await chain.client.listUnspent(merchant.address);
    const hex = await unsignedEf(
      [coin!, { txid: theirs.txid, vout: theirs.vout }],
      [{ lockingScript: new P2PKH().lock(stranger), satoshis: 100 }],
    );

    const refused = await sign(hex, merchant.env);
    expect(refused.code).toBe(1);
    expect(refused.out).toEqual([]);
    expect(refused.err).toEqual([
      `ctk-wallet: Input 1 spends ${stranger}, which is not this wallet's to sign: nothing was signed (--partial signs the rest).`,
    ]);

    const raw = Transaction.fromHexEF(hex).toHex();
    const bare = await sign(raw, merchant.env);
    expect(bare.code).toBe(1);
    expect(bare.err[0]).toMatch(/^ctk-wallet: Input 0 does not carry the output it spends: give the transaction in Extended Format/);
    expect((await sign('not hex', merchant.env)).err[0]).toMatch(/not a transaction in hex/);
  });
});
