import { createHash } from 'node:crypto';
import {
  LockingScript,
  OP,
  P2PKH,
  PrivateKey,
  ScriptEvaluationError,
  Spend,
  Transaction,
  UnlockingScript,
  type TransactionInput,
} from '@bsv/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mineBlocks } from '../src/local/index.js';
import {
  checkInputScripts,
  hashOfOutputs,
  outputCovenantLock,
  outputCovenantPreimage,
  outputCovenantSpendBytes,
  outputCovenantUnlock,
  type CovenantOutput,
} from '../src/index.js';
import { fundedWallet, newWallet, rejection, startTestChain, type TestChain, type Wallet } from './support.js';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const GX = 0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798n;
const HALF_N = N >> 1n;
const FINAL = 0xffffffff;

const p2pkh = (wallet: Wallet = newWallet()) => new P2PKH().lock(wallet.address);

/** A referral split: the referrer's share first, the merchant's rest second. */
function split(referrerShare: number, merchantRest: number): CovenantOutput[] {
  return [
    { satoshis: referrerShare, lockingScript: p2pkh() },
    { satoshis: merchantRest, lockingScript: p2pkh() },
  ];
}

/** A transaction (never broadcast) holding covenant outputs, for the interpreter's tests: the spends name it as their source. */
function fakeSource(outputs: { satoshis: number; lockingScript: LockingScript }[]): Transaction {
  const tx = new Transaction();
  tx.addInput({ sourceTXID: randomTxid(), sourceOutputIndex: 0, unlockingScript: new UnlockingScript(), sequence: FINAL });
  for (const output of outputs) tx.addOutput(output);
  return tx;
}

const randomTxid = () => Buffer.from(PrivateKey.fromRandom().toArray()).toString('hex');

/** A spend of covenant output `vout` of `source` with these outputs, unlocked by the template (its own preimage). */
async function spend(
  source: Transaction,
  vout: number,
  outputs: readonly CovenantOutput[],
  options: { version?: number; lockTime?: number; sequence?: number } = {},
): Promise<Transaction> {
  const tx = new Transaction(options.version ?? 1, [], [], options.lockTime ?? 0);
  tx.addInput({
    sourceTransaction: source,
    sourceOutputIndex: vout,
    unlockingScriptTemplate: outputCovenantUnlock(),
    sequence: options.sequence ?? FINAL,
  });
  for (const output of outputs) tx.addOutput({ satoshis: output.satoshis, lockingScript: output.lockingScript });
  await tx.sign();
  return tx;
}

/** A transaction with these inputs as they are (unlocking scripts set by the caller) and these outputs. */
function assemble(
  inputs: TransactionInput[],
  outputs: readonly CovenantOutput[],
  options: { version?: number; lockTime?: number } = {},
): Transaction {
  return new Transaction(
    options.version ?? 1,
    inputs,
    outputs.map((output) => ({ satoshis: output.satoshis, lockingScript: output.lockingScript })),
    options.lockTime ?? 0,
  );
}

const preimagePush = (preimage: number[]) => new UnlockingScript().writeBin(preimage) as UnlockingScript;

type Outcome = { valid: true } | { valid: false; message: string; context?: string; pc?: number };

/** @bsv/sdk's interpreter on input `index`, with no verify flags (as the local chain runs it): its verdict, and where it failed. */
function interpret(tx: Transaction, index = 0): Outcome {
  const input = tx.inputs[index]!;
  const coin = input.sourceTransaction!.outputs[input.sourceOutputIndex]!;
  try {
    const valid = new Spend({
      sourceTXID: input.sourceTXID ?? input.sourceTransaction!.id('hex'),
      sourceOutputIndex: input.sourceOutputIndex,
      sourceSatoshis: coin.satoshis!,
      lockingScript: coin.lockingScript,
      transactionVersion: tx.version,
      otherInputs: tx.inputs.filter((_, other) => other !== index),
      outputs: tx.outputs,
      inputIndex: index,
      unlockingScript: input.unlockingScript!,
      inputSequence: input.sequence ?? FINAL,
      lockTime: tx.lockTime,
    }).validate();
    return valid ? { valid: true } : { valid: false, message: 'validate() returned false' };
  } catch (error) {
    if (error instanceof ScriptEvaluationError)
      return { valid: false, message: firstLine(error.message), context: error.context, pc: error.programCounter };
    return { valid: false, message: String(error) };
  }
}

