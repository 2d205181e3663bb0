import { LockingScript } from '@bsv/sdk';
import type { CovenantOutput as CovenantOutputMessage } from '@ctk/proto/ctk/contracts/v1/contracts';
import type { CovenantOutput } from '@ctk/chain';

/** A covenant's output as a checkout keeps it (JSON): the script, the address it pays (empty for the receipt), what, and why. */
export type StoredOutput = { script: string; address: string; satoshis: string; description: string };

export function storedOutputsOf(json: unknown): StoredOutput[] {
  return json as StoredOutput[];
}

/** The outputs the covenant fixes, as the script builder takes them. */
export function covenantOutputsOf(outputs: readonly StoredOutput[]): CovenantOutput[] {
  return outputs.map((output) => ({ lockingScript: LockingScript.fromHex(output.script), satoshis: Number(output.satoshis) }));
}

export function covenantOutputMessages(outputs: readonly StoredOutput[]): CovenantOutputMessage[] {
  return outputs.map((output) => ({ ...output, satoshis: BigInt(output.satoshis) }));
}
