import { createRequire } from 'node:module';
import { Hash, LockingScript, OP, Transaction, TransactionSignature, UnlockingScript, type TransactionOutput } from '@bsv/sdk';
import type { SpentCoin } from '../src/index.js';

// Seeded transactions for the differential test of the fast script check: valid P2PKH spends and the ways
// one goes wrong. Signatures are made with libsecp256k1 over digests from the SDK's own sighash routine, so
// thousands of cases stay fast; whether they are right is for the SDK's interpreter, the oracle, to say.

type NativeSecp = {
  ecdsaSign(msg32: Uint8Array, seckey: Uint8Array): { signature: Uint8Array };
  signatureExport(sig: Uint8Array): Uint8Array;
  publicKeyCreate(seckey: Uint8Array, compressed?: boolean): Uint8Array;
  publicKeyVerify(pubkey: Uint8Array): boolean;
};
const require = createRequire(import.meta.url);
const secp = require('secp256k1/bindings') as NativeSecp;

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const { SIGHASH_ALL, SIGHASH_NONE, SIGHASH_SINGLE, SIGHASH_FORKID, SIGHASH_ANYONECANPAY, SIGHASH_CHRONICLE } = TransactionSignature;
const SCOPES = [SIGHASH_ALL, SIGHASH_NONE, SIGHASH_SINGLE].flatMap((base) => [
  base | SIGHASH_FORKID,
  base | SIGHASH_FORKID | SIGHASH_ANYONECANPAY,
]);

/** mulberry32: small, fast and the same everywhere, so a seed names a case. */
export class Rng {
  constructor(private state: number) {}
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  bytes(n: number): number[] {
    return Array.from({ length: n }, () => this.int(0, 255));
  }
}

type Key = { secret: Uint8Array; compressed: number[]; uncompressed: number[] };

export function makeKeys(rng: Rng, count: number): Key[] {
  return Array.from({ length: count }, () => {
    const secret = Uint8Array.from(rng.bytes(32));
    secret[0] = (secret[0]! & 0x7f) | 0x01; // below the curve order, never zero
    return {
      secret,
      compressed: Array.from(secp.publicKeyCreate(secret, true)),
      uncompressed: Array.from(secp.publicKeyCreate(secret, false)),
    };
  });
}

export type ScriptCase = {
  kind: string;
  tx: Transaction;
  coins: SpentCoin[];
  /** Per input, the interpreter's verdict where the rules make it plain (undefined: whatever it says). */
  expected: (boolean | undefined)[];
  /** Per input, whether the fast path must decide it itself rather than hand it to the interpreter. */
  decides: boolean[];
};

type Draft = {
  rng: Rng;
  keys: Key[];
  version: number;
  inputs: { sourceTXID: string; sourceOutputIndex: number; sequence: number; unlockingScript?: UnlockingScript }[];
  outputs: TransactionOutput[];
  lockTime: number;
  coins: SpentCoin[];
  signers: { key: Key; uncompressed: boolean; scope: number }[];
  expected: (boolean | undefined)[];
  decides: boolean[];
  target: number;
};

type Mutation = {
  kind: string;
  /** Before signing: scripts, keys, scopes. */
  before?(draft: Draft): void;
  /** After signing: the bytes of the unlocking scripts, outputs, order. */
  after?(draft: Draft): void;
  /** Signs the target input itself instead of the standard signer. */
  signTarget?(draft: Draft): void;
};

const p2pkhLock = (hash: number[]) =>
  new LockingScript([{ op: OP.OP_DUP }, { op: OP.OP_HASH160 }, { op: 20, data: hash }, { op: OP.OP_EQUALVERIFY }, { op: OP.OP_CHECKSIG }]);

/** The minimal push of `data`, as a script chunk. */
export function push(data: number[]) {
  if (data.length === 0) return { op: OP.OP_0 };
  if (data.length <= 75) return { op: data.length, data };
  if (data.length <= 255) return { op: OP.OP_PUSHDATA1, data };
  return { op: OP.OP_PUSHDATA2, data };
}

