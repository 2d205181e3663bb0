import { OP, type Script } from '@bsv/sdk';

// Copies of two private helpers of @bsv/sdk 2.1's interpreter (its Spend class), which the fast script
// check must agree with to the byte. Upgrading the SDK means comparing them again; the differential test
// (test/check-input-scripts.test.ts) is what notices a difference.

type Chunk = Script['chunks'][number];

/** Spend's `isChecksigFormatHelper`: the strict DER rules (BIP 66) for a signature followed by its sighash byte. */
export function isChecksigFormat(buf: readonly number[]): boolean {
  if (buf.length < 9 || buf.length > 73) return false;
  if (buf[0] !== 0x30) return false;
  if (buf[1] !== buf.length - 3) return false;
  const rLen = buf[3]!;
  if (buf[2] !== 0x02) return false;
  if (rLen === 0) return false;
  if (5 + rLen >= buf.length) return false;
  const sMarkerOffset = 4 + rLen;
  const sLen = buf[sMarkerOffset + 1]!;
  if (buf[sMarkerOffset] !== 0x02) return false;
  if (sLen === 0) return false;
  if ((buf[4]! & 0x80) !== 0) return false;
  if (rLen > 1 && buf[4] === 0x00 && (buf[5]! & 0x80) === 0) return false;
  const sValueOffset = sMarkerOffset + 2;
  if ((buf[sValueOffset]! & 0x80) !== 0) return false;
  if (sLen > 1 && buf[sValueOffset] === 0x00 && (buf[sValueOffset + 1]! & 0x80) === 0) return false;
  return rLen + sLen + 7 === buf.length;
}

/** Spend's `isChunkMinimalPushHelper`: the shortest push for the data (MINIMALDATA). */
export function isMinimalPush(chunk: Chunk): boolean {
  const { data, op } = chunk;
  if (!Array.isArray(data)) return true;
  if (data.length === 0) return op === OP.OP_0;
  if (data.length === 1 && data[0]! >= 1 && data[0]! <= 16) return op === OP.OP_1 + (data[0]! - 1);
  if (data.length === 1 && data[0] === 0x81) return op === OP.OP_1NEGATE;
  if (data.length <= 75) return op === data.length;
  if (data.length <= 255) return op === OP.OP_PUSHDATA1;
  if (data.length <= 65535) return op === OP.OP_PUSHDATA2;
  return true;
}
