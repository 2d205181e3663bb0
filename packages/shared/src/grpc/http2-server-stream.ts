import * as http2 from 'node:http2';
import { Status } from 'nice-grpc-common';
import { CallError, describe, httpStatusToGrpc, MessageReader, statusOf } from './wire.js';

const { HTTP2_HEADER_STATUS, NGHTTP2_CANCEL } = http2.constants;

/**
 * Messages read ahead of the consumer before the stream is paused: past them HTTP/2 flow control holds
 * the server back, so a slow reader never makes this side buffer the whole answer.
 */
const READ_AHEAD_MESSAGES = 4;

/**
 * One server-streaming call in flight, read as an async iterator: each message as it is complete (however
 * the DATA frames cut them), then the end, or the CallError the call ended with after the messages that
 * came before it. The deadline covers the whole call; `return()` (leaving a for-await loop, or a stream
 * built on it being destroyed) cancels the call with RST_STREAM at once, even while a read waits.
 */
export class ServerStreamCall implements AsyncIterableIterator<Buffer> {
  private readonly queue: Buffer[] = [];
  private readonly reader = new MessageReader();
  private ended: { status: Status; details: string } | undefined;
  private failure: CallError | undefined;
  private done = false;
  private waiting: { resolve(result: IteratorResult<Buffer>): void; reject(error: unknown): void } | undefined;
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly stream: http2.ClientHttp2Stream | CallError,
    timeoutMs: number,
  ) {
    if (stream instanceof CallError) {
      this.failure = stream;
      return;
    }
    this.timer = setTimeout(() => this.fail(new CallError(Status.DEADLINE_EXCEEDED, 'deadline exceeded')), timeoutMs);
    stream.on('response', (fields) => {
      const httpStatus = Number(fields[HTTP2_HEADER_STATUS]);
      if (httpStatus !== 200) this.fail(new CallError(httpStatusToGrpc(httpStatus), `HTTP ${httpStatus}`));
      else this.ended = statusOf(fields); // a trailers-only answer carries its status here
    });
    stream.on('trailers', (fields) => (this.ended = statusOf(fields) ?? this.ended));
    stream.on('data', (chunk: Buffer) => {
      try {
        this.queue.push(...this.reader.push(chunk));
      } catch (error) {
        this.fail(error instanceof CallError ? error : new CallError(Status.INTERNAL, describe(error)));
        return;
      }
      if (this.queue.length >= READ_AHEAD_MESSAGES) stream.pause();
      this.wake();
    });
    stream.on('error', (error) => this.fail(new CallError(Status.UNAVAILABLE, describe(error))));
    stream.on('close', () => this.finish());
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Buffer>> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.wake();
    });
  }

  /** Cancels the call if it is still running; what was not read is dropped. */
  async return(): Promise<IteratorResult<Buffer>> {
    this.stop();
    this.queue.length = 0;
    this.failure = undefined;
    this.done = true;
    this.wake();
    return { done: true, value: undefined };
  }

  /** Hands the next message, the failure or the end to a waiting read. */
  private wake(): void {
    const waiting = this.waiting;
    if (!waiting) return;
    const message = this.queue.shift();
    if (message) {
      this.waiting = undefined;
      if (this.queue.length < READ_AHEAD_MESSAGES && !(this.stream instanceof CallError) && this.stream.isPaused()) this.stream.resume();
      waiting.resolve({ done: false, value: message });
    } else if (this.failure) {
      this.waiting = undefined;
      const failure = this.failure;
      this.failure = undefined;
      this.done = true;
      waiting.reject(failure);
    } else if (this.done) {
      this.waiting = undefined;
      waiting.resolve({ done: true, value: undefined });
    }
  }

  /** The stream closed: the call ended with the status of its trailers, or without one (the connection went). */
  private finish(): void {
    if (this.done || this.failure) return;
    this.stop();
    if (this.ended === undefined) this.failure = new CallError(Status.UNAVAILABLE, 'the connection closed before the call ended');
    else if (this.ended.status !== Status.OK) this.failure = new CallError(this.ended.status, this.ended.details);
    else if (this.reader.partial) this.failure = new CallError(Status.INTERNAL, 'the answer ended inside a message');
    else this.done = true;
    this.wake();
  }

  private fail(error: CallError): void {
    if (this.done || this.failure) return;
    this.stop();
    this.failure = error;
    this.wake();
  }

  private stop(): void {
    clearTimeout(this.timer);
    if (!(this.stream instanceof CallError) && !this.stream.closed) this.stream.close(NGHTTP2_CANCEL);
  }
}
