import type { MessagePort } from 'node:worker_threads';
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
  for (const link of links) announce(link, port, served);
  return {
    async close(drainMs) {
      if (servedHere.get(port) === served) {
        servedHere.delete(port);
        for (const link of links) link.port.postMessage({ grpc: 'closed', port } satisfies LinkMessage);
      }
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
  if (port === undefined) return undefined;
  const served = servedHere.get(port);
  const method = served?.methods.get(path);
  if (served && method) return run(served, method, message, headers, timeoutMs);
  for (const link of links) if (link.served.get(port)?.has(path)) return callAcross(link, { port, path, message, headers, timeoutMs });
  return undefined;
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

/** What two linked threads tell each other: the servers each runs, and the calls to them with their answers. */
type LinkMessage =
  | { grpc: 'served'; port: number; paths: string[] }
  | { grpc: 'closed'; port: number }
  | { grpc: 'call'; id: number; port: number; path: string; message: Uint8Array; headers: Record<string, string>; timeoutMs: number }
  | { grpc: 'answer'; id: number; bytes: Uint8Array }
  | { grpc: 'failed'; id: number; status: Status; details: string };
type Call = Extract<LinkMessage, { grpc: 'call' }>;

/** Another thread of this process: the paths of each server it runs, by port, and the calls waiting on it. */
type Link = {
  port: MessagePort;
  served: Map<number, Set<string>>;
  waiting: Map<number, { resolve(bytes: Uint8Array): void; reject(error: CallError): void }>;
};
const links = new Set<Link>();
let lastCallId = 0;

function announce(link: Link, port: number, served: Served): void {
  link.port.postMessage({ grpc: 'served', port, paths: [...served.methods.keys()] } satisfies LinkMessage);
}

/**
 * Links this thread's gRPC servers and clients with another thread's, over `port` (one end of a MessageChannel;
 * the other thread links the other end): a unary call from either thread to a server the other runs passes its
 * bytes across, and the server's own thread runs it exactly as a call of its own thread (`callInProcess`), so
 * the bytes, handler chain, metadata, deadline and limits stay the network's. A server closing stops taking calls
 * this way at once (a call already sent answers UNAVAILABLE, as a refusing server would), and a thread that ends
 * fails its callers' calls UNAVAILABLE. The port keeps neither thread alive while no call waits on it.
 */
export function linkThread(port: MessagePort): void {
  const link: Link = { port, served: new Map(), waiting: new Map() };
  links.add(link);
  port.unref();
  port.on('message', (message: LinkMessage) => receive(link, message));
  port.once('close', () => {
    links.delete(link);
    for (const { reject } of link.waiting.values()) reject(new CallError(Status.UNAVAILABLE, 'the thread serving this call ended'));
    link.waiting.clear();
  });
  for (const [served, running] of servedHere) announce(link, served, running);
}

function receive(link: Link, message: LinkMessage): void {
  switch (message.grpc) {
    case 'served':
      link.served.set(message.port, new Set(message.paths));
      return;
    case 'closed':
      link.served.delete(message.port);
      return;
    case 'call':
      answerAcross(link, message);
      return;
    case 'answer':
      link.waiting.get(message.id)?.resolve(message.bytes);
      return;
    case 'failed':
      link.waiting.get(message.id)?.reject(new CallError(message.status, message.details));
  }
}

/** Runs a call another thread sent, as a call of this thread, and sends back its answer or how it failed. */
function answerAcross(link: Link, { id, port, path, message, headers, timeoutMs }: Call): void {
  const answered = callInProcess(port, path, message, headers, timeoutMs);
  if (!answered) {
    link.port.postMessage({ grpc: 'failed', id, status: Status.UNAVAILABLE, details: 'the server is shutting down' } satisfies LinkMessage);
    return;
  }
  answered.then(
    (bytes) => link.port.postMessage({ grpc: 'answer', id, bytes } satisfies LinkMessage),
    (error: CallError) => link.port.postMessage({ grpc: 'failed', id, status: error.status, details: error.details } satisfies LinkMessage),
  );
}

/** A call to a server of the thread at the other end of `link`; the caller's deadline holds even if that thread never answers. */
function callAcross(link: Link, call: Omit<Call, 'grpc' | 'id'>): Promise<Uint8Array> {
  const id = ++lastCallId;
  return new Promise<Uint8Array>((resolve, reject) => {
    const timer = setTimeout(() => settled(() => reject(new CallError(Status.DEADLINE_EXCEEDED, 'deadline exceeded'))), call.timeoutMs);
    const settled = (end: () => void) => {
      clearTimeout(timer);
      link.waiting.delete(id);
      if (link.waiting.size === 0) link.port.unref();
      end();
    };
    link.waiting.set(id, {
      resolve: (bytes) => settled(() => resolve(bytes)),
      reject: (error) => settled(() => reject(error)),
    });
    link.port.ref();
    link.port.postMessage({ grpc: 'call', id, ...call } satisfies LinkMessage);
  });
}
