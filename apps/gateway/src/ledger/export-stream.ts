import { Readable } from 'node:stream';
import type { ExportJournalResponse } from '@ctk/proto/ctk/books/v1/books';
import { AppError } from '@ctk/shared';

/** A file name safe inside a quoted content-disposition (books builds it from the handle and the dates). */
const SAFE_FILE_NAME = /^[A-Za-z0-9._-]{1,200}$/;

type ExportFile = { mediaType: string; fileName: string; body: Readable };

/**
 * Waits for an export's first message, which names the file, so that every refusal of books (it comes
 * before that message) is still an ordinary error answer; then gives the file as a stream that passes
 * on each of books' messages as it arrives. Destroying the stream (the HTTP client went away) cancels
 * the call to books at once; an error from books after the first message destroys the stream with it,
 * which aborts the HTTP answer rather than end a file that is not whole.
 */
export async function openExport(messages: AsyncIterable<ExportJournalResponse>): Promise<ExportFile> {
  const iterator = messages[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done || !first.value.mediaType || !SAFE_FILE_NAME.test(first.value.fileName)) {
    await iterator.return?.();
    throw new AppError('internal', 'books began an export without naming its file');
  }
  let head: Buffer | undefined = first.value.chunk;
  const chunks: AsyncIterator<Buffer> = {
    async next() {
      if (head) {
        const value = head;
        head = undefined;
        return { done: false, value };
      }
      const next = await iterator.next();
      return next.done ? next : { done: false, value: next.value.chunk };
    },
    async return() {
      await iterator.return?.();
      return { done: true, value: undefined };
    },
  };
  return {
    mediaType: first.value.mediaType,
    fileName: first.value.fileName,
    // Not an object stream: it holds about one message of the file at a time, not 16 of them.
    body: Readable.from({ [Symbol.asyncIterator]: () => chunks }, { objectMode: false, highWaterMark: 64 * 1024 }),
  };
}