/** The interpreter's own words, without the prefix and the stack dump that follow them. */
const firstLine = (message: string) => message.split('\n')[0]!.replace(/^Script evaluation error: /, '');

/** The local chain's own check of every input (`fast`: the covenant goes to the SDK's Spend). */
function chainCheck(tx: Transaction) {
  return checkInputScripts(
    tx,
    tx.inputs.map((input) => {
      const coin = input.sourceTransaction!.outputs[input.sourceOutputIndex]!;
      return { satoshis: coin.satoshis!, lockingScript: coin.lockingScript };
    }),
  );
}

// Where the lock fails: its first OP_EQUALVERIFY (one input), its second (the outputs), or the final OP_CHECKSIG's false.
const equalVerifies = (lock: LockingScript) => lock.chunks.flatMap((chunk, pc) => (chunk.op === OP.OP_EQUALVERIFY ? [pc] : []));
const failsOneInput = (lock: LockingScript) => ({ valid: false, context: 'LockingScript', pc: equalVerifies(lock)[0] });
const failsOutputs = (lock: LockingScript) => ({ valid: false, context: 'LockingScript', pc: equalVerifies(lock)[1] });
const failsSignature = { valid: false, message: 'The top stack element must be truthy after script evaluation.' };

/** The s the lock builds for a preimage: (z + r) mod n, and the low one of s and n - s, with its DER integer's bytes. */
function covenantS(preimage: Uint8Array | number[]): { s: bigint; low: bigint; der: Buffer } {
  const z = BigInt(`0x${sha256d(Uint8Array.from(preimage)).toString('hex')}`);
  const s = (z + GX) % N;
  const low = s > HALF_N ? N - s : s;
  const hex = low.toString(16);
  const magnitude = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  return { s, low, der: magnitude[0]! >= 0x80 ? Buffer.concat([Buffer.from([0]), magnitude]) : magnitude };
}

/** How s's DER integer looks: its length, and whether a 0x00 goes in front (the high bit of the next byte set). */
const shapeOf = (der: Buffer) => `${der.length} bytes${der[0] === 0 ? ', 0x00 in front' : ''}`;

/** The rare shapes of s, each about one spend in 256 (the first two) or 65,536 (the last two). */
const RARE_SHAPES = ['32 bytes, 0x00 in front', '31 bytes', '31 bytes, 0x00 in front', '30 bytes'];

const sha256d = (data: Uint8Array) => createHash('sha256').update(createHash('sha256').update(data).digest()).digest();

/**
 * A spend of `vout` with the outputs whose lock time gives the covenant's s this shape: lock times are tried on
 * the preimage's bytes, then the transaction is built with the one found. Every input's sequence is final, so
 * any lock time is.
 */
async function spendWithS(
  source: Transaction,
  vout: number,
  outputs: readonly CovenantOutput[],
  shape: string,
  version = 1,
): Promise<Transaction> {
  const base = await spend(source, vout, outputs, { version });
  const coin = source.outputs[vout]!;
  const preimage = Buffer.from(outputCovenantPreimage(base, 0, coin.satoshis!, coin.lockingScript));
  const at = preimage.length - 8;
  for (let lockTime = 1; lockTime < 50_000_000; lockTime++) {
    preimage.writeUInt32LE(lockTime, at);
    if (shapeOf(covenantS(preimage).der) === shape) {
      const tx = await spend(source, vout, outputs, { version, lockTime });
      expect(shapeOf(covenantS(outputCovenantPreimage(tx, 0, coin.satoshis!, coin.lockingScript)).der)).toBe(shape);
      return tx;
    }
  }
  throw new Error(`no lock time gave s of ${shape}`);
}

