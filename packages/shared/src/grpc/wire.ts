import * as http2 from 'node:http2';
import { Status } from 'nice-grpc-common';

/** How a call ended when it did not answer: a gRPC status code and its message. */
export class CallError extends Error {
  constructor(
    readonly status: Status,
    readonly details: string,
  ) {
    super(details);
  }
}

/**
 * Larger answers are refused rather than buffered without end: INTERNAL (a service answering more than its
 * callers read is this system's fault, not the caller's, so never RESOURCE_EXHAUSTED, which reads as 429). 16 MiB: a catalog feed of 10,000 items is
 * about 4.7 MB (a service still refuses requests over its own 4 MiB).
 */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** The request headers of a gRPC call (gRPC over HTTP/2, "Requests"). */
export function requestHeaders(path: string, timeoutMs: number, headers: Record<string, string>): http2.OutgoingHttpHeaders {
  return {
    ':method': 'POST',
    ':path': path,
    'content-type': 'application/grpc',
    te: 'trailers',
    'grpc-timeout': `${Math.max(1, Math.ceil(timeoutMs))}m`,
    ...headers,
  };
}

/** One uncompressed length-prefixed message. */
export function frame(message: Uint8Array): Buffer {
  const framed = Buffer.allocUnsafe(5 + message.length);
  framed.writeUInt8(0, 0); // not compressed
  framed.writeUInt32BE(message.length, 1);
  framed.set(message, 5);
  return framed;
}

/**
 * Splits a stream's DATA frames into its length-prefixed messages: a message may span many frames and
 * a frame may hold many messages. Keeps only the bytes of the message not yet complete.
 */
export class MessageReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  /** The messages that `chunk` completes, in order; throws a CallError for what no gRPC server sends. */
  push(chunk: Buffer): Buffer[] {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    const messages: Buffer[] = [];
    while (this.pendingBytes >= 5) {
      const head = this.peek(5);
      if (head[0] !== 0) throw new CallError(Status.INTERNAL, 'a compressed message, and none was asked for');
      const length = head.readUInt32BE(1);
      if (length > MAX_MESSAGE_BYTES)
        throw new CallError(Status.INTERNAL, `the service's answer is larger than ${MAX_MESSAGE_BYTES} bytes`);
      if (this.pendingBytes < 5 + length) break;
      messages.push(this.take(5 + length).subarray(5));
    }
    return messages;
  }

  /** True when a message was begun and not finished. */
  get partial(): boolean {
    return this.pendingBytes > 0;
  }

  private peek(bytes: number): Buffer {
    const first = this.pending[0]!;
    return first.length >= bytes ? first : Buffer.concat(this.pending).subarray(0, bytes);
  }

  private take(bytes: number): Buffer {
    const all = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    const rest = all.subarray(bytes);
    this.pending = rest.length > 0 ? [rest] : [];
    this.pendingBytes = rest.length;
    return all.subarray(0, bytes);
  }
}

/** The one uncompressed message of a unary answer, or undefined if the bytes are not exactly that. */
export function unframe(bytes: Buffer): Buffer | undefined {
  if (bytes.length < 5 || bytes[0] !== 0) return undefined;
  const length = bytes.readUInt32BE(1);
  return bytes.length === 5 + length ? bytes.subarray(5) : undefined;
}

/** grpc-status and grpc-message from trailers (or a trailers-only answer's headers); undefined without a status. */
export function statusOf(fields: http2.IncomingHttpHeaders): { status: Status; details: string } | undefined {
  const code = fields['grpc-status'];
  if (code === undefined) return undefined;
  return { status: Number(code), details: decodeMessage(fields['grpc-message']) };
}

/** grpc-message is percent-encoded (gRPC over HTTP/2, "Responses"). */
function decodeMessage(value: string | string[] | undefined): string {
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The gRPC spec's mapping for an answer that is not HTTP 200. */
export function httpStatusToGrpc(status: number): Status {
  if (status === 429 || status === 502 || status === 503 || status === 504) return Status.UNAVAILABLE;
  return status === 400 ? Status.INTERNAL : Status.UNKNOWN;
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
