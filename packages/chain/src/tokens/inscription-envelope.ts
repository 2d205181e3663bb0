import { OP, Utils, type ScriptChunk } from '@bsv/sdk';

const ORD = Utils.toArray('ord', 'utf8') as number[];

/** A push of `data` with the shortest push opcode, as @bsv/sdk's `fromASM` (and so js-1sat-ord) writes it. */
export function pushChunk(data: number[]): ScriptChunk {
  if (data.length < OP.OP_PUSHDATA1) return { op: data.length, data };
  if (data.length <= 0xff) return { op: OP.OP_PUSHDATA1, data };
  if (data.length <= 0xffff) return { op: OP.OP_PUSHDATA2, data };
  return { op: OP.OP_PUSHDATA4, data };
}

/** 1Sat Ordinals' inscription envelope: `OP_0 OP_IF "ord" OP_1 <content type> OP_0 <data> OP_ENDIF`. */
export function envelopeChunks(contentType: string, data: number[]): ScriptChunk[] {
  return [
    { op: OP.OP_0 },
    { op: OP.OP_IF },
    pushChunk(ORD),
    { op: OP.OP_1 },
    pushChunk(Utils.toArray(contentType, 'utf8') as number[]),
    { op: OP.OP_0 },
    pushChunk(data),
    { op: OP.OP_ENDIF },
  ];
}

/**
 * The envelope at the start of a script, exactly in the form above (the content type and data as pushes),
 * and the chunks after it; undefined for anything else.
 */
export function readEnvelope(chunks: readonly ScriptChunk[]): { contentType: number[]; data: number[]; rest: ScriptChunk[] } | undefined {
  if (chunks.length < 8) return undefined;
  const [zero, ifOp, ord, one, contentType, separator, data, endIf] = chunks as [ScriptChunk, ...ScriptChunk[]];
  if (zero.op !== OP.OP_0 || ifOp!.op !== OP.OP_IF || one!.op !== OP.OP_1 || separator!.op !== OP.OP_0 || endIf!.op !== OP.OP_ENDIF)
    return undefined;
  if (!isPush(ord!) || !sameBytes(ord!.data ?? [], ORD) || !isPush(contentType!) || !isPush(data!)) return undefined;
  return { contentType: contentType!.data ?? [], data: data!.data ?? [], rest: chunks.slice(8) };
}

/** A data push the script's bytes did hold (OP_PUSHBYTES_1 to OP_PUSHDATA4), not a small-number opcode. */
export function isPush(chunk: ScriptChunk): boolean {
  return chunk.op > OP.OP_0 && chunk.op <= OP.OP_PUSHDATA4 && chunk.invalidLength !== true && (chunk.data?.length ?? 0) > 0;
}

export function sameBytes(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
