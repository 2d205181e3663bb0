import { refuseNulCharacters, validate, type ErrorCode } from '@ctk/shared';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

/** The kinds of secret an answer may carry; each can tell whether it still works (access/secret-is-live.ts). */
export type SecretKind = 'api_key' | 'paygate_key' | 'commerce_key' | 'card_identifier';
export type AnswerSecret = { path: readonly string[]; kind: SecretKind };

export type HandlerInput<B, Q, P> = { body: B; query: Q; params: P; request: FastifyRequest; reply: FastifyReply };

/** A header the document lists for an operation: in the request, or in its success answer. */
export type HeaderDoc = { description: string; example: string; required?: boolean };

/**
 * An answer that is a file rather than JSON, described in the document by its media type: text (the ledger's
 * exports) with an example, answered as a string or a stream; or bytes (a wallet pass), answered as a Buffer,
 * which the document describes without an example (`format: binary`).
 */
export type FileAnswer = { description: string; example: string } | { description: string; binary: true };

/**
 * What an implemented endpoint adds to its catalog row: its input schemas, its success answer and its
 * handler. The answer schema types what the handler returns and is the OpenAPI document's response
 * schema, so the document describes what the route really answers.
 */
export type RouteDefinition<
  B extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  P extends z.ZodType = z.ZodType,
  A extends z.ZodType = z.ZodType,
  F extends string = string,
> = {
  body?: B;
  query?: Q;
  params?: P;
  /** A POST that creates something: honours Idempotency-Key. */
  creates?: boolean;
  /** Creates identities without a key (onboarding, sign-in): a stricter per-address rate limit. */
  signup?: boolean;
  /** Acts on a user (spec 7.1): 401 without a user key, before the input is read. */
  user?: boolean;
  /** Errors in the paymail (bsvalias) shape `{"code", "message", ...}` rather than `{"error": {...}}`. */
  bsvalias?: boolean;
  /** A stricter limit of requests per minute per client address than the gateway's (e.g. the chain passthrough). */
  rateLimitPerMinute?: number;
  /** A larger request body than the gateway's (CTK_BODY_LIMIT_BYTES) for this route only (a menu photo). */
  bodyLimit?: number;
  /**
   * Where the answer carries a secret (a new key), by its path in the JSON: such answers are never
   * cached, and their idempotent replays are sealed and checked (plugins/idempotency.ts).
   */
  secrets?: AnswerSecret[];
  /** Request headers the handler reads itself (authorization and Idempotency-Key aside), for the document. */
  headers?: Record<string, HeaderDoc>;
  /** Headers the success answer carries (e.g. ETag), for the document. */
  answerHeaders?: Record<string, HeaderDoc>;
  /** HTTP status of success (200 unless set). */
  status?: number;
  /** Another success status the handler may answer with `reply.code()`, with the same answer (200 for what already existed where `status` is 201). */
  alsoStatus?: number;
  /** The success answer as JSON (named with `named()`, which gives it its example); none only for a route that answers files alone, or nothing. */
  answer?: A;
  /** Answers 204 and no body (a DELETE with nothing to tell): the handler returns nothing. */
  noContent?: boolean;
  /** Media types other than JSON the success answer may come as, each a file in a string, a stream or bytes. */
  files?: Record<F, FileAnswer>;
  /**
   * Another media type the body may come as, read as JSON by the same schema, and the media type the JSON
   * answer then comes as (BIP270's Payment and PaymentACK). The answer is in it when the request was, or
   * when the request accepts it; other routes refuse a body of that type (415).
   */
  jsonAlso?: { body: string; answer: string };
  /** A realistic request body, for the document (a request body's schema is its validation). */
  bodyExample?: z.input<B>;
  /** Codes the handler itself may answer; those of auth, roles, validation, idempotency and services are added from the route. */
  errors?: ErrorCode[];
  handle(
    input: HandlerInput<z.infer<B>, z.infer<Q>, z.infer<P>>,
  ): Promise<z.output<A> | ([F] extends [never] ? never : string | Buffer | Readable)>;
};

/** Declares a route with its schemas so the handler's input and answer are typed by them; it answers JSON, files, both, or nothing (204). */
export function route<
  B extends z.ZodType = z.ZodUnknown,
  Q extends z.ZodType = z.ZodUnknown,
  P extends z.ZodType = z.ZodUnknown,
  A extends z.ZodType = z.ZodUnknown,
  F extends string = never,
>(definition: RouteDefinition<B, Q, P, A, F>): RouteDefinition {
  if (!definition.answer && !definition.files && !definition.noContent)
    throw new Error('A route declares its answer: JSON (answer), files (files), both, or none (noContent)');
  return definition as unknown as RouteDefinition;
}

/** The status of a route's success. */
export function successStatus(definition: Pick<RouteDefinition, 'status' | 'noContent'>): number {
  return definition.status ?? (definition.noContent ? 204 : 200);
}

/**
 * Validates one part of the request, answering 422 with every problem named. A NUL anywhere in it is
 * refused first (unless `allowNul`: the paymail routes answer paymail clients by their own rules).
 */
export function parseInput<S extends z.ZodType>(
  schema: S | undefined,
  value: unknown,
  where: 'body' | 'query' | 'path',
  options: { allowNul?: boolean | undefined } = {},
): z.infer<S> {
  if (!options.allowNul) refuseNulCharacters(value, where);
  if (!schema) return value as z.infer<S>;
  return validate(schema, where === 'body' && value === undefined ? {} : value, where);
}