const pubkeyOf = (draft: Draft, index: number) => {
  const { key, uncompressed } = draft.signers[index]!;
  return uncompressed ? key.uncompressed : key.compressed;
};

/** The digest `Spend` checks a signature of `scope` against, for input `index` spending `coin`. */
function digestOf(draft: Draft, index: number, scope: number, bip143 = false): Uint8Array {
  const input = draft.inputs[index]!;
  const params = {
    sourceTXID: input.sourceTXID,
    sourceOutputIndex: input.sourceOutputIndex,
    sourceSatoshis: draft.coins[index]!.satoshis,
    transactionVersion: draft.version,
    otherInputs: draft.inputs.filter((_, other) => other !== index),
    outputs: draft.outputs,
    inputIndex: index,
    subscript: draft.coins[index]!.lockingScript,
    inputSequence: input.sequence,
    lockTime: draft.lockTime,
    scope,
  };
  if (bip143) return Uint8Array.from(Hash.hash256(Array.from(TransactionSignature.formatBip143(params))));
  if (TransactionSignature.usesOtdaSingleBug(params)) return Uint8Array.from([1, ...new Array<number>(31).fill(0)]);
  return Uint8Array.from(Hash.hash256(Array.from(TransactionSignature.formatBytes(params))));
}

/** A low-S DER signature of `digest` by `key`, with the sighash byte. */
function sign(digest: Uint8Array, key: Key, scope: number): number[] {
  return [...secp.signatureExport(secp.ecdsaSign(digest, key.secret).signature), scope];
}

