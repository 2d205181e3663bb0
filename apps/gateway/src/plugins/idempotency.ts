import { createHash } from 'node:crypto';
import { AppError, isUniqueViolation } from '@ctk/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PrismaClient } from '../data/prisma.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** A first request that has not finished after this long is taken as abandoned (its process died). */
const ABANDONED_AFTER_MS = 60_000;
/** Keys are remembered this long, like Stripe's; an older record is replaced by a new request. */
const EXPIRES_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * `Idempotency-Key` on POSTs that create something: the first response for a (caller, key) is stored
 * and replayed to retries with the same body; a different body is a 422; a retry that arrives while
 * the first is still running is a 409. 5xx answers are not stored, so the client can retry.
 * Returns true when it answered the request itself (a replay).
 */
export async function beginIdempotent(prisma: PrismaClient, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const key = request.headers[IDEMPOTENCY_HEADER];
  if (key === undefined) return false;
  if (typeof key !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new AppError('bad_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
  }
  const scope = scopeOf(request);
  const requestHash = createHash('sha256')
    .update(`${request.method} ${request.url}\n`)
    .update(request.rawBody ?? '')
    .digest('hex');
  try {
    const record = await prisma.idempotencyRecord.create({ data: { scope, key, requestHash }, select: { id: true } });
    request.idempotencyRecordId = record.id;
    return false;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const existing = await prisma.idempotencyRecord.findUnique({ where: { scope_key: { scope, key } } });
  if (!existing) throw new AppError('conflict', 'The request with this Idempotency-Key was just abandoned; retry.');
  if (Date.now() - existing.createdAt.getTime() > EXPIRES_AFTER_MS) {
    await prisma.idempotencyRecord.deleteMany({ where: { id: existing.id } });
    return beginIdempotent(prisma, request, reply);
  }
  if (existing.requestHash !== requestHash) {
    throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used with a different request body; use a new key.');
  }
  if (existing.responseStatus === null) {
    if (Date.now() - existing.createdAt.getTime() < ABANDONED_AFTER_MS) {
      throw new AppError('idempotency_in_progress', 'A request with this Idempotency-Key is still being processed; retry shortly.');
    }
    await prisma.idempotencyRecord.deleteMany({ where: { id: existing.id } });
    return beginIdempotent(prisma, request, reply);
  }
  reply
    .code(existing.responseStatus)
    .header('idempotent-replayed', 'true')
    .type('application/json')
    .send(existing.responseBody ?? '');
  return true;
}

/** Stores the answer to replay it (called from onSend with the serialized payload). */
export async function finishIdempotent(prisma: PrismaClient, request: FastifyRequest, statusCode: number, payload: unknown): Promise<void> {
  const id = request.idempotencyRecordId;
  if (!id) return;
  request.idempotencyRecordId = undefined;
  if (statusCode >= 500) {
    await prisma.idempotencyRecord.deleteMany({ where: { id } });
    return;
  }
  await prisma.idempotencyRecord.update({
    where: { id },
    data: { responseStatus: statusCode, responseBody: typeof payload === 'string' ? payload : '' },
  });
}

function scopeOf(request: FastifyRequest): string {
  const caller = request.caller;
  switch (caller.kind) {
    case 'user':
      return `user:${caller.userId}`;
    case 'paygate':
      return `paygate:${caller.accountId}`;
    case 'commerce':
      return `commerce:${caller.organizationId}`;
    case 'webhook':
      return `webhook:${caller.provider}`;
    // Answers to anonymous calls can hold a new API key: replay them only to the same client address.
    case 'anonymous':
      return `anonymous:${request.ip}`;
  }
}
