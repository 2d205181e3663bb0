import { hexToBytes } from '../tx-format.js';

/**
 * A transaction in a request body, as ARC takes one: bytes (octet-stream), hex (text/plain), or JSON with the
 * hex under `field` (ARC's `rawTx`, MNEE's cosigner's `rawtx`) or as the whole JSON string. Undefined for
 * anything else.
 */
export function requestTransactionBytes(body: Buffer, contentType: string, field: string): Uint8Array | undefined {
  try {
    if (contentType.startsWith('application/octet-stream')) return body.length > 0 ? new Uint8Array(body) : undefined;
    if (contentType.startsWith('application/json')) {
      const parsed: unknown = JSON.parse(body.toString('utf8'));
      const hex = typeof parsed === 'string' ? parsed : (parsed as Record<string, unknown> | null)?.[field];
      return typeof hex === 'string' && hex.length > 0 ? hexToBytes(hex) : undefined;
    }
    const text = body.toString('utf8').trim();
    return text.length > 0 ? hexToBytes(text) : undefined;
  } catch {
    return undefined;
  }
}