describe('the output covenant lock', () => {
  it('is 489 bytes of plain pushes and opcodes, holding the outputs hash and G', () => {
    const outputs = split(1_000, 9_000);
    const lock = outputCovenantLock(outputs);
    expect(lock.toBinary()).toHaveLength(489);
    const hex = lock.toHex();
    expect(hex).toContain(Buffer.from(hashOfOutputs(outputs)).toString('hex'));
    expect(hex).toContain('210279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798ac');
    expect(hex.endsWith('ac')).toBe(true);
    // The hash is what a transaction with exactly these outputs has as hashOutputs.
    const tx = assemble([], outputs);
    const serialized = tx.toBinary().slice(4 + 1 + 1, -4); // version, no inputs, output count ... outputs ... lock time
    expect(hashOfOutputs(outputs)).toEqual([...sha256d(Uint8Array.from(serialized))]);
    // Another list, another lock.
    expect(outputCovenantLock(split(1_001, 9_000)).toHex()).not.toBe(outputCovenantLock(split(1_000, 9_000)).toHex());
  });

  it('refuses an empty list and amounts a transaction cannot carry', () => {
    expect(() => outputCovenantLock([])).toThrow(/at least one output/);
    expect(() => outputCovenantLock([{ satoshis: -1, lockingScript: p2pkh() }])).toThrow(/outside 0 to/);
    expect(() => outputCovenantLock([{ satoshis: 1.5, lockingScript: p2pkh() }])).toThrow(/outside 0 to/);
  });

  it("gives the unlocking script's length and the spend's size exactly", async () => {
    const outputs = split(1_000, 9_000);
    const source = fakeSource([{ satoshis: 10_200, lockingScript: outputCovenantLock(outputs) }]);
    const tx = await spend(source, 0, outputs);
    const estimate = await outputCovenantUnlock().estimateLength(tx, 0);
    expect(tx.inputs[0]!.unlockingScript!.toBinary()).toHaveLength(estimate);
    // And the spend's whole size, for its fee: three outputs, one a longer script.
    const three = [...outputs, { satoshis: 0, lockingScript: LockingScript.fromASM(`OP_FALSE OP_RETURN ${'ab'.repeat(300)}`) }];
    const bigger = await spend(fakeSource([{ satoshis: 10_200, lockingScript: outputCovenantLock(three) }]), 0, three);
    expect(outputCovenantSpendBytes(outputs)).toBe(tx.toBinary().length);
    expect(outputCovenantSpendBytes(three)).toBe(bigger.toBinary().length);
  });
});

