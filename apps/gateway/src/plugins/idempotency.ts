import { createHash } from 'node:crypto';
import { AppError, isUniqueViolation } from '@ctk/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PrismaClient } from '../data/prisma.js';
import { secretIsLive } from '../access/secret-is-live.js';
import { hashSecret } from '../auth/secrets.js';
import type { AnswerSecret } from '../routes/route-definition.js';
import { openSecrets, sealSecrets, type SealedSecret } from './sealed-secrets.js';

/** A first request that has not finished after this long is taken as abandoned (its process died). */
const ABANDONED_AFTER_MS = 60_000;
/** Keys are remembered this long, like Stripe's; an older record is replaced by a new request. */
const EXPIRES_AFTER_MS = 24 * 60 * 60 * 1000;

/** What a request that began an idempotent record carries to its end (the Idempotency-Key only in memory). */
export type IdempotentRequest = { recordId: string; key: string; scope: string; secrets: readonly AnswerSecret[] };

/**
 * `Idempotency-Key` on POSTs that create something: the first response for a (caller, key) is stored
 * and replayed to retries with the same body; a different body is a 422; a retry that arrives while
 * the first is still running is a 409. 5xx answers are not stored, so the client can retry.
 * The key is stored as its hash. Secrets in the answer (a new API key) are stored sealed with the
 * Idempotency-Key, and a replay carries each only while it still works (decision 0013).
 * Returns true when it answered the request itself (a replay).
 */
export async function beginIdempotent(
  prisma: PrismaClient,
  request: FastifyRequest,
  reply: FastifyReply,
  secrets: readonly AnswerSecret[] = [],
): Promise<boolean> {
  const key = request.headers['idempotency-key'];
  if (key === undefined) return false;
  if (typeof key !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new AppError('bad_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
  }
  const scope = scopeOf(request);
  const keyHash = hashSecret(key);
  const requestHash = createHash('sha256')
    .update(`${request.method} ${request.url}\n`)
    .update(request.rawBody ?? '')
    .digest('hex');
  try {
    const record = await prisma.idempotencyRecord.create({ data: { scope, keyHash, requestHash }, select: { id: true } });
    request.idempotency = { recordId: record.id, key, scope, secrets };
    return false;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const existing = await prisma.idempotencyRecord.findUnique({ where: { scope_keyHash: { scope, keyHash } } });
  if (!existing) throw new AppError('conflict', 'The request with this Idempotency-Key was just abandoned; retry.');
  if (Date.now() - existing.createdAt.getTime() > EXPIRES_AFTER_MS) {
    await prisma.idempotencyRecord.deleteMany({ where: { id: existing.id } });
    return beginIdempotent(prisma, request, reply, secrets);
  }
  if (existing.requestHash !== requestHash) {
    throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used with a different request body; use a new key.');
  }
  if (existing.responseStatus === null) {
    if (Date.now() - existing.createdAt.getTime() < ABANDONED_AFTER_MS) {
      throw new AppError('idempotency_in_progress', 'A request with this Idempotency-Key is still being processed; retry shortly.');
    }
    await prisma.idempotencyRecord.deleteMany({ where: { id: existing.id } });
    return beginIdempotent(prisma, request, reply, secrets);
  }
  const body = existing.sealedSecrets
    ? await withLiveSecrets(prisma, existing.responseBody ?? '', openSecrets(existing.sealedSecrets, key, scope))
    : existing.responseBody;
  reply
    .code(existing.responseStatus)
    .header('idempotent-replayed', 'true')
    .type('application/json')
    .send(body ?? '');
  return true;
}

/** Stores the answer to replay it (called from onSend with the serialized payload), its secrets sealed apart. */
export async function finishIdempotent(prisma: PrismaClient, request: FastifyRequest, statusCode: number, payload: unknown): Promise<void> {
  const idempotent = request.idempotency;
  if (!idempotent) return;
  request.idempotency = undefined;
  if (statusCode >= 500) {
    await prisma.idempotencyRecord.deleteMany({ where: { id: idempotent.recordId } });
    return;
  }
  const { body, secrets } = withoutSecrets(typeof payload === 'string' ? payload : '', idempotent.secrets);
  await prisma.idempotencyRecord.update({
    where: { id: idempotent.recordId },
    data: {
      responseStatus: statusCode,
      responseBody: body,
      sealedSecrets: secrets.length > 0 ? sealSecrets(secrets, idempotent.key, idempotent.scope) : null,
    },
  });
}

/** The answer with each declared secret replaced by null, and the secrets taken out. */
function withoutSecrets(payload: string, declared: readonly AnswerSecret[]): { body: string; secrets: SealedSecret[] } {
  if (declared.length === 0) return { body: payload, secrets: [] };
  let answer: unknown;
  try {
    answer = JSON.parse(payload);
  } catch {
    return { body: payload, secrets: [] };
  }
  const secrets: SealedSecret[] = [];
  for (const { path, kind } of declared) {
    const holder = parentOf(answer, path);
    const name = path.at(-1) as string;
    const value = holder?.[name];
    if (typeof value !== 'string') continue;
    secrets.push({ path, kind, value });
    holder![name] = null;
  }
  return { body: secrets.length > 0 ? JSON.stringify(answer) : payload, secrets };
}

/** The stored answer with each secret put back only if it still works (not revoked, not rotated away). */
async function withLiveSecrets(prisma: PrismaClient, body: string, secrets: SealedSecret[]): Promise<string> {
  const answer = JSON.parse(body) as unknown;
  for (const { path, kind, value } of secrets) {
    const holder = parentOf(answer, path);
    if (holder && (await secretIsLive(prisma, kind, value))) holder[path.at(-1) as string] = value;
  }
  return JSON.stringify(answer);
}

function parentOf(answer: unknown, path: readonly string[]): Record<string, unknown> | undefined {
  let at: unknown = answer;
  for (const name of path.slice(0, -1)) at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[name] : undefined;
  return typeof at === 'object' && at !== null ? (at as Record<string, unknown>) : undefined;
}

function scopeOf(request: FastifyRequest): string {
  const caller = request.caller;
  switch (caller.kind) {
    case 'user':
      return `user:${caller.userId}`;
    case 'paygate':
      return `paygate:${caller.accountId}`;
    // A commerce key is every shopper's: a host page sending one fixed Idempotency-Key for all of them
    // must not hand one shopper another's checkout, so shoppers are told apart by address too.
    case 'commerce':
      return `commerce:${caller.organizationId}:${request.ip}`;
    case 'webhook':
      return `webhook:${caller.provider}:${caller.organizationId}`;
    // Anonymous callers are told apart by their address; the secrets in their answers are sealed with the
    // Idempotency-Key, which only the client that sent the first request knows.
    case 'anonymous':
      return `anonymous:${request.ip}`;
  }
}
