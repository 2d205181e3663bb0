import { AppError, codeForGrpcStatus, isErrorCode } from '../errors.js';
import { Http2UnaryChannel, UnaryCallError } from './http2-unary.js';
import { CALLER_ID_KEY, REQUEST_ID_KEY } from './metadata.js';

type MessageFns<T> = {
  encode(message: T): { finish(): Uint8Array };
  decode(input: Uint8Array): T;
  fromPartial(object: unknown): T;
};
type MethodDefinition = { name: string; requestType: MessageFns<unknown>; responseType: MessageFns<unknown> };
type ServiceDefinition = { name: string; fullName: string; methods: Record<string, MethodDefinition> };

type RequestOf<M> = M extends { requestType: MessageFns<infer T> } ? T : never;
type ResponseOf<M> = M extends { responseType: MessageFns<infer T> } ? T : never;
type DeepPartial<T> = T extends bigint | string | number | boolean | Date | undefined
  ? T
  : T extends Array<infer U>
    ? Array<DeepPartial<U>>
    : T extends object
      ? { [K in keyof T]?: DeepPartial<T[K]> }
      : T;

export type CallOptions = { requestId?: string; callerId?: string; timeoutMs?: number };

export type GrpcClient<D extends ServiceDefinition> = {
  [K in keyof D['methods']]: (
    request: DeepPartial<RequestOf<D['methods'][K]>>,
    options?: CallOptions,
  ) => Promise<ResponseOf<D['methods'][K]>>;
} & { close(): void };

const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * A unary client for a ts-proto generic service definition, on a lean HTTP/2 gRPC channel of our own
 * (http2-unary.ts): it is the gateway's hot path. Errors come back as AppError with the code the service
 * threw.
 */
export function createGrpcClient<D extends ServiceDefinition>(
  definition: D,
  address: string,
  options: { connections?: number } = {},
): GrpcClient<D> {
  // A few real connections, used in turn, spread HTTP/2 framing work better than one (decision 0009).
  const channels = Array.from({ length: options.connections ?? 2 }, () => new Http2UnaryChannel(address));
  let turn = 0;
  const client: Record<string, unknown> = { close: () => channels.forEach((channel) => channel.close()) };
  for (const [key, method] of Object.entries(definition.methods)) {
    const path = `/${definition.fullName}/${method.name}`;
    client[key] = async (request: unknown, options: CallOptions = {}) => {
      const headers: Record<string, string> = {};
      if (options.requestId) headers[REQUEST_ID_KEY] = options.requestId;
      if (options.callerId) headers[CALLER_ID_KEY] = options.callerId;
      const channel = channels[turn++ % channels.length] as Http2UnaryChannel;
      const message = method.requestType.encode(method.requestType.fromPartial(request)).finish();
      try {
        return method.responseType.decode(await channel.call(path, message, headers, options.timeoutMs ?? DEFAULT_TIMEOUT_MS));
      } catch (error) {
        throw error instanceof UnaryCallError ? toAppError(error, definition.name) : error;
      }
    };
  }
  return client as GrpcClient<D>;
}

function toAppError(error: UnaryCallError, serviceName: string): AppError {
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
