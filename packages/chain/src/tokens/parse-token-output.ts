import { LockingScript, Utils } from '@bsv/sdk';
import { readEnvelope, sameBytes } from './inscription-envelope.js';
import { readOwnerLock } from './owner-lock.js';
import { readTokenJson } from './token-json.js';
import { BSV20_CONTENT_TYPE, type TokenOutput } from './token-types.js';

const CONTENT_TYPE = Utils.toArray(BSV20_CONTENT_TYPE, 'utf8') as number[];

/**
 * Reads a BSV-21 token output: the inscription envelope with content type `application/bsv-20` and a
 * deploy+mint or transfer JSON (`p` "bsv-20", `amt` digits without a leading zero up to 2^63 - 1, a
 * transfer's `id` `<txid>_<vout>`), then the owner's P2PKH or cosign lock, and nothing else. Anything else,
 * a BSV-20 (`tick`) token included, is undefined: strict, because a wallet spends and a merchant settles on
 * what this says.
 */
export function parseTokenOutput(lockingScript: LockingScript | string): TokenOutput | undefined {
  let script: LockingScript;
  try {
    script = typeof lockingScript === 'string' ? LockingScript.fromHex(lockingScript) : lockingScript;
  } catch {
    return undefined;
  }
  const envelope = readEnvelope(script.chunks);
  if (!envelope || !sameBytes(envelope.contentType, CONTENT_TYPE)) return undefined;
  const owner = readOwnerLock(envelope.rest);
  const token = owner && readTokenJson(envelope.data);
  if (!owner || !token) return undefined;
  return { ...token, ...owner };
}
