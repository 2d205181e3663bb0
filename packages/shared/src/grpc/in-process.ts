import { Metadata, ServerError, Status, type CallContext } from 'nice-grpc-common';
import { CallError, MAX_MESSAGE_BYTES } from './wire.js';

/** What a service refuses to read, as grpc-js's server does by default (4 MiB). */
const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

type Codec = {
  encode(message: unknown): { finish(): Uint8Array };
  decode(input: Uint8Array): unknown;
  fromPartial?(object: unknown): unknown;
};
type UnaryMethod = {
  handler: (request: unknown, context: CallContext) => Promise<unknown>;
  requestType: Codec;
  responseType: Codec;
};
type Served = { methods: Map<string, UnaryMethod>; inFlight: Set<Promise<unknown>> };

/** This process's gRPC servers, by port: a client here whose address names one calls it without the network. */
const servedHere = new Map<number, Served>();

/** A service definition and the implementation its server runs (the wrapped handlers: errors, metrics, spans). */
type ServedService = [
  {
    fullName: string;
    methods: Record<string, { name: string; requestType: Codec; responseType: Codec; requestStream: boolean; responseStream: boolean }>;
  },
  Record<string, unknown>,
];

/**
 * Registers a server's unary methods for the clients of this process (decision 0047): the embedded default runs
 * every service in one process, and there a call to a service of the same process passes its request's bytes to
 * the handler the server itself runs and takes the answer's bytes back, without HTTP/2, sockets or framing. The
 * bytes, the handler chain (errors, metrics, the span), the metadata, the deadline and the size limits are the
 * network's; only the transport is skipped. `close` stops taking calls this way and waits for those in flight,
 * at most `drainMs`.
 */
export function serveInProcess(port: number, services: ServedService[]): { close(drainMs: number): Promise<void> } {
  const methods = new Map<string, UnaryMethod>();
  for (const [definition, implementation] of services)
    for (const [key, method] of Object.entries(definition.methods)) {
      const handler = implementation[key];
      if (method.requestStream || method.responseStream || typeof handler !== 'function') continue;
      methods.set(`/${definition.fullName}/${method.name}`, {
        handler: handler.bind(implementation) as UnaryMethod['handler'],
        requestType: method.requestType,
        responseType: method.responseType,
      });
    }
  const served: Served = { methods, inFlight: new Set() };
  servedHere.set(port, served);
  return {
    async close(drainMs) {
      if (servedHere.get(port) === served) servedHere.delete(port);
      let timer: NodeJS.Timeout | undefined;
      const drainEnds = new Promise<void>((resolve) => (timer = setTimeout(resolve, drainMs)));
      await Promise.race([Promise.allSettled([...served.inFlight]), drainEnds]);
      clearTimeout(timer);
    },
  };
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** The port a client's address names on this machine, or undefined when it names another host. */
export function loopbackPort(address: string): number | undefined {
  const at = address.lastIndexOf(':');
  if (at < 0 || !LOOPBACK.has(address.slice(0, at))) return undefined;
  const port = Number(address.slice(at + 1));
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

/**
 * A unary call to a server of this process, or undefined when no server here answers at `port` for `path`
 * (the call goes over the network). Answers the answer's bytes, or rejects with the CallError the wire would
 * have carried: the handler's ServerError, DEADLINE_EXCEEDED, or a size limit.
 */
export function callInProcess(
  port: number | undefined,
  path: string,
  message: Uint8Array,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<Uint8Array> | undefined {
  const served = port === undefined ? undefined : servedHere.get(port);
  const method = served?.methods.get(path);
  if (!served || !method) return undefined;
  return run(served, method, message, headers, timeoutMs);
}

async function run(
  served: Served,
  method: UnaryMethod,
  message: Uint8Array,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<Uint8Array> {
  if (message.length > MAX_REQUEST_BYTES)
    throw new CallError(Status.RESOURCE_EXHAUSTED, `Received message larger than max (${message.length} vs. ${MAX_REQUEST_BYTES})`);
  const metadata = Metadata();
  for (const [key, value] of Object.entries(headers)) metadata.set(key, value);
  const deadline = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      deadline.abort();
      reject(new CallError(Status.DEADLINE_EXCEEDED, 'deadline exceeded'));
    }, timeoutMs);
  });
  const context: CallContext = {
    metadata,
    peer: 'in-process',
    header: Metadata(),
    sendHeader: () => {},
    trailer: Metadata(),
    signal: deadline.signal,
  };
  try {
    // A fresh decode, as the server would: the handler never holds the caller's objects. The handler is waited
    // for at close even when its caller's deadline passed.
    const handled = method.handler(method.requestType.decode(message), context);
    served.inFlight.add(handled);
    void handled.then(
      () => served.inFlight.delete(handled),
      () => served.inFlight.delete(handled),
    );
    const answer = await Promise.race([handled, expired]);
    const { responseType } = method;
    const bytes = responseType.encode(responseType.fromPartial ? responseType.fromPartial(answer) : answer).finish();
    if (bytes.length > MAX_MESSAGE_BYTES)
      throw new CallError(Status.INTERNAL, `the service's answer is larger than ${MAX_MESSAGE_BYTES} bytes`);
    return bytes;
  } catch (error) {
    if (error instanceof CallError) throw error;
    if (error instanceof ServerError) throw new CallError(error.code, error.details);
    throw new CallError(Status.UNKNOWN, 'Unknown server error occurred');
  } finally {
    clearTimeout(timer);
  }
}
