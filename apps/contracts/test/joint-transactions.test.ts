import { LockingScript, PrivateKey, Transaction, TransactionSignature, UnlockingScript } from '@bsv/sdk';
import { inputSignature, multisigLock, scriptOfAddress } from '@ctk/chain';
import { requestFaucet } from '@ctk/chain/local';
import { eventually, failure } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STACK_START_MS, startTokenStack, type TokenStack } from './token-stack.js';

let stack: TokenStack;
beforeAll(async () => {
  stack = await startTokenStack();
}, STACK_START_MS);
afterAll(() => stack?.close());

type Wallet = Awaited<ReturnType<TokenStack['newWallet']>>;

/** The wallet's one faucet coin, at its identity address. */
async function coinOf(wallet: Wallet) {
  const [coin] = await stack.chain.listUnspent(wallet.address);
  return { txid: coin!.txid, vout: coin!.vout, satoshis: BigInt(coin!.satoshis) };
}

/** What `pnpm wallet sign-transaction --partial` prints for this wallet. */
const signed = async (wallet: Wallet, transaction: string) =>
  (await stack.walletCommand<{ transaction: string }>(wallet.file, 'sign-transaction', '--partial', transaction)).transaction;

describe('a transaction partners sign together', () => {
  it('funds a 2-of-3 lock, then spends it with two partners’ coins: signed in either order it is the same valid transaction', async () => {
    const { org } = await stack.merchant();
    const [a, b, c] = [await stack.newWallet(100_000), await stack.newWallet(100_000), await stack.newWallet(100_000)];
    // A 2-of-3 of A, B and an arbiter who stays out of it.
    const arbiter = PrivateKey.fromRandom().toPublicKey().toString();
    const lock = multisigLock(2, [a.public_key, b.public_key, arbiter]).toHex();

    // A's coin pays the 2-of-3 lock: one partner, one signature.
    const coinA = await coinOf(a);
    const { jointTransaction: funding } = await stack.client.createJointTransaction({
      org,
      inputs: [{ txid: coinA.txid, vout: coinA.vout }],
      outputs: [{ script: lock, satoshis: 60_000n, address: '' }],
      description: 'Shared pot',
    });
    expect(funding).toMatchObject({ status: 'collecting', feeSatoshis: coinA.satoshis - 60_000n });
    const { capabilities } = await stack.client.getSetup({ org });
    expect(capabilities.find((capability) => capability.capabilityId === 'psbt')).toMatchObject({ setUp: true, nextStep: '' });
    expect(funding!.inputs).toEqual([expect.objectContaining({ kind: 'p2pkh', address: a.address, required: 1, signedBy: [] })]);
    const { jointTransaction: funded } = await stack.client.signJointTransaction({
      id: funding!.id,
      transaction: await signed(a, funding!.transaction),
    });
    expect(funded).toMatchObject({ status: 'broadcast', txid: expect.stringMatching(/^[0-9a-f]{64}$/) });

    // The lock, B's coin and C's coin pay two outputs; A and B share the lock, B and C their own coins.
    const [coinB, coinC] = [await coinOf(b), await coinOf(c)];
    const spend = {
      org,
      inputs: [
        { txid: funded!.txid!, vout: 0 },
        { txid: coinB.txid, vout: coinB.vout },
        { txid: coinC.txid, vout: coinC.vout },
      ],
      outputs: [
        { address: a.address, satoshis: 150_000n, script: '' },
        { address: c.address, satoshis: 100_000n, script: '' },
      ],
    };
    const first = (await stack.client.createJointTransaction(spend)).jointTransaction!;
    const second = (await stack.client.createJointTransaction(spend)).jointTransaction!;
    expect(first.transaction).toBe(second.transaction);
    expect(first.inputs[0]).toMatchObject({ kind: 'multisig', required: 2, publicKeys: [a.public_key, b.public_key, arbiter] });

    // In one order A, B, C; in the other C, B, A.
    const sign = (id: string, wallet: Wallet, agreed: string) =>
      signed(wallet, agreed).then((transaction) => stack.client.signJointTransaction({ id, transaction }));
    await sign(first.id, a, first.transaction);
    const half = (await sign(first.id, b, first.transaction)).jointTransaction!;
    expect(half.status).toBe('collecting');
    expect(half.inputs.map((input) => input.signedBy.length)).toEqual([2, 1, 0]);
    const done = (await sign(first.id, c, first.transaction)).jointTransaction!;
    expect(done).toMatchObject({ status: 'broadcast', broadcastAt: expect.any(String) });

    for (const wallet of [c, b, a]) await sign(second.id, wallet, second.transaction);
    const other = (await stack.client.getJointTransaction({ id: second.id })).jointTransaction!;
    expect(other.signedTransaction).toBe(done.signedTransaction);
    expect(other.txid).toBe(done.txid);
    expect((await stack.chain.getStatus(done.txid!)).state).not.toBe('unknown');

    // The same signatures again change nothing.
    expect((await sign(first.id, a, first.transaction)).jointTransaction).toEqual(done);
  });

  it('completes once when the last signatures arrive 20 times at once: one transaction, broadcast once', async () => {
    const { org } = await stack.merchant();
    const [a, b] = [await stack.newWallet(100_000), await stack.newWallet(100_000)];
    const [coinA, coinB] = [await coinOf(a), await coinOf(b)];
    const { jointTransaction: joint } = await stack.client.createJointTransaction({
      org,
      inputs: [
        { txid: coinA.txid, vout: coinA.vout },
        { txid: coinB.txid, vout: coinB.vout },
      ],
      outputs: [{ address: a.address, satoshis: 199_000n, script: '' }],
    });
    await stack.client.signJointTransaction({ id: joint!.id, transaction: await signed(a, joint!.transaction) });
    const last = await signed(b, joint!.transaction);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => stack.client.signJointTransaction({ id: joint!.id, transaction: last })),
    );
    expect(new Set(answers.map((answer) => answer.jointTransaction!.txid)).size).toBe(1);
    const final = (await stack.client.getJointTransaction({ id: joint!.id })).jointTransaction!;
    expect(final).toMatchObject({ status: 'broadcast', txid: answers[0]!.jointTransaction!.txid });
    expect(final.inputs.map((input) => input.signedBy.length)).toEqual([1, 1]);
  });

  it('posts to the shop’s books what it pays the shop’s identity address beyond what it spends of it, once', async () => {
    const merchant = await stack.merchant(50_000);
    const partner = await stack.newWallet(100_000);
    const [shopCoin, partnerCoin] = [await coinOf(merchant.wallet), await coinOf(partner)];
    // The shop puts in 50,000 and takes out 80,000: it received 30,000.
    const { jointTransaction: joint } = await stack.client.createJointTransaction({
      org: merchant.org,
      inputs: [
        { txid: shopCoin.txid, vout: shopCoin.vout },
        { txid: partnerCoin.txid, vout: partnerCoin.vout },
      ],
      outputs: [{ address: merchant.wallet.address, satoshis: 80_000n, script: '' }],
      changeAddress: partner.address,
      description: 'Share of the market stall',
    });
    await stack.client.signJointTransaction({ id: joint!.id, transaction: await signed(merchant.wallet, joint!.transaction) });
    const done = (await stack.client.signJointTransaction({ id: joint!.id, transaction: await signed(partner, joint!.transaction) }))
      .jointTransaction!;
    expect(done.status).toBe('broadcast');
    const [entry] = await eventually(async () => {
      const { entries } = await stack.books.listJournalEntries({ org: merchant.org, limit: 10 });
      expect(entries).toHaveLength(1);
      return entries;
    });
    expect(entry).toMatchObject({ eventType: 'payment.received', currency: 'BSV', sourceService: 'contracts', txid: done.txid });
    expect(entry!.lines.map((line) => [line.accountCode, line.debitMinor, line.creditMinor])).toEqual([
      ['1010', 30_000n, 0n],
      ['4000', 0n, 30_000n],
    ]);

    // The shop spending its own coin, its change back to it: it received nothing, and nothing posts.
    const [change] = (await stack.chain.listUnspent(merchant.wallet.address)).filter((coin) => coin.txid === done.txid);
    const { jointTransaction: spend } = await stack.client.createJointTransaction({
      org: merchant.org,
      inputs: [{ txid: change!.txid, vout: change!.vout }],
      outputs: [{ address: partner.address, satoshis: 10_000n, script: '' }],
      changeAddress: merchant.wallet.address,
    });
    expect(
      (await stack.client.signJointTransaction({ id: spend!.id, transaction: await signed(merchant.wallet, spend!.transaction) }))
        .jointTransaction!.status,
    ).toBe('broadcast');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await stack.books.listJournalEntries({ org: merchant.org, limit: 10 })).entries).toHaveLength(1);
  });

  it('refuses a copy that is not the agreed transaction, and a signature made over another one', async () => {
    const { org } = await stack.merchant();
    const [a, b] = [await stack.newWallet(100_000), await stack.newWallet(100_000)];
    const [coinA, coinB] = [await coinOf(a), await coinOf(b)];
    const { jointTransaction: joint } = await stack.client.createJointTransaction({
      org,
      inputs: [
        { txid: coinA.txid, vout: coinA.vout },
        { txid: coinB.txid, vout: coinB.vout },
      ],
      outputs: [{ address: b.address, satoshis: 190_000n, script: '' }],
    });
    // A signs a copy paying A instead.
    const tampered = Transaction.fromHexEF(joint!.transaction);
    tampered.outputs[0]!.lockingScript = LockingScript.fromHex(scriptOfAddress(a.address, 'local', 'address'));
    const signedTampered = await signed(a, tampered.toHexEF());
    const mismatch = await failure(stack.client.signJointTransaction({ id: joint!.id, transaction: signedTampered }));
    expect(mismatch).toMatchObject({ code: 'transaction_mismatch', details: { differs: 'output 0' } });

    // Its signature moved onto the agreed transaction does not verify.
    const transplanted = Transaction.fromHexEF(joint!.transaction);
    transplanted.inputs[0]!.unlockingScript = Transaction.fromHexEF(signedTampered).inputs[0]!.unlockingScript;
    const forged = await failure(stack.client.signJointTransaction({ id: joint!.id, transaction: transplanted.toHexEF() }));
    expect(forged).toMatchObject({ code: 'signature_invalid', details: { input: 0 } });

    // B's signature on A's input: not its key.
    const signedByB = Transaction.fromHexEF(await signed(b, joint!.transaction));
    const swapped = Transaction.fromHexEF(joint!.transaction);
    swapped.inputs[0]!.unlockingScript = signedByB.inputs[1]!.unlockingScript;
    expect(await failure(stack.client.signJointTransaction({ id: joint!.id, transaction: swapped.toHexEF() }))).toMatchObject({
      code: 'signature_invalid',
      details: { input: 0 },
    });
    const unchanged = (await stack.client.getJointTransaction({ id: joint!.id })).jointTransaction!;
    expect(unchanged.inputs.map((input) => input.signedBy)).toEqual([[], []]);
    expect(unchanged.status).toBe('collecting');
  });

  it('refuses a signature that does not cover every output (SIGHASH_NONE), though the key is the input’s', async () => {
    const { org } = await stack.merchant();
    const key = PrivateKey.fromRandom();
    const funded = await requestFaucet(stack.chainUrl, key.toAddress('testnet'), 50_000);
    const { jointTransaction: joint } = await stack.client.createJointTransaction({
      org,
      inputs: [{ txid: funded.txid, vout: funded.vout }],
      outputs: [{ address: key.toAddress('testnet'), satoshis: 49_000n, script: '' }],
    });
    const copy = Transaction.fromHexEF(joint!.transaction);
    const spent = Transaction.fromHex(funded.raw_tx).outputs[funded.vout]!;
    const none = TransactionSignature.SIGHASH_NONE | TransactionSignature.SIGHASH_FORKID;
    const signature = inputSignature({
      tx: copy,
      inputIndex: 0,
      key,
      sourceSatoshis: spent.satoshis!,
      lockingScript: spent.lockingScript,
      scope: none,
    });
    const publicKey = key.toPublicKey().encode(true) as number[];
    copy.inputs[0]!.unlockingScript = new UnlockingScript([
      { op: signature.length, data: signature },
      { op: publicKey.length, data: publicKey },
    ]);
    expect(await failure(stack.client.signJointTransaction({ id: joint!.id, transaction: copy.toHexEF() }))).toMatchObject({
      code: 'signature_invalid',
      details: { input: 0 },
    });
  });

  it('refuses what cannot be built: a coin the chain lacks, outputs above the inputs, no room for the fee, a script partners cannot sign', async () => {
    const { org } = await stack.merchant();
    const a = await stack.newWallet(100_000);
    const coin = await coinOf(a);
    const create = (fields: Record<string, unknown>) =>
      failure(
        stack.client.createJointTransaction({
          org,
          inputs: [{ txid: coin.txid, vout: coin.vout }],
          outputs: [{ address: a.address, satoshis: 1_000n, script: '' }],
          ...fields,
        }),
      );
    expect(await create({ inputs: [{ txid: 'ab'.repeat(32), vout: 0 }] })).toMatchObject({ code: 'failed_precondition' });
    expect(await create({ inputs: [{ txid: coin.txid, vout: 7 }] })).toMatchObject({ code: 'validation_failed' });
    expect(
      await create({
        inputs: [
          { txid: coin.txid, vout: coin.vout },
          { txid: coin.txid, vout: coin.vout },
        ],
      }),
    ).toMatchObject({ code: 'validation_failed', details: { field: 'inputs[1]' } });
    expect(await create({ outputs: [{ address: a.address, satoshis: coin.satoshis + 1n, script: '' }] })).toMatchObject({
      code: 'validation_failed',
      details: { field: 'outputs' },
    });
    const noFee = await create({ outputs: [{ address: a.address, satoshis: coin.satoshis, script: '' }] });
    expect(noFee.message).toContain('fee');
    expect(await create({ outputs: [{ address: a.address, script: '51', satoshis: 1_000n }] })).toMatchObject({
      code: 'validation_failed',
    });
    expect(await create({ outputs: [{ address: 'nope', satoshis: 1_000n, script: '' }] })).toMatchObject({ code: 'validation_failed' });
    expect(await create({ description: 'bad\u0000' })).toMatchObject({ code: 'validation_failed' });
    expect(await failure(stack.client.getJointTransaction({ id: 'jtx_AAAAAAAAAAAAAAAAAAAAAAAA' }))).toMatchObject({ code: 'not_found' });
  });

  it('leaves a 2-of-3 lock with one signature unspent: the chain refuses it', async () => {
    const a = await stack.newWallet(100_000);
    const b = await stack.newWallet(0);
    const { org } = await stack.merchant();
    const coin = await coinOf(a);
    const lock = multisigLock(2, [a.public_key, b.public_key]).toHex();
    const { jointTransaction: funding } = await stack.client.createJointTransaction({
      org,
      inputs: [{ txid: coin.txid, vout: coin.vout }],
      outputs: [{ script: lock, satoshis: 50_000n, address: '' }],
    });
    const funded = (await stack.client.signJointTransaction({ id: funding!.id, transaction: await signed(a, funding!.transaction) }))
      .jointTransaction!;
    const { jointTransaction: spend } = await stack.client.createJointTransaction({
      org,
      inputs: [{ txid: funded.txid!, vout: 0 }],
      outputs: [{ address: a.address, satoshis: 49_000n, script: '' }],
    });
    const oneSignature = await signed(a, spend!.transaction);
    expect((await stack.client.signJointTransaction({ id: spend!.id, transaction: oneSignature })).jointTransaction).toMatchObject({
      status: 'collecting',
    });
    // Broadcast as it is, the chain's interpreter refuses it.
    const alone = Transaction.fromHexEF(oneSignature);
    expect(alone.inputs[0]!.unlockingScript!.chunks).toHaveLength(2);
    await expect(stack.chain.broadcast(alone)).rejects.toMatchObject({ code: 'chain_rejected' });
  });
});
