import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { P2PKH, PrivateKey, Transaction, Utils } from '@bsv/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChainClient, MNEE_TOKEN_ID, tokenLock } from '../src/index.js';
import { mineBlocks, requestStablecoinFaucet } from '../src/local/index.js';
import { fundedWallet, newWallet, rejection, startTestChain, type TestChain } from './support.js';
import { stablecoinHolder, tokenTransfer } from './token-support.js';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain.close());

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A service of the test's own that answers every request with `status` and `body` (JSON). */
async function serve(answer: (path: string) => { status: number; body: unknown }): Promise<string> {
  const server = createServer((req, res) => {
    const { status, body } = answer(req.url ?? '/');
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("the chain client's stablecoin", () => {
  it("is the local chain's USDX on local", async () => {
    const stablecoin = await chain.client.stablecoin();
    expect(stablecoin).toEqual({
      tokenId: chain.running.chain.stablecoin.tokenId,
      symbol: 'USDX',
      decimals: 5,
      cosignerPublicKey: chain.running.chain.stablecoin.cosignerPublicKey,
    });
  });

  it("is MNEE on main once its cosigner's key is configured, and a clear error where it is not configured", async () => {
    const key = PrivateKey.fromRandom().toPublicKey().toString();
    expect(await createChainClient({ network: 'main', stablecoin: { cosignerPublicKey: key } }).stablecoin()).toEqual({
      tokenId: MNEE_TOKEN_ID,
      symbol: 'MNEE',
      decimals: 5,
      cosignerPublicKey: key,
    });
    expect(await rejection(createChainClient({ network: 'main' }).stablecoin())).toMatchObject({
      code: 'failed_precondition',
      message: expect.stringContaining('set CHAIN_STABLECOIN_COSIGNER_KEY'),
    });
    expect(await rejection(createChainClient({ network: 'test' }).stablecoin())).toMatchObject({
      code: 'failed_precondition',
      details: { missing: ['CHAIN_STABLECOIN_TOKEN_ID', 'CHAIN_STABLECOIN_DECIMALS', 'CHAIN_STABLECOIN_COSIGNER_KEY'] },
    });
    const configured = { tokenId: `${'ab'.repeat(32)}_1`, decimals: 2, cosignerPublicKey: key, symbol: 'TUSD' };
    expect(await createChainClient({ network: 'test', stablecoin: configured }).stablecoin()).toEqual(configured);
  });
});

describe('token reads through the indexer API', () => {
  it('reads balances, unspent outputs and a transaction’s outputs in whole units (bigint)', async () => {
    const { tokenId, cosignerPublicKey } = await chain.client.stablecoin();
    const holder = newWallet();
    const paid = await requestStablecoinFaucet(chain.running.url, holder.address, 1_234_567n);
    expect(await chain.client.tokenBalance(holder.address, tokenId)).toEqual({
      tokenId,
      symbol: 'USDX',
      decimals: 5,
      confirmed: 0n,
      pending: 1_234_567n,
    });
    await mineBlocks(chain.running.url);
    expect(await chain.client.tokenBalance(holder.address, tokenId)).toMatchObject({ confirmed: 1_234_567n, pending: 0n });
    expect(await chain.client.tokenUtxos(holder.address, tokenId)).toEqual([
      {
        txid: paid.txid,
        vout: 0,
        satoshis: 1,
        tokenId,
        amount: 1_234_567n,
        owner: holder.address,
        lockingScript: Transaction.fromHex(paid.rawtx).outputs[0]!.lockingScript.toHex(),
        cosignerPublicKey,
      },
    ]);
    expect(await chain.client.tokenOutputs(paid.txid)).toEqual([
      expect.objectContaining({
        txid: paid.txid,
        vout: 0,
        tokenId,
        op: 'transfer',
        amount: 1_234_567n,
        owner: holder.address,
        cosignerPublicKey,
        status: 'valid',
      }),
      expect.objectContaining({ vout: 1, owner: chain.running.chain.treasuryAddress, status: 'valid' }),
    ]);

    const other = `${'ab'.repeat(32)}_0`;
    expect(await chain.client.tokenBalance(holder.address, other)).toEqual({ tokenId: other, confirmed: 0n, pending: 0n });
    expect(await chain.client.tokenUtxos(holder.address, other)).toEqual([]);
    expect(await chain.client.tokenOutputs('ab'.repeat(32))).toBeNull();
    const funded = await fundedWallet(chain, 1_000);
    expect(await chain.client.tokenOutputs(funded.source.id('hex'))).toEqual([]);
    expect(await rejection(chain.client.tokenBalance(holder.address, 'USDX'))).toMatchObject({ code: 'validation_failed' });
    expect(await rejection(chain.client.tokenUtxos('not-an-address', tokenId))).toMatchObject({ code: 'validation_failed' });
  });

  it("lists a token's holders as 1Sat's /id/{id}/holders does: valid unspent units per address, most first, a page at a time", async () => {
    const minter = await fundedWallet(chain, 20_000);
    const deploy = new Transaction();
    deploy.addInput({
      sourceTransaction: minter.source,
      sourceOutputIndex: minter.vout,
      unlockingScriptTemplate: new P2PKH().unlock(minter.key),
    });
    deploy.addOutput({
      satoshis: 1,
      lockingScript: tokenLock({
        ownerAddress: minter.address,
        inscription: { op: 'deploy+mint', symbol: 'HOLD', decimals: 0, amount: 100n },
      }),
    });
    deploy.addOutput({ satoshis: 19_000, lockingScript: new P2PKH().lock(minter.address) });
    await deploy.sign();
    await chain.client.broadcast(deploy);
    const tokenId = `${deploy.id('hex')}_0`;
    expect(await chain.client.tokenHolders(tokenId)).toEqual([{ address: minter.address, amount: 100n }]);

    const [a, b] = [newWallet(), newWallet()];
    const sent = await tokenTransfer({
      key: minter.key,
      tokens: [{ source: deploy, vout: 0 }],
      tokenId,
      cosigned: false,
      fees: { source: deploy, vout: 1 },
      outputs: [
        { address: a.address, amount: 30n },
        { address: b.address, amount: 10n },
        { address: minter.address, amount: 60n },
      ],
    });
    await chain.client.broadcast(sent);
    const holders = [
      { address: minter.address, amount: 60n },
      { address: a.address, amount: 30n },
      { address: b.address, amount: 10n },
    ];
    expect(await chain.client.tokenHolders(tokenId)).toEqual(holders);
    expect(await chain.client.tokenHolders(tokenId, { limit: 1, offset: 1 })).toEqual([holders[1]]);
    expect(await chain.client.tokenHolders(`${'cd'.repeat(32)}_0`)).toEqual([]);
    expect(await rejection(chain.client.tokenHolders(tokenId, { limit: 101 }))).toMatchObject({ code: 'validation_failed' });
    expect(await rejection(chain.client.tokenHolders('HOLD'))).toMatchObject({ code: 'validation_failed' });
  });

  it("tells an invalid transfer's outputs, with the indexer's reason", async () => {
    const { tokenId, cosignerPublicKey } = await chain.client.stablecoin();
    const holder = await stablecoinHolder(chain, 100n);
    const forged = await tokenTransfer({
      key: holder.key,
      tokens: [],
      tokenId,
      cosigned: true,
      fees: holder.fees,
      outputs: [{ address: holder.address, amount: 1_000_000n, cosignerPublicKey }],
    });
    await chain.client.broadcast(forged);
    expect(await chain.client.tokenOutputs(forged.id('hex'))).toEqual([
      expect.objectContaining({ amount: 1_000_000n, status: 'invalid', reason: expect.stringContaining('insufficient inputs') }),
    ]);
    expect((await chain.client.tokenBalance(holder.address, tokenId)).pending).toBe(100n);
  });

  it('takes nothing from an indexer that answers another shape, or a script that says otherwise', async () => {
    const holder = newWallet();
    const tokenId = `${'ab'.repeat(32)}_0`;
    const lie = Utils.toBase64(
      tokenLock({ ownerAddress: holder.address, inscription: { op: 'transfer', tokenId, amount: 5n } }).toBinary(),
    );
    const indexer = await serve((path) =>
      path.includes('/balance')
        ? { status: 200, body: { balance: 5 } }
        : { status: 200, body: [{ txid: 'cd'.repeat(32), vout: 0, id: tokenId, op: 'transfer', amt: '500', status: 1, script: lie }] },
    );
    const client = createChainClient({ network: 'main', tokenIndexerUrl: indexer, retries: 0 });
    expect(await rejection(client.tokenBalance(holder.address, tokenId))).toMatchObject({
      code: 'chain_unavailable',
      message: expect.stringMatching(
        /^token indexer at 127\.0\.0\.1:\d+ answered \/api\/bsv20\/.*\/balance with a body that is not its API's/,
      ),
    });
    expect(await rejection(client.tokenUtxos(holder.address, tokenId))).toMatchObject({
      code: 'chain_unavailable',
      message: expect.stringContaining('which its script does not say'),
    });

    const failing = await serve(() => ({ status: 503, body: {} }));
    expect(
      await rejection(
        createChainClient({ network: 'test', tokenIndexerUrl: failing, retries: 1, retryBaseMs: 5 }).tokenOutputs('ab'.repeat(32)),
      ),
    ).toMatchObject({ code: 'chain_unavailable', message: expect.stringContaining('answered 503 after 2 attempts') });
  });
});

describe('cosign through the client', () => {
  it("gets the local cosigner's signature, keeps the source transactions, and the chain mines the transfer", async () => {
    const { tokenId, cosignerPublicKey } = await chain.client.stablecoin();
    const holder = await stablecoinHolder(chain, 5_000n);
    const payee = newWallet();
    const transfer = await tokenTransfer({
      key: holder.key,
      tokens: [holder.usdx],
      tokenId,
      cosigned: true,
      fees: holder.fees,
      outputs: [{ address: payee.address, amount: 5_000n, cosignerPublicKey }],
    });
    const cosigned = await chain.client.cosign(transfer);
    expect(cosigned.inputs.every((input) => input.sourceTransaction)).toBe(true);
    expect(await chain.client.broadcast(cosigned)).toMatchObject({ txid: cosigned.id('hex'), state: 'seen' });
    expect(await chain.client.tokenBalance(payee.address, tokenId)).toMatchObject({ pending: 5_000n });

    const burn = await tokenTransfer({
      key: payee.key,
      tokens: [{ source: cosigned, vout: 0 }],
      tokenId,
      cosigned: true,
      fees: { source: cosigned, vout: 1 },
      outputs: [{ address: payee.address, amount: 4_000n, cosignerPublicKey }],
    });
    expect(await rejection(chain.client.cosign(burn))).toMatchObject({
      code: 'chain_rejected',
      message: expect.stringContaining('every unit must stay cosign-locked'),
      details: { service: 'cosigner', reason: 'not_whole', held: '5000', moved: '4000', status: 422 },
    });
  });

  it('is not implemented off the local chain, and refuses a cosigner that answers another transaction', async () => {
    expect(await rejection(createChainClient({ network: 'main' }).cosign('00'))).toMatchObject({
      code: 'not_implemented',
      message: expect.stringContaining("MNEE's cosigner"),
    });
    const holder = await fundedWallet(chain, 2_000);
    const other = await fundedWallet(chain, 3_000);
    const fake = await serve(() => ({ status: 200, body: { rawtx: other.source.toHex() } }));
    const client = createChainClient({ network: 'local', localUrl: fake, retries: 0 });
    expect(await rejection(client.cosign(holder.source.toHex()))).toMatchObject({
      code: 'chain_unavailable',
      message: 'The cosigner answered another transaction than the one sent.',
    });
  });
});
