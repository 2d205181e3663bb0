import { BigNumber, P2PKH, PrivateKey, Spend, Transaction, TransactionSignature, UnlockingScript, type LockingScript } from '@bsv/sdk';
import { describe, expect, it } from 'vitest';
import { inputSignature, tokenLock } from '../src/index.js';
import { judgeSignedInput } from '../src/verify/judge-signed-input.js';
import { loadSecp256k1 } from '../src/verify/load-secp256k1.js';
import { push, Rng } from './script-cases.js';

const SEED = Number(process.env.SCRIPT_CASES_SEED ?? 20261129);
const CASES = Number(process.env.TOKEN_SCRIPT_CASES ?? 600);
const N = BigInt('0x' + 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');
const { SIGHASH_ALL, SIGHASH_NONE, SIGHASH_SINGLE, SIGHASH_ANYONECANPAY, SIGHASH_FORKID } = TransactionSignature;
const SCOPES = [SIGHASH_ALL, SIGHASH_NONE, SIGHASH_SINGLE, SIGHASH_ALL | SIGHASH_ANYONECANPAY].map((scope) => scope | SIGHASH_FORKID);
const TOKEN_ID = `${'ab'.repeat(32)}_0`;

/** What a case spends: a token output (cosigned or P2PKH, after an inscription) or a plain cosign lock. */
const SHAPES = ['cosigned token', 'token', 'cosign lock'] as const;
/** How its unlocking script is made wrong, if at all. */
const MUTATIONS = [
  'none',
  'none',
  'none',
  'owner signs with another key',
  'cosigner signs with another key',
  'signatures swapped',
  'cosigner signature empty',
  'cosigner signature missing',
  'another owner key',
  'high S',
  'non-minimal push',
  'another sighash than signed',
  'signature over another lock time',
] as const;

/** Mutations of the cosigner's part alone: a token without a cosigner is unmoved by them. */
const COSIGNER_MUTATIONS = new Set<string>([
  'cosigner signs with another key',
  'cosigner signature empty',
  'cosigner signature missing',
  'signature over another lock time',
]);

/** The oracle: @bsv/sdk's interpreter, as the local chain ran every input before the fast path. */
function interpreterAccepts(tx: Transaction, lockingScript: LockingScript, satoshis: number): boolean {
  const input = tx.inputs[0]!;
  try {
    return new Spend({
      sourceTXID: input.sourceTXID!,
      sourceOutputIndex: input.sourceOutputIndex,
      sourceSatoshis: satoshis,
      lockingScript,
      transactionVersion: tx.version,
      otherInputs: [],
      outputs: tx.outputs,
      inputIndex: 0,
      unlockingScript: input.unlockingScript!,
      inputSequence: input.sequence ?? 0xffffffff,
      lockTime: tx.lockTime,
    }).validate();
  } catch {
    return false;
  }
}

function makeCase(rng: Rng) {
  const shape = rng.pick([...SHAPES]);
  const mutation = rng.pick([...MUTATIONS]);
  const owner = PrivateKey.fromRandom();
  const cosigner = PrivateKey.fromRandom();
  const cosigned = shape !== 'token';
  const lockingScript =
    shape === 'cosign lock'
      ? tokenLock({
          ownerAddress: owner.toAddress(),
          inscription: { op: 'transfer', tokenId: TOKEN_ID, amount: 1n },
          cosignerPublicKey: cosigner.toPublicKey().toString(),
        })
      : tokenLock({
          ownerAddress: owner.toAddress(),
          inscription: { op: 'transfer', tokenId: TOKEN_ID, amount: BigInt(rng.int(1, 1_000_000)) },
          cosignerPublicKey: cosigned ? cosigner.toPublicKey().toString() : undefined,
        });
  // A cosign lock without its envelope: the same owner lock, the inscription's eight chunks dropped.
  const spent =
    shape === 'cosign lock' ? new (lockingScript.constructor as typeof LockingScript)(lockingScript.chunks.slice(8)) : lockingScript;
  const satoshis = rng.int(1, 1000);
  const version = rng.chance(0.75) ? 1 : 2;
  const tx = new Transaction(
    version,
    [{ sourceTXID: Buffer.from(rng.bytes(32)).toString('hex'), sourceOutputIndex: rng.int(0, 3), sequence: 0xffffffff }],
    [
      { satoshis: 1, lockingScript: new P2PKH().lock(PrivateKey.fromRandom().toAddress()) },
      { satoshis: rng.int(1, 5000), lockingScript: new P2PKH().lock(owner.toAddress()) },
    ],
  );
  const scope = rng.pick(SCOPES);
  const sign = (key: PrivateKey, withScope = scope, over = tx) =>
    inputSignature({ tx: over, inputIndex: 0, key, sourceSatoshis: satoshis, lockingScript: spent, scope: withScope });
  let ownerSig = sign(mutation === 'owner signs with another key' ? PrivateKey.fromRandom() : owner);
  let cosignerSig = sign(mutation === 'cosigner signs with another key' ? PrivateKey.fromRandom() : cosigner);
  if (mutation === 'high S') {
    const high = (sig: number[]) => {
      const parsed = TransactionSignature.fromChecksigFormat(sig);
      return new TransactionSignature(
        parsed.r,
        new BigNumber((N - BigInt('0x' + parsed.s.toHex())).toString(16), 16),
        parsed.scope,
      ).toChecksigFormat();
    };
    ownerSig = high(ownerSig);
  }
  if (mutation === 'another sighash than signed') ownerSig = [...ownerSig.slice(0, -1), rng.pick(SCOPES.filter((s) => s !== scope))];
  if (mutation === 'signature over another lock time') {
    // Every sighash type signs the transaction's lock time: this signature is of another transaction.
    const other = new Transaction(tx.version, tx.inputs, tx.outputs, tx.lockTime + 1);
    cosignerSig = sign(cosigner, scope, other);
  }
  if (mutation === 'signatures swapped') [ownerSig, cosignerSig] = [cosignerSig, ownerSig];
  const ownerKey = mutation === 'another owner key' ? PrivateKey.fromRandom().toPublicKey().encode(true) : owner.toPublicKey().encode(true);
  const chunks = [push(ownerSig), push(ownerKey as number[])];
  if (cosigned && mutation !== 'cosigner signature missing')
    chunks.unshift(mutation === 'cosigner signature empty' ? push([]) : push(cosignerSig));
  if (mutation === 'non-minimal push') chunks[0] = { op: 0x4c, data: chunks[0]!.data ?? [] };
  tx.inputs[0]!.unlockingScript = new UnlockingScript(chunks);
  // Parsed back from its bytes, as every transaction the chain sees is.
  const parsed = Transaction.fromBinary(tx.toBinary());
  const onlyCosigner = COSIGNER_MUTATIONS.has(mutation) && !cosigned;
  const relaxedAway = (mutation === 'high S' || mutation === 'non-minimal push') && version > 1;
  return {
    shape,
    mutation,
    version,
    tx: parsed,
    lockingScript: spent,
    satoshis,
    expectValid: mutation === 'none' || onlyCosigner || relaxedAway,
  };
}

describe('the fast path judges token and cosign inputs as @bsv/sdk’s interpreter does', () => {
  it(
    `agrees with the interpreter on ${CASES} seeded inputs, and decides every well-formed one itself (seed ${SEED})`,
    { timeout: 120_000 },
    () => {
      const rng = new Rng(SEED);
      const secp = loadSecp256k1()!;
      let decided = 0;
      for (let n = 0; n < CASES; n++) {
        const c = makeCase(rng);
        const where = `case ${n}: ${c.shape}, ${c.mutation}, version ${c.version}`;
        const oracle = interpreterAccepts(c.tx, c.lockingScript, c.satoshis);
        expect(oracle, `${where}: the interpreter`).toBe(c.expectValid);
        const judged = judgeSignedInput(
          {
            tx: c.tx,
            index: 0,
            sourceTXID: c.tx.inputs[0]!.sourceTXID!,
            sourceSatoshis: c.satoshis,
            lockingScript: c.lockingScript,
            cache: { hashOutputsSingle: new Map() },
          },
          secp,
        );
        if (judged.verdict !== 'undecided') {
          decided++;
          expect(judged.verdict === 'valid', `${where}: the fast path (${JSON.stringify(judged)})`).toBe(oracle);
        }
        // A well-formed spend (every push there and minimal) is the fast path's to decide, valid or not.
        if (c.mutation === 'none') expect(judged.verdict, where).toBe('valid');
      }
      expect(decided).toBeGreaterThan(CASES * 0.8);
    },
  );
});
