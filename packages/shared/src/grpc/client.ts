import { context, SpanKind, trace, type Span } from '@opentelemetry/api';
import { Status } from 'nice-grpc-common';
import { AppError, codeForGrpcStatus, isErrorCode } from '../errors.js';
import { timeGrpcClientCall } from '../metrics/metrics.js';
import { headersOf } from '../tracing/context.js';
import { endSpan, startSpan } from '../tracing/tracing.js';
import { Http2Channel } from './http2-channel.js';
import { callInProcess, loopbackPort } from './in-process.js';
import { CALLER_ID_KEY, REQUEST_ID_KEY } from './metadata.js';
import { CallError } from './wire.js';

type MessageFns<T> = {
  encode(message: T): { finish(): Uint8Array };
  decode(input: Uint8Array): T;
  fromPartial(object: unknown): T;
};
type MethodDefinition = {
  name: string;
  requestType: MessageFns<unknown>;
  responseType: MessageFns<unknown>;
  requestStream: boolean;
  responseStream: boolean;
};
type ServiceDefinition = { name: string; fullName: string; methods: Record<string, MethodDefinition> };

type RequestOf<M> = M extends { requestType: MessageFns<infer T> } ? T : never;
type ResponseOf<M> = M extends { responseType: MessageFns<infer T> } ? T : never;
type DeepPartial<T> = T extends bigint | string | number | boolean | Date | Buffer | Uint8Array | undefined
  ? T
  : T extends Array<infer U>
    ? Array<DeepPartial<U>>
    : T extends object
      ? { [K in keyof T]?: DeepPartial<T[K]> }
      : T;

export type CallOptions = { requestId?: string; callerId?: string; timeoutMs?: number };

/**
 * Unary methods answer a promise; server-streaming ones an async iterable of their messages (leaving the
 * loop cancels the call). Client and bidirectional streams are not spoken here: no contract has one.
 */
export type GrpcClient<D extends ServiceDefinition> = {
  [K in keyof D['methods']]: D['methods'][K] extends { requestStream: true }
    ? never
    : D['methods'][K] extends { responseStream: true }
      ? (request: DeepPartial<RequestOf<D['methods'][K]>>, options?: CallOptions) => AsyncIterable<ResponseOf<D['methods'][K]>>
      : (request: DeepPartial<RequestOf<D['methods'][K]>>, options?: CallOptions) => Promise<ResponseOf<D['methods'][K]>>;
} & { close(): void };

const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * A client for a ts-proto generic service definition, on a lean HTTP/2 gRPC channel of our own
 * (http2-channel.ts): it is the gateway's hot path. Errors come back as AppError with the code the
 * service threw, from a unary call's promise or from a stream's next read. Each call is counted with its
 * status and timed (ctk_grpc_client_*): a stream until it ends, or CANCELLED when the caller leaves it.
 * Every call carries the active trace and request id as metadata; a unary call is a span (CLIENT) of its own.
 */
