import { Beef, type BeefTx, type ChainTracker, type MerklePath, type Transaction } from '@bsv/sdk';
import { AppError, MAX_SATOSHIS } from '@ctk/shared';
import { BoundedReader } from './bounded-reader.js';
import { checkInputScripts, type ScriptChecks, type SpentCoin } from './check-input-scripts.js';

export type VerifiedBeef = {
  /** The subject: the Atomic BEEF's txid, else the BEEF's last transaction. */
  txid: string;
  /** The subject, its inputs' source transactions (and their merkle paths) linked from the BEEF. */
  tx: Transaction;
  beef: Beef;
};

type Proof = { height: number; root: string; txid: string };

/**
 * SPV for a submitted BEEF (BRC-62, or Atomic BEEF, BRC-95): the subject proves itself down to transactions
 * mined in blocks of the chain `chainTracker` follows. Walking the subject's ancestors in the BEEF, a
 * transaction with a merkle path must lead to the merkle root of the block at the path's height
 * (`isValidRootForHeight`); one without must carry every parent, spend outputs that exist, pay out no more
 * than it spends, and pass `checkInputScripts`. Transactions the subject does not depend on are ignored.
 * Malformed bytes are `validation_failed` (field `transaction`); a BEEF that does not prove its subject is
 * `payment_invalid`, naming the transaction at fault. Whether the outputs are unspent is not known here:
 * that is the chain's to say when the subject is broadcast.
 */
export async function verifyBeef(
  beef: Uint8Array,
  chainTracker: ChainTracker,
  options: { scriptChecks?: ScriptChecks } = {},
): Promise<VerifiedBeef> {
  const parsed = parseBeef(beef);
  const subject = subjectOf(parsed);
  const proofs = checkAncestry(parsed, subject, options.scriptChecks);
  await checkRoots(proofs, chainTracker, subject);
  return { txid: subject, tx: parsed.findAtomicTransaction(subject)!, beef: parsed };
}

function malformed(message: string): AppError {
  return new AppError('validation_failed', `The transaction is not a BEEF: ${message}.`, { field: 'transaction' });
}

function invalid(message: string, details: Record<string, unknown>): AppError {
  return new AppError('payment_invalid', message, details);
}

function parseBeef(bytes: Uint8Array): Beef {
  if (!(bytes instanceof Uint8Array)) throw malformed('expected bytes');
  const reader = new BoundedReader(bytes);
  let beef: Beef;
  try {
    beef = Beef.fromReader(reader);
  } catch (error) {
    throw malformed(error instanceof Error ? error.message : String(error));
  }
  // The SDK's reader does not stop at the end of the bytes: only a reader that ends exactly there read a whole BEEF.
  if (reader.pos !== bytes.length) throw malformed(reader.pos > bytes.length ? 'it is cut short' : 'bytes are left over after it');
  return beef;
}

function subjectOf(beef: Beef): string {
  const txid = beef.atomicTxid ?? beef.txs[beef.txs.length - 1]?.txid;
  if (!txid) throw malformed('it holds no transaction');
  if (!beef.txs.some((entry) => entry.txid === txid && entry.tx)) {
    throw malformed(
      beef.atomicTxid ? `the Atomic BEEF names ${txid} but does not hold that transaction` : `its last entry ${txid} is a txid only`,
    );
  }
  return txid;
}

/** Checks the subject and its unmined ancestors; returns the merkle roots that the chain must confirm. */
function checkAncestry(beef: Beef, subject: string, scriptChecks: ScriptChecks | undefined): Proof[] {
  const entries = new Map<string, BeefTx>();
  for (const entry of beef.txs) if (entry.tx || !entries.has(entry.txid)) entries.set(entry.txid, entry);
  const proofs: Proof[] = [];
  const spent = new Map<string, string>();
  const seen = new Set<string>([subject]);
  const pending = [subject];
  while (pending.length > 0) {
    const txid = pending.pop()!;
    const entry = entries.get(txid)!;
    const bump = entry.bumpIndex !== undefined ? beef.bumps[entry.bumpIndex] : beef.findBump(txid);
    if (entry.bumpIndex !== undefined && !bump) throw malformed(`${txid} refers to merkle path ${entry.bumpIndex}, which it does not hold`);
    if (bump) {
      // 64 bytes is the size of an inner node of a merkle tree: such a "transaction" could be proven with a
      // path that stops short (CVE-2017-12842). No real payment is that small.
      if (entry.tx?.toBinary().length === 64)
        throw invalid(`Transaction ${txid} is 64 bytes long, which a merkle path cannot prove.`, { txid, subject });
      proofs.push(proofOf(bump, txid, subject));
      continue;
    }
    if (!entry.tx) {
      throw invalid(
        `Transaction ${txid} is in the BEEF by txid only, without a merkle path: give the transaction, or its merkle path if it is mined.`,
        {
          txid,
          subject,
        },
      );
    }
    if (entry.tx.inputs.length === 0 || entry.tx.outputs.length === 0) {
      throw invalid(`Transaction ${txid} has no inputs or no outputs, and no merkle path.`, { txid, subject });
    }
    const coins = coinsOf(entry.tx, txid, subject, entries, spent);
    checkAmounts(entry.tx, coins, txid, subject);
    const failure = checkInputScripts(entry.tx, coins, { scriptChecks });
    if (failure) {
      throw invalid(`Input ${failure.index} of transaction ${txid} fails its script: ${failure.reason}.`, {
        txid,
        subject,
        input: failure.index,
        reason: failure.reason,
      });
    }
    for (const input of entry.tx.inputs) {
      if (!seen.has(input.sourceTXID!)) {
        seen.add(input.sourceTXID!);
        pending.push(input.sourceTXID!);
      }
    }
  }
  return proofs;
}

