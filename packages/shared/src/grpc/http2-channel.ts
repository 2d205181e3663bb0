import * as http2 from 'node:http2';
import { Status } from 'nice-grpc-common';
import { ServerStreamCall } from './http2-server-stream.js';
import { CallError, describe, httpStatusToGrpc, MAX_MESSAGE_BYTES, frame, requestHeaders, statusOf, unframe } from './wire.js';

const { HTTP2_HEADER_STATUS, NGHTTP2_CANCEL } = http2.constants;

/**
 * gRPC calls over one HTTP/2 connection of node:http2, speaking the gRPC wire protocol directly: a
 * 5-byte framed message out, the framed answer (or, for a server-streaming call, the framed messages as
 * they come) and the grpc-status trailer back. It is the gateway's hot path, and it does per call only
 * what the call needs, where @grpc/grpc-js runs resolvers, load balancers, interceptors and retry
 * machinery (docs/decisions/0009-grpc-client.md, docs/decisions/0014-streamed-ledger-exports.md). The
 * connection is opened on first use and again after it closes or fails; it never keeps the process
 * alive on its own.
 */
export class Http2Channel {
  private session: http2.ClientHttp2Session | undefined;
  private closed = false;

  constructor(private readonly address: string) {}

  /** A unary call: the one answer message, or a CallError. */
  call(path: string, message: Uint8Array, headers: Record<string, string>, timeoutMs: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      let stream: http2.ClientHttp2Stream;
      try {
        stream = this.connection().request(requestHeaders(path, timeoutMs, headers));
      } catch (error) {
        reject(new CallError(Status.UNAVAILABLE, describe(error)));
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      let ended: { status: Status; details: string } | undefined;
      let settled = false;
      const finish = (error?: CallError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) {
          stream.close(NGHTTP2_CANCEL);
          reject(error);
        } else if (ended === undefined) {
          reject(new CallError(Status.UNAVAILABLE, 'the connection closed before the call ended'));
        } else if (ended.status !== Status.OK) {
          reject(new CallError(ended.status, ended.details));
        } else {
          const answer = unframe(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
          if (answer) resolve(answer);
          else reject(new CallError(Status.INTERNAL, 'the answer is not one gRPC message'));
        }
      };
      const timer = setTimeout(() => finish(new CallError(Status.DEADLINE_EXCEEDED, 'deadline exceeded')), timeoutMs);
      stream.on('response', (fields) => {
        const httpStatus = Number(fields[HTTP2_HEADER_STATUS]);
        if (httpStatus !== 200) finish(new CallError(httpStatusToGrpc(httpStatus), `HTTP ${httpStatus}`));
        else ended = statusOf(fields); // a trailers-only answer carries its status here
      });
      stream.on('trailers', (fields) => (ended = statusOf(fields) ?? ended));
      stream.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > 5 + MAX_MESSAGE_BYTES)
          finish(new CallError(Status.INTERNAL, `the service's answer is larger than ${MAX_MESSAGE_BYTES} bytes`));
        else chunks.push(chunk);
      });
      stream.on('error', (error) => finish(new CallError(Status.UNAVAILABLE, describe(error))));
      stream.on('close', () => finish());
      stream.end(frame(message));
    });
  }

  /**
   * A server-streaming call: its messages in order as the iterator is read, then a CallError if the
   * call did not end OK. Reading slowly slows the server (HTTP/2 flow control); leaving the loop (or
   * `return()`) cancels the call.
   */
  serverStream(path: string, message: Uint8Array, headers: Record<string, string>, timeoutMs: number): ServerStreamCall {
    let stream: http2.ClientHttp2Stream | CallError;
    try {
      stream = this.connection().request(requestHeaders(path, timeoutMs, headers));
      stream.end(frame(message));
    } catch (error) {
      stream = new CallError(Status.UNAVAILABLE, describe(error));
    }
    return new ServerStreamCall(stream, timeoutMs);
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
