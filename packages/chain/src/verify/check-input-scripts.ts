import { Spend, type LockingScript, type SignatureHashCache, type Transaction } from '@bsv/sdk';
import { judgeSignedInput } from './judge-signed-input.js';
import { loadSecp256k1 } from './load-secp256k1.js';

/** The output an input spends: what its unlocking script must satisfy, and the satoshis its signature covers. */
export type SpentCoin = { satoshis: number; lockingScript: LockingScript };

/**
 * `fast` judges standard P2PKH inputs with libsecp256k1 and everything else with @bsv/sdk's interpreter;
 * `sdk` runs the interpreter on every input (the reference, and the bench's baseline).
 */
export type ScriptChecks = 'fast' | 'sdk';

/** The first input whose unlocking script fails, and why. */
export type ScriptFailure = { index: number; reason: string };

/**
 * Checks every input's unlocking script against the output it spends (`coins[i]` for input i); undefined
 * when all pass. The fast path decides only what it recognises fully (see `judgeSignedInput`: P2PKH and the cosign template, with or without a token's inscription) and reaches
 * the verdict the SDK's `Spend` would; every other input goes to `Spend` as before.
 */
export function checkInputScripts(
  tx: Transaction,
  coins: readonly SpentCoin[],
  options: { scriptChecks?: ScriptChecks } = {},
): ScriptFailure | undefined {
  if (coins.length !== tx.inputs.length) throw new Error(`${tx.inputs.length} inputs but ${coins.length} coins`);
  const secp = options.scriptChecks === 'sdk' ? undefined : loadSecp256k1();
  const cache: SignatureHashCache = { hashOutputsSingle: new Map() };
  for (const [index, input] of tx.inputs.entries()) {
    const coin = coins[index]!;
    if (!input.unlockingScript) return { index, reason: 'it has no unlocking script' };
    const sourceTXID = input.sourceTXID ?? input.sourceTransaction?.id('hex');
    if (!sourceTXID) return { index, reason: 'it names no source transaction' };
    const judged = secp
      ? judgeSignedInput({ tx, index, sourceTXID, sourceSatoshis: coin.satoshis, lockingScript: coin.lockingScript, cache }, secp)
      : { verdict: 'undecided' as const };
    if (judged.verdict === 'invalid') return { index, reason: judged.reason };
    if (judged.verdict === 'undecided') {
      const failure = runInterpreter(tx, index, sourceTXID, coin);
      if (failure) return { index, reason: failure };
    }
  }
  return undefined;
}

/** Which engine `fast` checks signatures with here: libsecp256k1, or the SDK alone when its bindings did not load. */
export function scriptCheckEngine(): 'libsecp256k1' | 'sdk' {
  return loadSecp256k1() ? 'libsecp256k1' : 'sdk';
}

function runInterpreter(tx: Transaction, index: number, sourceTXID: string, coin: SpentCoin): string | undefined {
  const input = tx.inputs[index]!;
  try {
    const spend = new Spend({
      sourceTXID,
      sourceOutputIndex: input.sourceOutputIndex,
      sourceSatoshis: coin.satoshis,
      lockingScript: coin.lockingScript,
      transactionVersion: tx.version,
      otherInputs: tx.inputs.filter((_, other) => other !== index),
      outputs: tx.outputs,
      inputIndex: index,
      unlockingScript: input.unlockingScript!,
      inputSequence: input.sequence ?? 0xffffffff,
      lockTime: tx.lockTime,
    });
    return spend.validate() ? undefined : 'the unlocking script does not satisfy the locking script';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
