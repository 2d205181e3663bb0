import { Status } from 'nice-grpc-common';
import { describe, expect, it } from 'vitest';
import { AppError, ERROR_CODES, codeForGrpcStatus, isErrorCode, type ErrorCode } from '../src/errors.js';

/** The brand another copy of @ctk/shared would put on its AppErrors (Symbol.for is shared across copies). */
const FOREIGN_BRAND = Symbol.for('ctk.AppError');
const GRPC_STATUSES = new Set(Object.values(Status).filter((value): value is Status => typeof value === 'number'));

describe('AppError', () => {
  it.each(ERROR_CODES)('maps %s to an HTTP error status and a gRPC status', (code) => {
    const error = new AppError(code, 'message');
    expect(error.httpStatus).toBeGreaterThanOrEqual(400);
    expect(error.httpStatus).toBeLessThanOrEqual(599);
    expect(GRPC_STATUSES.has(error.grpcStatus)).toBe(true);
    expect(error.grpcStatus).not.toBe(Status.OK);
  });

  it('has a code table of at least the codes the gateway answers with', () => {
    expect(ERROR_CODES).toEqual(
      expect.arrayContaining(['bad_request', 'not_found', 'already_exists', 'unavailable', 'timeout', 'internal']),
    );
  });

  it('maps codes to the statuses a client expects', () => {
    const expected: Array<[ErrorCode, number, Status]> = [
      ['bad_request', 400, Status.INVALID_ARGUMENT],
      ['unauthenticated', 401, Status.UNAUTHENTICATED],
      ['forbidden', 403, Status.PERMISSION_DENIED],
      ['not_found', 404, Status.NOT_FOUND],
      ['precondition_failed', 412, Status.FAILED_PRECONDITION],
      ['already_exists', 409, Status.ALREADY_EXISTS],
      ['rate_limited', 429, Status.RESOURCE_EXHAUSTED],
      ['internal', 500, Status.INTERNAL],
      ['unavailable', 503, Status.UNAVAILABLE],
      ['timeout', 504, Status.DEADLINE_EXCEEDED],
    ];
    for (const [code, http, grpc] of expected) {
      const error = new AppError(code, 'message');
      expect({ code, http: error.httpStatus, grpc: error.grpcStatus }).toEqual({ code, http, grpc });
    }
  });

  it('keeps its code, message and details and is an Error named AppError', () => {
    const error = new AppError('already_exists', 'An item with this SKU exists', { field: 'sku' });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('AppError');
    expect(error.code).toBe('already_exists');
    expect(error.message).toBe('An item with this SKU exists');
    expect(error.details).toEqual({ field: 'sku' });
  });

  it('recognises its own instances', () => {
    expect(AppError.is(new AppError('not_found', 'gone'))).toBe(true);
  });

  it('recognises an AppError from another copy of the class by its brand', () => {
    class OtherCopyAppError extends Error {
      readonly [FOREIGN_BRAND] = true;
      readonly code = 'not_found';
    }
    const foreign = new OtherCopyAppError('from another copy');
    expect(foreign).not.toBeInstanceOf(AppError);
    expect(AppError.is(foreign)).toBe(true);
    expect(AppError.is({ [FOREIGN_BRAND]: true, code: 'internal', message: 'plain object' })).toBe(true);
  });

  it('rejects plain errors, look-alikes without the brand, and non-objects', () => {
    expect(AppError.is(new Error('plain'))).toBe(false);
    expect(AppError.is({ name: 'AppError', code: 'not_found', message: 'look-alike' })).toBe(false);
    expect(AppError.is({ [Symbol('ctk.AppError')]: true })).toBe(false);
    expect(AppError.is({ [Symbol.for('ctk.AppError')]: 'yes' })).toBe(false);
    expect(AppError.is(null)).toBe(false);
    expect(AppError.is(undefined)).toBe(false);
    expect(AppError.is('AppError')).toBe(false);
  });
});

describe('isErrorCode', () => {
  it('accepts every code of the table and nothing else', () => {
    for (const code of ERROR_CODES) expect(isErrorCode(code)).toBe(true);
    expect(isErrorCode('teapot')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode('__proto__')).toBe(false);
    expect(isErrorCode(404)).toBe(false);
  });
});

describe('codeForGrpcStatus', () => {
  it('reads UNAVAILABLE as unavailable and DEADLINE_EXCEEDED as timeout', () => {
    expect(codeForGrpcStatus(Status.UNAVAILABLE)).toBe('unavailable');
    expect(codeForGrpcStatus(Status.DEADLINE_EXCEEDED)).toBe('timeout');
  });

  it('reads statuses it has no code for as internal', () => {
    expect(codeForGrpcStatus(Status.UNKNOWN)).toBe('internal');
    expect(codeForGrpcStatus(Status.INTERNAL)).toBe('internal');
    expect(codeForGrpcStatus(Status.DATA_LOSS)).toBe('internal');
    expect(codeForGrpcStatus(999 as Status)).toBe('internal');
  });

  it('gives back, for the gRPC status of every code, a code with that same gRPC status', () => {
    for (const code of ERROR_CODES) {
      const grpcStatus = new AppError(code, 'message').grpcStatus;
      expect(new AppError(codeForGrpcStatus(grpcStatus), 'message').grpcStatus).toBe(grpcStatus);
    }
  });
});