function derInt(value: bigint): number[] {
  const hex = value.toString(16);
  const bytes = Array.from(Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex'));
  return bytes[0]! & 0x80 ? [0, ...bytes] : bytes;
}

function derSignature(r: bigint, s: bigint, scope: number): number[] {
  const rb = derInt(r);
  const sb = derInt(s);
  return [0x30, rb.length + sb.length + 4, 0x02, rb.length, ...rb, 0x02, sb.length, ...sb, scope];
}

function splitSignature(sig: number[]): { r: bigint; s: bigint; scope: number } {
  const rLen = sig[3]!;
  const r = BigInt(`0x${Buffer.from(sig.slice(4, 4 + rLen)).toString('hex')}`);
  const sLen = sig[5 + rLen]!;
  const s = BigInt(`0x${Buffer.from(sig.slice(6 + rLen, 6 + rLen + sLen)).toString('hex')}`);
  return { r, s, scope: sig[sig.length - 1]! };
}

const unlockChunks = (draft: Draft, index: number) => draft.inputs[index]!.unlockingScript!.chunks;
const setUnlock = (draft: Draft, index: number, chunks: UnlockingScript['chunks']) => {
  draft.inputs[index]!.unlockingScript = new UnlockingScript(chunks);
};
const sigOf = (draft: Draft, index: number) => unlockChunks(draft, index)[0]!.data ?? [];
const withSig = (draft: Draft, index: number, sig: number[]) => setUnlock(draft, index, [push(sig), unlockChunks(draft, index)[1]!]);
const fails = (draft: Draft, decides = true) => {
  draft.expected[draft.target] = false;
  draft.decides[draft.target] = decides;
};
const byVersion = (draft: Draft, decides: boolean) => {
  // Version 2 and later relax low S, minimal pushes and the clean stack, as @bsv/sdk's interpreter does.
  draft.expected[draft.target] = draft.version > 1;
  draft.decides[draft.target] = decides;
};
const notPlain = (draft: Draft) => {
  draft.decides[draft.target] = false;
};

const MUTATIONS: { weight: number; mutation: Mutation }[] = [
  { weight: 30, mutation: { kind: 'valid' } },
  {
    weight: 5,
    mutation: {
      kind: 'signed by the wrong key',
      signTarget: (d) => {
        const other = d.keys.find((key) => key !== d.signers[d.target]!.key)!;
        const { scope } = d.signers[d.target]!;
        setUnlock(d, d.target, [push(sign(digestOf(d, d.target, scope), other, scope)), push(pubkeyOf(d, d.target))]);
        fails(d);
      },
    },
  },
  {
    weight: 3,
    mutation: {
      kind: "another key and that key's public key",
      signTarget: (d) => {
        const other = d.keys.find((key) => key !== d.signers[d.target]!.key)!;
        const { scope } = d.signers[d.target]!;
        setUnlock(d, d.target, [push(sign(digestOf(d, d.target, scope), other, scope)), push(other.compressed)]);
        fails(d);
      },
    },
  },
  {
    weight: 6,
    mutation: {
      kind: 'a flipped signature bit',
      after: (d) => {
        const sig = [...sigOf(d, d.target)];
        const at = d.rng.int(0, sig.length - 1);
        sig[at] = sig[at]! ^ (1 << d.rng.int(0, 7));
        withSig(d, d.target, sig);
        // A flip in the sighash byte can drop FORKID, which the interpreter alone judges.
        fails(d, false);
      },
    },
  },
  {
    weight: 4,
    mutation: {
      kind: 'high S',
      after: (d) => {
        const { r, s, scope } = splitSignature(sigOf(d, d.target));
        withSig(d, d.target, derSignature(r, N - s, scope));
        byVersion(d, true);
      },
    },
  },
  {
    weight: 6,
    mutation: {
      kind: 'not strict DER',
      after: (d) => {
        const sig = sigOf(d, d.target);
        const { r, s, scope } = splitSignature(sig);
        const variants: (() => number[])[] = [
          () => [0x30, sig[1]! + 1, 0x02, sig[3]! + 1, 0x00, ...sig.slice(4)], // r padded with a zero it does not need
          () => [0x30, sig[1]! + 1, ...sig.slice(2, -1), 0x00, scope], // a byte after s
          () => [0x30, sig[1]! - 1, ...sig.slice(2)], // the sequence length one short
          () => [0x31, ...sig.slice(1)], // not a sequence
          () => [0x30, sig[1]!, 0x03, ...sig.slice(3)], // r not an integer
          () => [0x30, 6, 0x02, 1, 0x00, 0x02, 1, 0x01, scope], // r is zero
          () => derSignature(r, s, scope).map((byte, i) => (i === 4 ? byte | 0x80 : byte)), // r negative (or its padding wrong)
          () => sig.slice(0, -2).concat(scope), // cut short
          () => [scope], // the sighash byte alone
          () => [
            0x30,
            0x45,
            0x02,
            0x21,
            0x00,
            ...Array.from({ length: 32 }, () => 0xff),
            0x02,
            0x20,
            ...Array.from({ length: 32 }, () => 0x11),
            scope,
          ], // r beyond n
          () => derSignature(r, s + N, scope), // s beyond n (33 bytes)
        ];
        withSig(d, d.target, d.rng.pick(variants)());
        fails(d);
      },
    },
  },
  {
    weight: 4,
    mutation: {
      kind: 'a wrong sighash byte',
      after: (d) => {
        const sig = [...sigOf(d, d.target)];
        const original = sig[sig.length - 1]!;
        const choices = [0x00, 0x40, 0x44, 0x5f, 0xc0, 0xc4, 0x04, 0xff, ...SCOPES].filter((scope) => scope !== original);
        sig[sig.length - 1] = d.rng.pick(choices);
        withSig(d, d.target, sig);
        fails(d, (sig[sig.length - 1]! & SIGHASH_FORKID) !== 0 && (sig[sig.length - 1]! & SIGHASH_CHRONICLE) === 0);
      },
    },
  },
  {
    weight: 3,
    mutation: {
      kind: 'FORKID missing from a BIP 143 signature',
      signTarget: (d) => {
        const scope = d.signers[d.target]!.scope & ~SIGHASH_FORKID;
        setUnlock(d, d.target, [
          push(sign(digestOf(d, d.target, scope, true), d.signers[d.target]!.key, scope)),
          push(pubkeyOf(d, d.target)),
        ]);
        fails(d, false);
      },
    },
  },
  {
    weight: 2,
    mutation: {
      kind: 'a signature of the original digest (no FORKID)',
      signTarget: (d) => {
        const scope = d.rng.pick([SIGHASH_ALL, SIGHASH_NONE, SIGHASH_SINGLE, SIGHASH_SINGLE | SIGHASH_ANYONECANPAY]);
        setUnlock(d, d.target, [push(sign(digestOf(d, d.target, scope), d.signers[d.target]!.key, scope)), push(pubkeyOf(d, d.target))]);
        d.expected[d.target] = true;
        notPlain(d);
      },
    },
  },
  {
    weight: 2,
    mutation: {
      kind: 'the CHRONICLE sighash bit',
      signTarget: (d) => {
        const scope = d.signers[d.target]!.scope | SIGHASH_CHRONICLE;
        setUnlock(d, d.target, [push(sign(digestOf(d, d.target, scope), d.signers[d.target]!.key, scope)), push(pubkeyOf(d, d.target))]);
        byVersion(d, d.version === 1);
      },
    },
  },
  {
    weight: 4,
    mutation: {
      kind: 'a public key of another hash',
      before: (d) => {
        d.coins[d.target] = { ...d.coins[d.target]!, lockingScript: p2pkhLock(d.rng.bytes(20)) };
        fails(d);
      },
    },
  },
  {
    weight: 3,
    mutation: {
      kind: 'an uncompressed key where the script has the compressed one',
      before: (d) => {
        d.signers[d.target] = { ...d.signers[d.target]!, uncompressed: true };
        d.coins[d.target] = { ...d.coins[d.target]!, lockingScript: p2pkhLock(Hash.hash160(d.signers[d.target]!.key.compressed)) };
        fails(d);
      },
    },
  },
  {
    weight: 3,
    mutation: {
      kind: 'a hybrid (06/07) public key',
      before: (d) => {
        const key = d.signers[d.target]!.key.uncompressed;
        const hybrid = [0x06 | (key[64]! & 1), ...key.slice(1)];
        d.coins[d.target] = { ...d.coins[d.target]!, lockingScript: p2pkhLock(Hash.hash160(hybrid)) };
      },
      after: (d) => {
        const key = d.signers[d.target]!.key.uncompressed;
        setUnlock(d, d.target, [unlockChunks(d, d.target)[0]!, push([0x06 | (key[64]! & 1), ...key.slice(1)])]);
        fails(d);
      },
    },
  },
  {
    weight: 2,
    mutation: {
      kind: 'a public key off the curve',
      before: (d) => {
        let key: number[];
        do key = [0x02, ...d.rng.bytes(32)];
        while (secp.publicKeyVerify(Uint8Array.from(key)));
        d.coins[d.target] = { ...d.coins[d.target]!, lockingScript: p2pkhLock(Hash.hash160(key)) };
        (d as Draft & { offCurve?: number[] }).offCurve = key;
      },
      after: (d) => {
        setUnlock(d, d.target, [unlockChunks(d, d.target)[0]!, push((d as Draft & { offCurve?: number[] }).offCurve!)]);
        fails(d, false);
      },
    },
  },
  {
    weight: 4,
    mutation: {
      kind: 'an extra push',
      after: (d) => {
        const extra = push(d.rng.pick([[1], [0x42, 0x42], d.rng.bytes(20)]));
        const [sig, key] = unlockChunks(d, d.target);
        const first = d.rng.chance(0.5);
        setUnlock(d, d.target, first ? [extra, sig!, key!] : [sig!, key!, extra]);
        // First, it is left on the stack (the clean stack rule, relaxed from version 2); last, it is hashed as the key.
        if (first) byVersion(d, false);
        else fails(d, false);
      },
    },
  },
  {
    weight: 4,
    mutation: {
      kind: 'a push that is not minimal',
      after: (d) => {
        const chunks = [...unlockChunks(d, d.target)];
        const which = d.rng.int(0, 1);
        const data = chunks[which]!.data!;
        chunks[which] = d.rng.chance(0.7) ? { op: OP.OP_PUSHDATA1, data } : { op: OP.OP_PUSHDATA2, data };
        setUnlock(d, d.target, chunks);
        byVersion(d, true);
      },
    },
  },
  {
    weight: 2,
    mutation: {
      kind: 'an empty signature',
      after: (d) => {
        setUnlock(d, d.target, [{ op: OP.OP_0 }, unlockChunks(d, d.target)[1]!]);
        fails(d);
      },
    },
  },
  {
    weight: 6,
    mutation: {
      kind: 'an output amount changed after signing',
      after: (d) => {
        const j = d.rng.int(0, d.outputs.length - 1);
        const output = d.outputs[j]!;
        d.outputs[j] = { ...output, satoshis: output.satoshis! + d.rng.pick([1, 7, 1000, -1]) };
        d.signers.forEach(({ scope }, i) => {
          const base = scope & 0x1f;
          d.expected[i] = !(base === SIGHASH_ALL || (base === SIGHASH_SINGLE && i === j));
          d.decides[i] = true;
        });
      },
    },
  },
  {
    weight: 4,
    mutation: {
      kind: 'inputs swapped after signing',
      after: (d) => {
        if (d.inputs.length < 2) return;
        const a = d.target;
        const b = (a + 1) % d.inputs.length;
        for (const list of [d.inputs, d.coins, d.signers] as unknown[][]) [list[a], list[b]] = [list[b], list[a]];
        d.signers.forEach(({ scope }, i) => {
          const anyoneCanPay = (scope & SIGHASH_ANYONECANPAY) !== 0;
          const single = (scope & 0x1f) === SIGHASH_SINGLE;
          // Without ANYONECANPAY every input signed the order of all; SINGLE also signed its own position.
          d.expected[i] = !anyoneCanPay ? false : (i === a || i === b) && single ? undefined : true;
          d.decides[i] = true;
        });
      },
    },
  },
  {
    weight: 2,
    mutation: {
      kind: 'unlocking scripts swapped after signing',
      after: (d) => {
        if (d.inputs.length < 2) return;
        const a = d.target;
        const b = (a + 1) % d.inputs.length;
        const scriptA = d.inputs[a]!.unlockingScript;
        d.inputs[a]!.unlockingScript = d.inputs[b]!.unlockingScript;
        d.inputs[b]!.unlockingScript = scriptA;
        for (const i of [a, b]) {
          d.expected[i] = false;
          d.decides[i] = true;
        }
      },
    },
  },
  {
    weight: 6,
    mutation: {
      kind: 'a script that is not P2PKH',
      before: (d) => {
        const key = d.signers[d.target]!.key.compressed;
        const hash = Hash.hash160(key);
        const scripts: { lock: LockingScript; unlock: (sig: number[]) => UnlockingScript['chunks']; valid: boolean | 'by version' }[] = [
          { lock: new LockingScript([push(key), { op: OP.OP_CHECKSIG }]), unlock: (sig) => [push(sig)], valid: true },
          { lock: new LockingScript([{ op: OP.OP_1 }]), unlock: () => [], valid: true },
          {
            lock: new LockingScript([...p2pkhLock(hash).chunks, { op: OP.OP_NOP }]),
            unlock: (sig) => [push(sig), push(key)],
            valid: true,
          },
          {
            lock: new LockingScript([{ op: OP.OP_1 }, push(key), { op: OP.OP_1 }, { op: OP.OP_CHECKMULTISIG }]),
            unlock: (sig) => [{ op: OP.OP_0 }, push(sig)],
            valid: true,
          },
          {
            lock: new LockingScript([
              { op: OP.OP_DUP },
              { op: OP.OP_HASH160 },
              { op: OP.OP_PUSHDATA1, data: hash },
              { op: OP.OP_EQUALVERIFY },
              { op: OP.OP_CHECKSIG },
            ]),
            unlock: (sig) => [push(sig), push(key)],
            valid: 'by version',
          },
          { lock: new LockingScript([{ op: OP.OP_FALSE }, { op: OP.OP_RETURN }, push([1, 2, 3])]), unlock: () => [], valid: false },
        ];
        const chosen = d.rng.pick(scripts);
        d.signers[d.target] = { ...d.signers[d.target]!, uncompressed: false };
        d.coins[d.target] = { ...d.coins[d.target]!, lockingScript: chosen.lock };
        (d as Draft & { unlock?: (sig: number[]) => UnlockingScript['chunks'] }).unlock = chosen.unlock;
        d.expected[d.target] = chosen.valid === 'by version' ? d.version > 1 : chosen.valid;
        notPlain(d);
      },
      after: (d) => {
        const sig = sigOf(d, d.target);
        setUnlock(d, d.target, (d as Draft & { unlock?: (sig: number[]) => UnlockingScript['chunks'] }).unlock!(sig));
      },
    },
  },
];

const TOTAL_WEIGHT = MUTATIONS.reduce((sum, entry) => sum + entry.weight, 0);

function pickMutation(rng: Rng): Mutation {
  let roll = rng.next() * TOTAL_WEIGHT;
  for (const entry of MUTATIONS) {
    roll -= entry.weight;
    if (roll < 0) return entry.mutation;
  }
  return MUTATIONS[0]!.mutation;
}

/** One seeded case: a transaction of 1 to 3 P2PKH inputs, mutated one way (or not), round-tripped through its bytes. */
export function makeCase(rng: Rng, keys: Key[]): ScriptCase {
  const version = rng.chance(0.75) ? 1 : 2;
  const count = rng.int(1, 3);
  const signers = Array.from({ length: count }, () => ({ key: rng.pick(keys), uncompressed: rng.chance(0.15), scope: rng.pick(SCOPES) }));
  const draft: Draft = {
    rng,
    keys,
    version,
    inputs: signers.map(() => ({
      sourceTXID: Buffer.from(rng.bytes(32)).toString('hex'),
      sourceOutputIndex: rng.int(0, 3),
      sequence: rng.chance(0.8) ? 0xffffffff : rng.int(0, 0xfffffffe),
    })),
    outputs: Array.from({ length: rng.int(1, 3) }, () => ({ lockingScript: p2pkhLock(rng.bytes(20)), satoshis: rng.int(1, 50_000_000) })),
    lockTime: rng.chance(0.8) ? 0 : rng.int(1, 600_000),
    coins: [],
    signers,
    expected: signers.map(() => true),
    decides: signers.map(() => true),
    target: rng.int(0, count - 1),
  };
  draft.coins = signers.map(({ key, uncompressed }) => ({
    satoshis: rng.int(1, 100_000_000),
    lockingScript: p2pkhLock(Hash.hash160(uncompressed ? key.uncompressed : key.compressed)),
  }));
  const mutation = pickMutation(rng);
  mutation.before?.(draft);
  draft.signers.forEach(({ key, scope }, i) => {
    setUnlock(draft, i, [push(sign(digestOf(draft, i, scope), key, scope)), push(pubkeyOf(draft, i))]);
  });
  mutation.signTarget?.(draft);
  mutation.after?.(draft);
  const built = new Transaction(draft.version, draft.inputs, draft.outputs, draft.lockTime);
  // Parsed back from its bytes, as every transaction the chain or the payment gate sees is.
  const tx = Transaction.fromBinary(built.toBinary());
  const coins = draft.coins.map((coin) => ({
    satoshis: coin.satoshis,
    lockingScript: LockingScript.fromBinary(coin.lockingScript.toBinary()),
  }));
  return { kind: mutation.kind, tx, coins, expected: draft.expected, decides: draft.decides };
}
