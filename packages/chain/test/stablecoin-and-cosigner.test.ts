import { P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTokenOutput } from '../src/index.js';
import { mineBlocks, requestStablecoinFaucet, STABLECOIN_SUPPLY } from '../src/local/index.js';
import { fundedWallet, newWallet, rejection, startTestChain, type TestChain } from './support.js';
import { getJson, postJson, stablecoinHolder, tokenTransfer, type Balance, type Txo } from './token-support.js';

let chain: TestChain;
let usdx: { token_id: string; symbol: string; decimals: number; cosigner_public_key: string };
beforeAll(async () => {
  chain = await startTestChain({ stablecoinFaucetMaxUnits: 1_000_000_000n });
  usdx = (await getJson<typeof usdx>(chain, '/v1/bsv/local/stablecoin')).body;
});
afterAll(() => chain.close());

type Refusal = { error: { code: string; message: string; details: { service: string; reason: string } } };
const cosign = (rawtx: string) => postJson<{ rawtx: string } & Refusal>(chain, '/v1/bsv/local/cosign', { rawtx });

describe('the test stablecoin', () => {
  it("is USDX, 5 decimals, minted at genesis to the treasury, cosign-locked to the chain's cosigner", async () => {
    expect(usdx).toEqual({
      token_id: expect.stringMatching(/^[0-9a-f]{64}_0$/),
      symbol: 'USDX',
      decimals: 5,
      cosigner_public_key: expect.stringMatching(/^0[23][0-9a-f]{64}$/),
    });
    const [deploy] = (await getJson<Txo[]>(chain, `/api/bsv20/txid/${usdx.token_id.slice(0, 64)}`)).body;
    expect(deploy).toMatchObject({
      op: 'deploy+mint',
      id: usdx.token_id,
      amt: STABLECOIN_SUPPLY.toString(),
      status: 1,
      cosigner: usdx.cosigner_public_key,
    });
    expect((await chain.client.getStatus(usdx.token_id.slice(0, 64))).blockHeight).toBe(1);
    const treasury = chain.running.chain.treasuryAddress;
    expect(deploy!.owner).toBe(treasury);
  });

  it('pays from its faucet, cosign-locked to the cosigner, within the bound', async () => {
    const holder = newWallet();
    const paid = await requestStablecoinFaucet(chain.running.url, holder.address, 2_500_000n);
    expect(paid).toMatchObject({ vout: 0, amount: '2500000', address: holder.address, token_id: usdx.token_id });
    const output = Transaction.fromHex(paid.rawtx).outputs[0]!;
    expect(parseTokenOutput(output.lockingScript)).toMatchObject({
      op: 'transfer',
      tokenId: usdx.token_id,
      amount: 2_500_000n,
      cosignerPublicKey: usdx.cosigner_public_key,
    });
    expect((await getJson<Balance[]>(chain, `/api/bsv20/${holder.address}/balance`)).body).toEqual([
      expect.objectContaining({ id: usdx.token_id, sym: 'USDX', dec: 5, all: { confirmed: '0', pending: '2500000' } }),
    ]);

    for (const amount of ['0', '1000000001', '1.5', 'ten']) {
      const refused = await postJson<Refusal>(chain, '/v1/bsv/local/stablecoin/faucet', { address: holder.address, amount });
      expect({ amount, status: refused.status, code: refused.body.error.code }).toEqual({ amount, status: 422, code: 'validation_failed' });
    }
    expect((await postJson<Refusal>(chain, '/v1/bsv/local/stablecoin/faucet', { address: 'nope', amount: '1' })).status).toBe(422);
  });
});

