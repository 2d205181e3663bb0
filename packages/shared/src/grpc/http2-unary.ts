import * as http2 from 'node:http2';
import { Status } from 'nice-grpc-common';

/** How a unary call ended when it did not answer: a gRPC status code and its message. */
export class UnaryCallError extends Error {
  constructor(
    readonly status: Status,
    readonly details: string,
  ) {
    super(details);
  }
}

/** Larger answers are refused rather than buffered without end (the services' own limit is 4 MiB too). */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
const { HTTP2_HEADER_STATUS, NGHTTP2_CANCEL } = http2.constants;

/**
 * Unary gRPC calls over one HTTP/2 connection of node:http2, speaking the gRPC wire protocol directly:
 * a 5-byte framed message out, the framed answer and the grpc-status trailer back. It is the gateway's
 * hot path, and it does per call only what a unary call needs, where @grpc/grpc-js runs resolvers, load
 * balancers, interceptors and retry machinery (docs/decisions/0009-grpc-client.md). The connection is
 * opened on first use and again after it closes or fails; it never keeps the process alive on its own.
 */
export class Http2UnaryChannel {
  private session: http2.ClientHttp2Session | undefined;
  private closed = false;

  constructor(private readonly address: string) {}

  call(path: string, message: Uint8Array, headers: Record<string, string>, timeoutMs: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      let stream: http2.ClientHttp2Stream;
      try {
        stream = this.connection().request({
          ':method': 'POST',
          ':path': path,
          'content-type': 'application/grpc',
          te: 'trailers',
          'grpc-timeout': `${Math.max(1, Math.ceil(timeoutMs))}m`,
          ...headers,
        });
      } catch (error) {
        reject(new UnaryCallError(Status.UNAVAILABLE, describe(error)));
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      let status: Status | undefined;
      let details = '';
      let settled = false;
      const finish = (error?: UnaryCallError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) {
          stream.close(NGHTTP2_CANCEL);
          reject(error);
        } else if (status === undefined) {
          reject(new UnaryCallError(Status.UNAVAILABLE, 'the connection closed before the call ended'));
        } else if (status !== 0) {
          reject(new UnaryCallError(status, details));
        } else {
          const answer = unframe(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
          if (answer) resolve(answer);
          else reject(new UnaryCallError(Status.INTERNAL, 'the answer is not one gRPC message'));
        }
      };
      const timer = setTimeout(() => finish(new UnaryCallError(Status.DEADLINE_EXCEEDED, 'deadline exceeded')), timeoutMs);
      const readStatus = (fields: http2.IncomingHttpHeaders) => {
        const code = fields['grpc-status'];
        if (code === undefined) return;
        status = Number(code);
        details = decodeMessage(fields['grpc-message']);
      };
      stream.on('response', (fields) => {
        const httpStatus = Number(fields[HTTP2_HEADER_STATUS]);
        if (httpStatus !== 200) finish(new UnaryCallError(httpStatusToGrpc(httpStatus), `HTTP ${httpStatus}`));
        else readStatus(fields); // a trailers-only answer carries its status here
      });
      stream.on('trailers', readStatus);
      stream.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > MAX_RESPONSE_BYTES) finish(new UnaryCallError(Status.RESOURCE_EXHAUSTED, 'the answer is too large'));
        else chunks.push(chunk);
      });
      stream.on('error', (error) => finish(new UnaryCallError(Status.UNAVAILABLE, describe(error))));
      stream.on('close', () => finish());
      stream.end(frame(message));
    });
  }

  close(): void {
    this.closed = true;
    this.session?.close();
    this.session = undefined;
  }

  private connection(): http2.ClientHttp2Session {
    if (this.closed) throw new Error('the client is closed');
    if (this.session && !this.session.closed && !this.session.destroyed) return this.session;
    const session = http2.connect(`http://${this.address}`);
    const forget = () => {
      if (this.session === session) this.session = undefined;
    };
    // Failures reach the calls on their streams; the session only has to be replaced.
    session.on('error', forget);
    session.on('goaway', forget);
    session.on('close', forget);
    session.unref();
    this.session = session;
    return session;
  }
}

function frame(message: Uint8Array): Buffer {
  const framed = Buffer.allocUnsafe(5 + message.length);
  framed.writeUInt8(0, 0); // not compressed
  framed.writeUInt32BE(message.length, 1);
  framed.set(message, 5);
  return framed;
}

/** The one uncompressed message of a unary answer, or undefined if the bytes are not exactly that. */
function unframe(bytes: Buffer): Buffer | undefined {
  if (bytes.length < 5 || bytes[0] !== 0) return undefined;
  const length = bytes.readUInt32BE(1);
  return bytes.length === 5 + length ? bytes.subarray(5) : undefined;
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
function httpStatusToGrpc(status: number): Status {
  if (status === 429 || status === 502 || status === 503 || status === 504) return Status.UNAVAILABLE;
  return status === 400 ? Status.INTERNAL : Status.UNKNOWN;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