describe("spends checked by @bsv/sdk's interpreter (Spend, no verify flags)", () => {
  const outputs = split(2_500, 47_500);
  const lock = outputCovenantLock(outputs);
  const source = fakeSource([
    { satoshis: 50_200, lockingScript: lock },
    { satoshis: 50_200, lockingScript: lock },
  ]);

  it('accepts a spend whose outputs are exactly the fixed ones, in a version 1 or 2 transaction', async () => {
    for (const version of [1, 2]) {
      const tx = await spend(source, 0, outputs, { version });
      expect(tx.inputs[0]!.unlockingScript!.chunks).toHaveLength(1);
      expect(interpret(tx)).toEqual({ valid: true });
      expect(chainCheck(tx)).toBeUndefined();
    }
  });

  it("refuses other outputs at the outputs check: the referrer's removed, its amount or script changed, one added, the order swapped", async () => {
    const [referrer, merchant] = outputs as [CovenantOutput, CovenantOutput];
    const others: Record<string, CovenantOutput[]> = {
      'referrer removed': [merchant],
      'referrer removed, merchant takes its share': [{ ...merchant, satoshis: merchant.satoshis + referrer.satoshis }],
      'referrer paid less': [{ ...referrer, satoshis: referrer.satoshis - 1 }, merchant],
      'referrer paid more': [
        { ...referrer, satoshis: referrer.satoshis + 1 },
        { ...merchant, satoshis: merchant.satoshis - 1 },
      ],
      "referrer's script changed": [{ ...referrer, lockingScript: p2pkh() }, merchant],
      'an output added': [referrer, merchant, { satoshis: 100, lockingScript: p2pkh() }],
      'a data output added': [referrer, merchant, { satoshis: 0, lockingScript: LockingScript.fromASM('OP_FALSE OP_RETURN 68656c6c6f') }],
      'order swapped': [merchant, referrer],
    };
    for (const [what, changed] of Object.entries(others)) {
      for (const version of [1, 2]) {
        const tx = await spend(source, 0, changed, { version });
        expect(interpret(tx), what).toMatchObject({
          ...failsOutputs(lock),
          message: 'OP_EQUALVERIFY requires the top two stack items to be equal.',
        });
        expect(chainCheck(tx), what).toMatchObject({
          index: 0,
          reason: expect.stringContaining('OP_EQUALVERIFY requires the top two stack items to be equal.'),
        });
      }
    }
  });

  it("refuses a forged preimage: the fixed outputs' hash put in the preimage of a spend with other outputs", async () => {
    const [, merchant] = outputs as [CovenantOutput, CovenantOutput];
    const robbed = [{ ...merchant, satoshis: 50_000 }];
    const honest = await spend(source, 0, outputs);
    const forged = outputCovenantPreimage(honest, 0, 50_200, lock); // a real preimage, for the fixed outputs
    const tx = assemble(
      [{ sourceTransaction: source, sourceOutputIndex: 0, sequence: FINAL, unlockingScript: preimagePush(forged) }],
      robbed,
    );
    // Same hashPrevouts, outpoint and outputs hash as the honest spend, but the node hashes this one's outputs.
    expect(interpret(tx)).toMatchObject(failsSignature);
    expect(chainCheck(tx)).toMatchObject({ index: 0 });
  });

  it('refuses a tampered preimage: a byte changed in the version, the value, the lock time or the sighash type, or bytes added', async () => {
    const honest = await spend(source, 0, outputs);
    const preimage = outputCovenantPreimage(honest, 0, 50_200, lock);
    const at = { version: 0, value: preimage.length - 52, lockTime: preimage.length - 8, sighash: preimage.length - 4 };
    for (const [what, index] of Object.entries(at)) {
      const tampered = [...preimage];
      tampered[index] = tampered[index]! ^ 0x01;
      const tx = assemble(
        [{ sourceTransaction: source, sourceOutputIndex: 0, sequence: FINAL, unlockingScript: preimagePush(tampered) }],
        outputs,
      );
      expect(interpret(tx), what).toMatchObject(failsSignature);
    }
    // Bytes in front shift nothing the lock reads from the end, but the hash is another.
    const longer = assemble(
      [{ sourceTransaction: source, sourceOutputIndex: 0, sequence: FINAL, unlockingScript: preimagePush([0, ...preimage]) }],
      outputs,
    );
    expect(interpret(longer)).toMatchObject({ valid: false });
    // The honest push still passes (the tampering, not the assembling, is refused).
    const same = assemble(
      [{ sourceTransaction: source, sourceOutputIndex: 0, sequence: FINAL, unlockingScript: preimagePush(preimage) }],
      outputs,
    );
    expect(interpret(same)).toEqual({ valid: true });
  });

  it("refuses another input's preimage: another covenant output's with the same outputs, and in a two-input spend the other input's", async () => {
    // Output 1's spend, same lock and outputs: its preimage passes the one-input and outputs checks, not the signature.
    const other = await spend(source, 1, outputs);
    const theirs = outputCovenantPreimage(other, 0, 50_200, lock);
    const tx = assemble(
      [{ sourceTransaction: source, sourceOutputIndex: 0, sequence: FINAL, unlockingScript: preimagePush(theirs) }],
      outputs,
    );
    expect(interpret(tx)).toMatchObject(failsSignature);

    // Both outputs in one spend, each input pushing the other's preimage.
    const both = assemble(
      [
        { sourceTransaction: source, sourceOutputIndex: 0, sequence: FINAL, unlockingScript: new UnlockingScript() },
        { sourceTransaction: source, sourceOutputIndex: 1, sequence: FINAL, unlockingScript: new UnlockingScript() },
      ],
      outputs,
    );
    const preimages = [0, 1].map((index) => outputCovenantPreimage(both, index, 50_200, lock));
    both.inputs[0]!.unlockingScript = preimagePush(preimages[1]!);
    both.inputs[1]!.unlockingScript = preimagePush(preimages[0]!);
    expect(interpret(both, 0)).toMatchObject(failsOneInput(lock));
    expect(interpret(both, 1)).toMatchObject(failsOneInput(lock));
  });

  it('refuses two covenants with the same outputs spent together (their outputs paid once, the other value lost to fees)', async () => {
    const both = new Transaction();
    for (const vout of [0, 1])
      both.addInput({
        sourceTransaction: source,
        sourceOutputIndex: vout,
        unlockingScriptTemplate: outputCovenantUnlock(),
        sequence: FINAL,
      });
    for (const output of outputs) both.addOutput(output);
    await both.sign();
    expect(interpret(both, 0)).toMatchObject(failsOneInput(lock));
    expect(interpret(both, 1)).toMatchObject(failsOneInput(lock));
    expect(chainCheck(both)).toMatchObject({ index: 0 });
  });

  it('refuses a spend with another input added, as for fees (the outputs are fixed, so the covenant pays its own fee)', async () => {
    const tx = new Transaction();
    tx.addInput({ sourceTransaction: source, sourceOutputIndex: 0, unlockingScriptTemplate: outputCovenantUnlock(), sequence: FINAL });
    tx.addInput({ sourceTXID: randomTxid(), sourceOutputIndex: 0, unlockingScript: new UnlockingScript(), sequence: FINAL });
    for (const output of outputs) tx.addOutput(output);
    await tx.sign();
    expect(interpret(tx, 0)).toMatchObject(failsOneInput(lock));
  });

  it('refuses an empty unlocking script; a push before the preimage is refused in version 1 (clean stack), left below in version 2', async () => {
    const empty = assemble(
      [{ sourceTransaction: source, sourceOutputIndex: 0, sequence: FINAL, unlockingScript: new UnlockingScript() }],
      outputs,
    );
    expect(interpret(empty)).toMatchObject({ valid: false, message: 'OP_DUP requires at least one item to be on the stack.', pc: 0 });
    for (const version of [1, 2]) {
      const tx = await spend(source, 0, outputs, { version });
      const preimage = outputCovenantPreimage(tx, 0, 50_200, lock);
      const unlockingScript = (new UnlockingScript().writeBin([0x42]) as UnlockingScript).writeBin(preimage) as UnlockingScript;
      const extra = assemble([{ sourceTransaction: source, sourceOutputIndex: 0, sequence: FINAL, unlockingScript }], outputs, { version });
      // The lock reads only the top item; the item below changes nothing it checks, and version 2 lifts the clean stack rule.
      expect(interpret(extra)).toMatchObject(
        version === 1 ? { valid: false, message: expect.stringMatching(/clean stack/) } : { valid: true },
      );
    }
  });

  it('accepts 60 spends with random amounts, versions and lock times: s above n/2 (made low) and below, of every shape met', async () => {
    const seen = { high: 0, low: 0, shapes: new Map<string, number>() };
    for (let i = 0; i < 60; i++) {
      const share = randomInt(1, 100_000);
      const rest = randomInt(1, 5_000_000);
      const fixed = split(share, rest);
      const covenant = outputCovenantLock(fixed);
      const value = share + rest + randomInt(0, 1_000);
      const coinSource = fakeSource([{ satoshis: value, lockingScript: covenant }]);
      const tx = await spend(coinSource, 0, fixed, { version: randomInt(1, 2), lockTime: randomInt(0, 499_999_999) });
      const { s, der } = covenantS(outputCovenantPreimage(tx, 0, value, covenant));
      if (s > HALF_N) seen.high++;
      else seen.low++;
      seen.shapes.set(shapeOf(der), (seen.shapes.get(shapeOf(der)) ?? 0) + 1);
      expect(interpret(tx), `spend ${i}`).toEqual({ valid: true });
      // And one satoshi more to the referrer is refused.
      const changed = [
        { ...fixed[0]!, satoshis: share + 1 },
        { ...fixed[1]!, satoshis: rest - 1 },
      ];
      if (rest > 1) expect(interpret(await spend(coinSource, 0, changed)).valid).toBe(false);
    }
    expect(seen.high).toBeGreaterThan(0);
    expect(seen.low).toBeGreaterThan(0);
    expect(seen.shapes.get('32 bytes')).toBeGreaterThan(0);
  });

  it('accepts spends whose s is shorter than 32 bytes or needs a 0x00 in front (found by trying lock times), in version 1 and 2', async () => {
    for (const version of [1, 2]) {
      for (const shape of RARE_SHAPES) {
        const tx = await spendWithS(source, 0, outputs, shape, version);
        expect(tx.version).toBe(version);
        expect(interpret(tx), `version ${version}, s of ${shape}`).toEqual({ valid: true });
      }
    }
  });
});

