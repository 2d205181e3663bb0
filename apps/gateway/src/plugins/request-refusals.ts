import { AppError, invalidInput } from '@ctk/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';

/**
 * Headers that carry a credential. Node keeps the first of two `Authorization` headers and joins two
 * `x-commerce-key` with ", ": either way one request would speak for two callers, so a second is refused.
 */
const CREDENTIAL_HEADERS = ['authorization', 'x-commerce-key'];

/** 400 `duplicate_header` when a credential header comes more than once (counted in the raw headers). */
export function refuseRepeatedCredentials(request: FastifyRequest): void {
  const raw = request.raw.rawHeaders;
  for (const header of CREDENTIAL_HEADERS) {
    let seen = 0;
    for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === header) seen += 1;
    if (seen > 1)
      throw new AppError('duplicate_header', `Send one ${header} header, not ${seen}: a request carries one credential.`, { header });
  }
}

/**
 * 415 for a compressed body: the gateway reads bodies as they are sent, so a gzip or br body would
 * otherwise be parsed as if it were JSON and refused as "not valid JSON".
 */
export function refuseContentEncoding(request: FastifyRequest): AppError | undefined {
  const encoding = request.headers['content-encoding'];
  if (encoding === undefined || encoding.trim().toLowerCase() === 'identity') return undefined;
  return new AppError('unsupported_media_type', `Content-Encoding "${encoding.slice(0, 40)}" is not accepted: send the body uncompressed.`);
}

/**
 * The one rule for query strings (README, "API conventions"): a parameter the route does not take is a 422
 * naming it, as a misspelt `from` must not list a whole journal. The names a route takes are its query schema's.
 */
export function unknownQuery(schema: z.ZodType | undefined, query: unknown): AppError | undefined {
  const known = schema instanceof z.ZodObject ? new Set(Object.keys(schema.shape)) : new Set<string>();
  const unknown = Object.keys((query ?? {}) as Record<string, unknown>).filter((name) => !known.has(name));
  if (unknown.length === 0) return undefined;
  return invalidInput(
    unknown.map((name) => ({ field: name.slice(0, 100), message: `Unknown parameter "${name.slice(0, 100)}"` })),
    'query',
  );
}