describe('the chain and the cosigner', () => {
  it("refuses a cosigned input without the cosigner's signature, and mines it once the cosigner signed", async () => {
    const holder = await stablecoinHolder(chain, 1_000_000n);
    const payee = newWallet();
    const transfer = await tokenTransfer({
      key: holder.key,
      tokens: [holder.usdx],
      tokenId: usdx.token_id,
      cosigned: true,
      fees: holder.fees,
      outputs: [
        { address: payee.address, amount: 400_000n, cosignerPublicKey: usdx.cosigner_public_key },
        { address: holder.address, amount: 600_000n, cosignerPublicKey: usdx.cosigner_public_key },
      ],
    });
    const refused = await rejection(chain.client.broadcast(transfer));
    expect(refused).toMatchObject({ code: 'chain_rejected', details: { arc_status: 461 } });

    const cosigned = await cosign(transfer.toHexEF());
    expect(cosigned.status).toBe(200);
    const signed = Transaction.fromHex(cosigned.body.rawtx);
    expect(signed.inputs[0]!.unlockingScript!.chunks).toHaveLength(3);
    expect(signed.inputs[1]!.unlockingScript!.toHex()).toBe(transfer.inputs[1]!.unlockingScript!.toHex());
    expect((await chain.client.getStatus(signed.id('hex'))).state).toBe('unknown');

    await chain.client.broadcast(signed.toHex());
    await mineBlocks(chain.running.url);
    expect((await getJson<Balance[]>(chain, `/api/bsv20/${payee.address}/balance`)).body[0]!.all).toEqual({
      confirmed: '400000',
      pending: '0',
    });
    expect((await getJson<Txo[]>(chain, `/api/bsv20/txid/${signed.id('hex')}`)).body.map((txo) => [txo.amt, txo.status])).toEqual([
      ['400000', 1],
      ['600000', 1],
    ]);
  });

  it('refuses what does not keep every unit cosign-locked and whole, and signs nothing then', async () => {
    const holder = await stablecoinHolder(chain, 1_000_000n);
    const cosigner = usdx.cosigner_public_key;
    const payee = newWallet().address;
    const attempt = (outputs: Parameters<typeof tokenTransfer>[0]['outputs'], tokens = [holder.usdx]) =>
      tokenTransfer({ key: holder.key, tokens, tokenId: usdx.token_id, cosigned: true, fees: holder.fees, outputs });

    const cases: Array<[string, Transaction]> = [
      ['output_not_cosigned', await attempt([{ address: payee, amount: 1_000_000n }])],
      [
        'output_not_cosigned',
        await attempt([{ address: payee, amount: 1_000_000n, cosignerPublicKey: PrivateKey.fromRandom().toPublicKey().toString() }]),
      ],
      ['not_whole', await attempt([{ address: payee, amount: 999_999n, cosignerPublicKey: cosigner }])],
      ['not_whole', await attempt([{ address: payee, amount: 1_000_001n, cosignerPublicKey: cosigner }])],
      ['nothing_to_cosign', await attempt([{ address: payee, amount: 1n, cosignerPublicKey: cosigner }], [])],
    ];
    for (const [reason, tx] of cases) {
      const answer = await cosign(tx.toHex());
      expect({ reason, status: answer.status, error: answer.body.error }).toEqual({
        reason,
        status: 422,
        error: {
          code: 'chain_rejected',
          message: expect.stringMatching(/^The cosigner refuses the transaction: /),
          details: expect.objectContaining({ service: 'cosigner', reason }),
        },
      });
    }

    const unknownParent = await attempt([{ address: payee, amount: 1_000_000n, cosignerPublicKey: cosigner }]);
    unknownParent.inputs[1]!.sourceTXID = 'ab'.repeat(32);
    expect((await cosign(unknownParent.toHex())).body.error.details.reason).toBe('unknown_input');

    const ownerless = await attempt([{ address: payee, amount: 1_000_000n, cosignerPublicKey: cosigner }]);
    ownerless.inputs[0]!.unlockingScript!.chunks.pop();
    expect((await cosign(ownerless.toHex())).body.error.details.reason).toBe('owner_signature_missing');

    const other = await fundedWallet(chain, 5_000);
    const plain = new Transaction();
    plain.addInput({
      sourceTransaction: other.source,
      sourceOutputIndex: other.vout,
      unlockingScriptTemplate: new P2PKH().unlock(other.key),
    });
    plain.addOutput({ satoshis: 4_000, lockingScript: new P2PKH().lock(payee) });
    await plain.sign();
    expect((await cosign(plain.toHex())).body.error.details.reason).toBe('nothing_to_cosign');

    const notHex = await postJson<Refusal>(chain, '/v1/bsv/local/cosign', { rawtx: 'zz' });
    expect({ status: notHex.status, code: notHex.body.error.code }).toEqual({ status: 400, code: 'bad_request' });
    const notTx = await postJson<Refusal>(chain, '/v1/bsv/local/cosign', { rawtx: '0100' });
    expect({ status: notTx.status, code: notTx.body.error.code }).toEqual({ status: 422, code: 'validation_failed' });
  });

  it('refuses an input that is already spent, and one cosign-locked to it that holds no stablecoin', async () => {
    const holder = await stablecoinHolder(chain, 10_000n, 40_000);
    const cosigner = usdx.cosigner_public_key;
    const first = await tokenTransfer({
      key: holder.key,
      tokens: [holder.usdx],
      tokenId: usdx.token_id,
      cosigned: true,
      fees: holder.fees,
      outputs: [{ address: holder.address, amount: 10_000n, cosignerPublicKey: cosigner }],
    });
    const signed = Transaction.fromHex((await cosign(first.toHex())).body.rawtx);
    await chain.client.broadcast(signed.toHex());
    expect((await cosign(first.toHex())).body.error.details.reason).toBe('input_spent');

    // An invalid transfer output locked to the cosigner (it moves units its inputs never held) holds nothing.
    const forged = await tokenTransfer({
      key: holder.key,
      tokens: [],
      tokenId: usdx.token_id,
      cosigned: true,
      fees: { source: signed, vout: 1 },
      outputs: [{ address: holder.address, amount: 5n, cosignerPublicKey: cosigner }],
    });
    await chain.client.broadcast(forged);
    const spendForged = await tokenTransfer({
      key: holder.key,
      tokens: [{ source: forged, vout: 0 }],
      tokenId: usdx.token_id,
      cosigned: true,
      fees: { source: forged, vout: 1 },
      outputs: [{ address: holder.address, amount: 5n, cosignerPublicKey: cosigner }],
    });
    expect((await cosign(spendForged.toHex())).body.error.details.reason).toBe('not_the_stablecoin');
  });
});
