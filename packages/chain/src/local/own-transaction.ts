import { Transaction, UnlockingScript, type LockingScript, type PrivateKey } from '@bsv/sdk';
import { pushChunk } from '../tokens/inscription-envelope.js';
import { inputSignature } from '../tokens/input-signature.js';

/** An output the local chain spends itself: P2PKH with one key, or cosign-locked with the owner's and the cosigner's. */
export type OwnInput = {
  coin: { txid: string; vout: number; satoshis: number; lockingScript: LockingScript };
  /** `[key]` for P2PKH; `[owner, cosigner]` for a cosign lock. */
  keys: [PrivateKey] | [PrivateKey, PrivateKey];
};

/** Signature lengths vary by a byte or two: room for that in the fee, per input. */
const SIGNATURE_SLACK_BYTES = 4;

/**
 * A transaction of the chain's own (the stablecoin's deploy, a stablecoin faucet payment): the inputs signed
 * here, synchronously (opening the chain cannot wait for the SDK's asynchronous templates), the outputs, and
 * the rest less the fee back to `change`. The fee meets `minFeeSatsPerKb` for the signed size; undefined when
 * the inputs cannot pay the outputs and the fee.
 */
export function ownTransaction(input: {
  inputs: OwnInput[];
  outputs: Array<{ satoshis: number; lockingScript: LockingScript }>;
  change: LockingScript;
  minFeeSatsPerKb: number;
}): Transaction | undefined {
  const available =
    input.inputs.reduce((sum, { coin }) => sum + coin.satoshis, 0) - input.outputs.reduce((sum, output) => sum + output.satoshis, 0);
  // A new transaction for each try: @bsv/sdk keeps a transaction's serialization once made, so changing an
  // output's satoshis afterwards would leave its bytes and txid behind.
  const build = (change: number) => {
    const tx = new Transaction(
      1,
      input.inputs.map(({ coin }) => ({ sourceTXID: coin.txid, sourceOutputIndex: coin.vout, sequence: 0xffffffff })),
      [...input.outputs, ...(change > 0 ? [{ satoshis: change, lockingScript: input.change }] : [])],
      0,
    );
    sign(tx, input.inputs);
    return tx;
  };
  const size = build(Math.max(available, 1)).toBinary().length + SIGNATURE_SLACK_BYTES * input.inputs.length;
  const fee = Math.max(1, Math.ceil((size * input.minFeeSatsPerKb) / 1000));
  return available < fee ? undefined : build(available - fee);
}

function sign(tx: Transaction, inputs: OwnInput[]): void {
  inputs.forEach(({ coin, keys }, inputIndex) => {
    const signed = { tx, inputIndex, sourceSatoshis: coin.satoshis, lockingScript: coin.lockingScript };
    const [owner, cosigner] = keys;
    const ownerPart = [pushChunk(inputSignature({ ...signed, key: owner })), pushChunk(owner.toPublicKey().encode(true) as number[])];
    tx.inputs[inputIndex]!.unlockingScript = new UnlockingScript(
      cosigner ? [pushChunk(inputSignature({ ...signed, key: cosigner })), ...ownerPart] : ownerPart,
    );
  });
}