export function createGrpcClient<D extends ServiceDefinition>(
  definition: D,
  address: string,
  /**
   * `timeoutMs`: the deadline of a call that names none (5 s). `inProcess: false` calls a server of this
   * process over the network all the same (the wire's own tests).
   */
  options: { connections?: number; timeoutMs?: number; inProcess?: boolean } = {},
): GrpcClient<D> {
  // A few real connections, used in turn, spread HTTP/2 framing work better than one (decision 0009).
  const channels = Array.from({ length: options.connections ?? 2 }, () => new Http2Channel(address));
  let turn = 0;
  // A server of this process at that port is called without the network (decision 0047).
  const port = options.inProcess === false ? undefined : loopbackPort(address);
  const defaultTimeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const client: Record<string, unknown> = { close: () => channels.forEach((channel) => channel.close()) };
  for (const [key, method] of Object.entries(definition.methods)) {
    const path = `/${definition.fullName}/${method.name}`;
    // The active trace (through `span`, the call's own when it has one) and request id go with the call.
    const prepare = (request: unknown, options: CallOptions, span?: Span) => {
      const headers = headersOf(span ? trace.setSpan(context.active(), span) : context.active());
      if (options.requestId) headers[REQUEST_ID_KEY] = options.requestId;
      if (options.callerId) headers[CALLER_ID_KEY] = options.callerId;
      const channel = channels[turn++ % channels.length] as Http2Channel;
      const message = method.requestType.encode(method.requestType.fromPartial(request)).finish();
      return { channel, message, headers, timeoutMs: options.timeoutMs ?? defaultTimeoutMs };
    };
    if (method.requestStream) {
      client[key] = () => {
        throw new Error(`${path} streams requests, which this client does not speak`);
      };
    } else if (method.responseStream) {
      client[key] = (request: unknown, options: CallOptions = {}): AsyncIterable<unknown> => ({
        [Symbol.asyncIterator]() {
          const { channel, message, headers, timeoutMs } = prepare(request, options);
          const call = channel.serverStream(path, message, headers, timeoutMs);
          let ended: ((code: string) => void) | undefined = timeGrpcClientCall(definition.fullName, method.name);
          const end = (code: string) => {
            ended?.(code);
            ended = undefined;
          };
          return {
            async next() {
              try {
                const result = await call.next();
                if (result.done) end('OK');
                return result.done ? result : { done: false, value: method.responseType.decode(result.value) };
              } catch (error) {
                end(statusName(error));
                throw error instanceof CallError ? toAppError(error, definition.name) : error;
              }
            },
            return: () => {
              end('CANCELLED');
              return call.return();
            },
          };
        },
      });
    } else {
      client[key] = async (request: unknown, options: CallOptions = {}) => {
        const span = startSpan(path.slice(1), SpanKind.CLIENT, {
          'rpc.system': 'grpc',
          'rpc.service': definition.fullName,
          'rpc.method': method.name,
        });
        const { channel, message, headers, timeoutMs } = prepare(request, options, span);
        const ended = timeGrpcClientCall(definition.fullName, method.name);
        try {
          const answered = callInProcess(port, path, message, headers, timeoutMs) ?? channel.call(path, message, headers, timeoutMs);
          const answer = method.responseType.decode(await answered);
          ended('OK');
          span.setAttribute('rpc.grpc.status_code', Status.OK);
          endSpan(span);
          return answer;
        } catch (error) {
          ended(statusName(error));
          span.setAttribute('rpc.grpc.status_code', error instanceof CallError ? error.status : Status.INTERNAL);
          endSpan(span, error);
          throw error instanceof CallError ? toAppError(error, definition.name) : error;
        }
      };
    }
  }
  return client as GrpcClient<D>;
}

/** The status a call ended with, by name (an answer that could not be read: INTERNAL). */
function statusName(error: unknown): string {
  return error instanceof CallError ? (Status[error.status] ?? 'UNKNOWN') : 'INTERNAL';
}

function toAppError(error: CallError, serviceName: string): AppError {
  const sent = parseDetails(error.details);
  if (sent) return new AppError(sent.code, sent.message, sent.details);
  const code = codeForGrpcStatus(error.status);
  const message =
    code === 'unavailable'
      ? `${serviceName} is unavailable; try again shortly`
      : code === 'timeout'
        ? `${serviceName} did not answer in time`
        : 'Internal error';
  return new AppError(code, message);
}

function parseDetails(details: string) {
  if (!details.startsWith('{')) return undefined;
  try {
    const parsed = JSON.parse(details) as { code?: unknown; message?: unknown; details?: Record<string, unknown> };
    if (isErrorCode(parsed.code) && typeof parsed.message === 'string') {
      return { code: parsed.code, message: parsed.message, details: parsed.details };
    }
  } catch {
    // not ours: fall through to the status
  }
  return undefined;
}