describe('covenant spends on the local chain', () => {
  let chain: TestChain;
  beforeAll(async () => {
    chain = await startTestChain();
  });
  afterAll(() => chain.close());

  /** A faucet-funded wallet pays these covenant outputs (change back to it); broadcast, so the chain holds them. */
  async function fundCovenants(covenants: { satoshis: number; lockingScript: LockingScript }[]): Promise<Transaction> {
    const total = covenants.reduce((sum, covenant) => sum + covenant.satoshis, 0);
    const payer = await fundedWallet(chain, total + 10_000);
    const tx = new Transaction();
    tx.addInput({ sourceTransaction: payer.source, sourceOutputIndex: payer.vout, unlockingScriptTemplate: new P2PKH().unlock(payer.key) });
    for (const covenant of covenants) tx.addOutput(covenant);
    tx.addOutput({ satoshis: 9_000, lockingScript: p2pkh(payer) });
    await tx.sign();
    await chain.client.broadcast(tx);
    return tx;
  }

  it('mines a spend with exactly the fixed outputs, after refusing each altered one (461)', async () => {
    const outputs = split(1_500, 28_500);
    const lock = outputCovenantLock(outputs);
    const funding = await fundCovenants([{ satoshis: 30_100, lockingScript: lock }]);
    const [referrer, merchant] = outputs as [CovenantOutput, CovenantOutput];

    const altered: CovenantOutput[][] = [
      [{ ...merchant, satoshis: 30_000 }],
      [{ ...referrer, satoshis: 1_499 }, merchant],
      [{ ...referrer, lockingScript: p2pkh() }, merchant],
      [referrer, merchant, { satoshis: 50, lockingScript: p2pkh() }],
      [merchant, referrer],
    ];
    for (const changed of altered) {
      const tx = await spend(funding, 0, changed);
      const error = await rejection(chain.client.broadcast(tx));
      expect(error).toMatchObject({ code: 'chain_rejected', details: { arc_status: 461, txid: tx.id('hex') } });
      expect(String(error.details!.extra_info)).toMatch(
        /^input 0: Script evaluation error: OP_EQUALVERIFY requires the top two stack items to be equal/,
      );
      expect(String(error.details!.extra_info)).toContain(`Context: LockingScript, PC: ${equalVerifies(lock)[1]}`);
    }
    // A forged preimage (the fixed outputs' hash, another transaction's outputs) and a tampered one.
    const honest = await spend(funding, 0, outputs);
    const preimage = outputCovenantPreimage(honest, 0, 30_100, lock);
    const forged = assemble(
      [{ sourceTransaction: funding, sourceOutputIndex: 0, sequence: FINAL, unlockingScript: preimagePush(preimage) }],
      [{ ...merchant, satoshis: 30_000 }],
    );
    const tampered = assemble(
      [
        {
          sourceTransaction: funding,
          sourceOutputIndex: 0,
          sequence: FINAL,
          unlockingScript: preimagePush([...preimage.slice(0, -5), 1, ...preimage.slice(-4)]),
        },
      ],
      outputs,
    );
    for (const tx of [forged, tampered]) {
      const error = await rejection(chain.client.broadcast(tx));
      expect(error).toMatchObject({ code: 'chain_rejected', details: { arc_status: 461 } });
      expect(String(error.details!.extra_info)).toMatch(
        /^input 0: Script evaluation error: The top stack element must be truthy after script evaluation/,
      );
    }

    // Anyone may broadcast the honest spend: no key, only the preimage.
    expect(await chain.client.broadcast(honest)).toMatchObject({ txid: honest.id('hex'), state: 'seen' });
    const { height } = await mineBlocks(chain.running.url);
    expect(await chain.client.getStatus(honest.id('hex'))).toMatchObject({ state: 'mined', blockHeight: height });
    const paid = await chain.client.getTransaction(honest.id('hex'));
    expect(paid!.tx.outputs.map((output) => [output.satoshis, output.lockingScript.toHex()])).toEqual(
      outputs.map((output) => [output.satoshis, output.lockingScript.toHex()]),
    );
  });

  it('refuses two covenants with the same outputs spent in one transaction, then mines each spent alone', async () => {
    const outputs = split(700, 9_300);
    const lock = outputCovenantLock(outputs);
    const funding = await fundCovenants([
      { satoshis: 10_050, lockingScript: lock },
      { satoshis: 10_050, lockingScript: lock },
    ]);
    const both = new Transaction();
    for (const vout of [0, 1])
      both.addInput({
        sourceTransaction: funding,
        sourceOutputIndex: vout,
        unlockingScriptTemplate: outputCovenantUnlock(),
        sequence: FINAL,
      });
    for (const output of outputs) both.addOutput(output);
    await both.sign();
    expect((await rejection(chain.client.broadcast(both))).details).toMatchObject({ arc_status: 461 });

    const spends = [await spend(funding, 0, outputs), await spend(funding, 1, outputs, { version: 2 })];
    for (const tx of spends) await chain.client.broadcast(tx);
    await mineBlocks(chain.running.url);
    for (const tx of spends) expect(await chain.client.getStatus(tx.id('hex'))).toMatchObject({ state: 'mined' });
  });

  it('mines 60 spends of covenants with random amounts, and ones with s of each rare shape', async () => {
    const fixedLists = Array.from({ length: 60 }, () => split(randomInt(1, 50_000), randomInt(1, 500_000)));
    const values = fixedLists.map((fixed) => fixed[0]!.satoshis + fixed[1]!.satoshis + randomInt(1, 500));
    const funding = await fundCovenants(fixedLists.map((fixed, i) => ({ satoshis: values[i]!, lockingScript: outputCovenantLock(fixed) })));
    await mineBlocks(chain.running.url);

    const spends: Transaction[] = [];
    let high = 0;
    for (const [vout, fixed] of fixedLists.entries()) {
      const tx = await spend(funding, vout, fixed, { version: vout % 2 === 0 ? 1 : 2, lockTime: randomInt(0, 1_000_000) });
      if (covenantS(outputCovenantPreimage(tx, 0, values[vout]!, funding.outputs[vout]!.lockingScript)).s > HALF_N) high++;
      expect(await chain.client.broadcast(tx), `spend ${vout}`).toMatchObject({ state: 'seen' });
      spends.push(tx);
    }
    expect(high).toBeGreaterThan(0);
    expect(high).toBeLessThan(60);

    const short = split(3_000, 7_000);
    const shortLock = outputCovenantLock(short);
    const shortFunding = await fundCovenants(RARE_SHAPES.map(() => ({ satoshis: 10_010, lockingScript: shortLock })));
    for (const [vout, shape] of RARE_SHAPES.entries()) {
      const tx = await spendWithS(shortFunding, vout, short, shape, vout % 2 === 0 ? 1 : 2);
      expect(await chain.client.broadcast(tx), `s of ${shape}`).toMatchObject({ state: 'seen' });
      spends.push(tx);
    }

    const { height } = await mineBlocks(chain.running.url);
    for (const tx of spends) expect(await chain.client.getStatus(tx.id('hex'))).toMatchObject({ state: 'mined', blockHeight: height });
  });
});

function randomInt(min: number, max: number): number {
  return min + Math.floor(Math.random() * (max - min + 1));
}
