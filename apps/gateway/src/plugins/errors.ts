import { AppError } from '@ctk/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The error body of every failed request: `{"error": {"code", "message", "request_id", "details"?}}`. */
export function errorBody(error: AppError, requestId: string) {
  return {
    error: { code: error.code, message: error.message, request_id: requestId, ...(error.details ? { details: error.details } : {}) },
  };
}

/**
 * The error body of the paymail (bsvalias) routes, flat as paymail clients read it: `{"code", "message"}`,
 * with the request id and details beside them.
 */
export function bsvaliasErrorBody(error: AppError, requestId: string) {
  return { code: error.code, message: error.message, request_id: requestId, ...(error.details ? { details: error.details } : {}) };
}

type ErrorBody = (error: AppError, requestId: string) => unknown;

/** An error handler answering in the given body shape (a route may choose the bsvalias one). */
export function errorHandler(body: ErrorBody = errorBody) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const appError = toAppError(error);
    if (appError.code === 'internal') request.log.error({ err: error }, 'unhandled error');
    else if (appError.httpStatus >= 500 && appError.code !== 'not_implemented')
      request.log.warn({ code: appError.code, reason: appError.message }, 'service error');
    if (appError.code === 'rate_limited') reply.header('retry-after', String(appError.details?.retry_after_seconds ?? 60));
    // A service that says when to come back (p2p's receiving addresses all held, decision 0022).
    else if (appError.code === 'unavailable' && typeof appError.details?.retry_after_seconds === 'number')
      reply.header('retry-after', String(appError.details.retry_after_seconds));
    return reply.code(appError.httpStatus).send(body(appError, request.id));
  };
}

/** Errors of the router itself (a malformed percent-encoding, an over-long path parameter), in the one error body. */
export function answerRouterError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'A path segment is longer than this service accepts.'
      : 'The URL is malformed: check its percent-encoding.';
  return reply
    .code(400)
    .header('x-request-id', request.id)
    .header('x-content-type-options', 'nosniff')
    .send(errorBody(new AppError('bad_request', message), request.id));
}

/** Maps every error to the one error body, once, at the edge. Unknown errors are logged and answered 500 without detail. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(errorHandler());
  app.setNotFoundHandler((request, reply) => {
    const error = new AppError(
      'route_not_found',
      `No route ${request.method} ${request.url.split('?')[0]}. GET /api/v1 lists every endpoint.`,
    );
    return reply.code(404).send(errorBody(error, request.id));
  });
}

function toAppError(error: unknown): AppError {
  if (AppError.is(error)) return error;
  const fastifyError = error as Partial<FastifyError>;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'The request body is larger than this endpoint accepts.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', 'Send the body as application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('bad_request', 'The body is empty but Content-Type says application/json.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('bad_request', 'Content-Length does not match the body.');
  }
  if (error instanceof SyntaxError) return new AppError('bad_request', 'The body is not valid JSON.');
  if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return new AppError('bad_request', fastifyError.message ?? 'Bad request');
  }
  return new AppError('internal', 'Internal error');
}
