import { Spend, type SignatureHashCache, type Transaction } from '@bsv/sdk';
import { describe, expect, it } from 'vitest';
import { checkInputScripts, scriptCheckEngine, type SpentCoin } from '../src/index.js';
import { judgeSignedInput } from '../src/verify/judge-signed-input.js';
import { loadSecp256k1 } from '../src/verify/load-secp256k1.js';
import { makeCase, makeKeys, Rng } from './script-cases.js';

const SEED = Number(process.env.SCRIPT_CASES_SEED ?? 20261124);
const CASES = Number(process.env.SCRIPT_CASES ?? 3000);

/** The oracle: @bsv/sdk's interpreter on one input, as the local chain ran it before the fast path. */
function interpreterAccepts(tx: Transaction, coins: SpentCoin[], index: number): boolean {
  const input = tx.inputs[index]!;
  try {
    return new Spend({
      sourceTXID: input.sourceTXID!,
      sourceOutputIndex: input.sourceOutputIndex,
      sourceSatoshis: coins[index]!.satoshis,
      lockingScript: coins[index]!.lockingScript,
      transactionVersion: tx.version,
      otherInputs: tx.inputs.filter((_, other) => other !== index),
      outputs: tx.outputs,
      inputIndex: index,
      unlockingScript: input.unlockingScript!,
      inputSequence: input.sequence ?? 0xffffffff,
      lockTime: tx.lockTime,
    }).validate();
  } catch {
    return false;
  }
}

describe('checkInputScripts: the fast P2PKH path reaches the verdict of @bsv/sdk’s interpreter', () => {
  it('checks signatures with libsecp256k1 here', () => {
    expect(scriptCheckEngine()).toBe('libsecp256k1');
  });

  it(`agrees with the interpreter on every input of ${CASES} seeded transactions (seed ${SEED})`, { timeout: 120_000 }, () => {
    const rng = new Rng(SEED);
    const keys = makeKeys(rng, 40);
    const secp = loadSecp256k1()!;
    const tally = new Map<string, { cases: number; decided: number; inputs: number }>();
    for (let n = 0; n < CASES; n++) {
      const c = makeCase(rng, keys);
      const where = `case ${n} (${c.kind}, version ${c.tx.version}; SCRIPT_CASES_SEED=${SEED})`;
      const cache: SignatureHashCache = { hashOutputsSingle: new Map() };
      const oracle = c.tx.inputs.map((_, index) => interpreterAccepts(c.tx, c.coins, index));
      const counts = tally.get(c.kind) ?? { cases: 0, decided: 0, inputs: 0 };
      counts.cases++;
      c.tx.inputs.forEach((input, index) => {
        // The generator's intent, where the rules make it plain, keeps the generator honest.
        if (c.expected[index] !== undefined) expect(oracle[index], `${where}: the interpreter on input ${index}`).toBe(c.expected[index]);
        const judged = judgeSignedInput(
          {
            tx: c.tx,
            index,
            sourceTXID: input.sourceTXID!,
            sourceSatoshis: c.coins[index]!.satoshis,
            lockingScript: c.coins[index]!.lockingScript,
            cache,
          },
          secp,
        );
        counts.inputs++;
        if (judged.verdict !== 'undecided') {
          counts.decided++;
          expect(judged.verdict === 'valid', `${where}: the fast path on input ${index}`).toBe(oracle[index]);
        } else {
          expect(c.decides[index], `${where}: the fast path left input ${index} to the interpreter`).toBe(false);
        }
      });
      const firstFailure = oracle.indexOf(false);
      expect(checkInputScripts(c.tx, c.coins)?.index, `${where}: the first failing input`).toBe(
        firstFailure < 0 ? undefined : firstFailure,
      );
      tally.set(c.kind, counts);
    }
    if (process.env.SCRIPT_CASES_TALLY) console.table(Object.fromEntries(tally));
    // Every kind of case came up, and the fast path judged most inputs itself.
    expect(tally.size).toBeGreaterThanOrEqual(20);
    const totals = [...tally.values()].reduce((sum, t) => ({ decided: sum.decided + t.decided, inputs: sum.inputs + t.inputs }), {
      decided: 0,
      inputs: 0,
    });
    expect(totals.decided / totals.inputs).toBeGreaterThan(0.8);
  });

  it('runs the interpreter on every input when told to (scriptChecks: sdk)', () => {
    const rng = new Rng(SEED + 1);
    const keys = makeKeys(rng, 10);
    for (let n = 0; n < 100; n++) {
      const c = makeCase(rng, keys);
      const firstFailure = c.tx.inputs.findIndex((_, index) => !interpreterAccepts(c.tx, c.coins, index));
      expect(checkInputScripts(c.tx, c.coins, { scriptChecks: 'sdk' })?.index).toBe(firstFailure < 0 ? undefined : firstFailure);
    }
  });
});
