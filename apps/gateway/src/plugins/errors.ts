import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError } from '@ctk/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The error body of every failed request: `{"error": {"code", "message", "request_id", "details"?}}`. */
function errorBody(error: AppError, requestId: string) {
  return { error: bsvaliasErrorBody(error, requestId) };
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

/**
 * Requests Node refuses before fastify sees them (a request late past the timeout, headers too large, a
 * request line or header it cannot parse), in the one error body rather than fastify's default
 * `{"error", "message", "statusCode"}`; the connection is closed, as Node does.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // A reset connection has no one left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const appError =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new AppError('request_timeout', 'The request did not arrive whole in time; the connection is closed.')
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? new AppError('headers_too_large', 'The request headers are larger than this service reads.')
        : new AppError('bad_request', 'The request is not well-formed HTTP (its request line or a header).');
  const requestId = randomUUID();
  const body = JSON.stringify(errorBody(appError, requestId));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${appError.httpStatus} ${STATUS_CODES[appError.httpStatus]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
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