function proofOf(bump: MerklePath, txid: string, subject: string): Proof {
  try {
    return { height: bump.blockHeight, root: bump.computeRoot(txid), txid };
  } catch (error) {
    throw invalid(
      `The merkle path of transaction ${txid} does not lead from it to a root: ${error instanceof Error ? error.message : String(error)}.`,
      {
        txid,
        subject,
        block_height: bump.blockHeight,
      },
    );
  }
}

/** The outputs a transaction spends, from its parents in the BEEF; each spent once in the whole ancestry. */
function coinsOf(tx: Transaction, txid: string, subject: string, entries: Map<string, BeefTx>, spent: Map<string, string>): SpentCoin[] {
  return tx.inputs.map((input, index) => {
    const parentTxid = input.sourceTXID!;
    const outpoint = `${parentTxid}:${input.sourceOutputIndex}`;
    const parent = entries.get(parentTxid);
    if (!parent?.tx) {
      throw invalid(
        `Input ${index} of transaction ${txid} spends ${outpoint}, and the BEEF does not carry transaction ${parentTxid}: a BEEF carries every unmined ancestor, and each mined one with its merkle path.`,
        { txid, subject, input: index, missing: parentTxid },
      );
    }
    const output = parent.tx.outputs[input.sourceOutputIndex];
    if (!output) {
      throw invalid(`Input ${index} of transaction ${txid} spends ${outpoint}, an output that does not exist.`, {
        txid,
        subject,
        input: index,
      });
    }
    const spender = spent.get(outpoint);
    if (spender) {
      throw invalid(`Transactions ${spender} and ${txid} in the BEEF both spend ${outpoint}.`, {
        txid,
        subject,
        input: index,
        competing_txid: spender,
      });
    }
    spent.set(outpoint, txid);
    return { satoshis: output.satoshis ?? 0, lockingScript: output.lockingScript };
  });
}

function checkAmounts(tx: Transaction, coins: SpentCoin[], txid: string, subject: string): void {
  const inputs = coins.reduce((sum, coin) => sum + coin.satoshis, 0);
  const bad = tx.outputs.findIndex(
    (output) => !Number.isSafeInteger(output.satoshis) || output.satoshis! < 0 || output.satoshis! > MAX_SATOSHIS,
  );
  if (bad >= 0)
    throw invalid(`Output ${bad} of transaction ${txid} pays ${tx.outputs[bad]!.satoshis} satoshis, outside 0 to ${MAX_SATOSHIS}.`, {
      txid,
      subject,
    });
  const outputs = tx.outputs.reduce((sum, output) => sum + output.satoshis!, 0);
  if (outputs > inputs) {
    throw invalid(`Transaction ${txid} pays out ${outputs} satoshis but spends only ${inputs}.`, { txid, subject, inputs, outputs });
  }
}

/** One question to the chain per block, asked together. */
async function checkRoots(proofs: Proof[], chainTracker: ChainTracker, subject: string): Promise<void> {
  const byBlock = new Map<string, Proof>();
  for (const proof of proofs) byBlock.set(`${proof.height}:${proof.root}`, proof);
  const answers = await Promise.all(
    [...byBlock.values()].map(async (proof) => ({ proof, ok: await chainTracker.isValidRootForHeight(proof.root, proof.height) })),
  );
  const refused = answers.find((answer) => !answer.ok);
  if (refused) {
    const { txid, height, root } = refused.proof;
    throw invalid(
      `The merkle path of transaction ${txid} leads to root ${root}, which is not the merkle root of block ${height} of this chain.`,
      {
        txid,
        subject,
        block_height: height,
        merkle_root: root,
      },
    );
  }
}
