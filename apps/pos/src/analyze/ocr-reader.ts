import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { AppError, type Logger } from '@ctk/shared';
import type { Worker } from 'tesseract.js';
import { unreadable } from './image-type.js';

/** Reads the text of a photo, one photo at a time. */
export type OcrReader = {
  read(image: Buffer, signal?: AbortSignal): Promise<string>;
  close(): Promise<void>;
};

export type OcrOptions = {
  /** A recognition running longer is abandoned (its worker ended) and answered 504 `timeout`. */
  timeoutMs: number;
  /** Photos waiting behind the one being read; one more is refused 503 `unavailable`. */
  maxWaiting: number;
  logger?: Logger;
};

const require = createRequire(import.meta.url);
/**
 * The English traineddata shipped in @tesseract.js-data/eng: its `4.0.0_best_int` folder, beside the
 * `4.0.0` one the package names, is what tesseract.js itself chooses for the LSTM engine. Read from disk:
 * nothing is fetched at run time.
 */
const LANG_PATH = join(dirname((require('@tesseract.js-data/eng') as { langPath: string }).langPath), '4.0.0_best_int');

/**
 * OCR with tesseract.js in a worker thread of this process. The worker is made on the first photo (most
 * pos instances never read one) and kept; recognitions run one at a time because each takes a whole core,
 * and a bounded queue turns a burst into quick 503s rather than minutes of waiting. A recognition that
 * times out, or whose caller left, ends the worker (it cannot be interrupted otherwise); the next photo
 * makes a new one.
 */
export function createOcrReader(options: OcrOptions): OcrReader {
  let current: Promise<LiveWorker> | null = null;
  let busy = false;
  let closed = false;
  const waiting: (() => void)[] = [];

  function worker(): Promise<LiveWorker> {
    current ??= startWorker().catch((error: unknown) => {
      current = null;
      options.logger?.error({ err: error }, 'the OCR worker did not start');
      throw new AppError('unavailable', 'The menu photo reader could not start; text and CSV still work.');
    });
    return current;
  }

  async function stop(live: Promise<LiveWorker> | null) {
    if (current === live) current = null;
    await live?.then((w) => w.tesseract.terminate()).catch(() => undefined);
  }

  async function turn(signal?: AbortSignal): Promise<void> {
    if (!busy) {
      busy = true;
      return;
    }
    if (waiting.length >= options.maxWaiting) {
      throw new AppError('unavailable', `The menu photo reader is busy (${waiting.length} photos waiting): try again in a few seconds.`, {
        retry_after_seconds: Math.ceil(options.timeoutMs / 1000),
      });
    }
    await new Promise<void>((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener('abort', leave);
        resolve();
      };
      const leave = () => {
        waiting.splice(waiting.indexOf(go), 1);
        reject(new AppError('unavailable', 'The caller left before its photo was read.'));
      };
      waiting.push(go);
      signal?.addEventListener('abort', leave, { once: true });
    });
  }

  function next() {
    const go = waiting.shift();
    if (go) go();
    else busy = false;
  }

  return {
    async read(image, signal) {
      if (closed) throw new AppError('unavailable', 'pos is shutting down.');
      await turn(signal);
      if (closed) {
        next();
        throw new AppError('unavailable', 'pos is shutting down.');
      }
      const live = worker();
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      try {
        const { tesseract, died } = await live;
        const abandoned = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(new AppError('timeout', `Reading the photo took over ${options.timeoutMs / 1000} s: try a smaller or sharper photo.`)),
            options.timeoutMs,
          );
          onAbort = () => reject(new AppError('unavailable', 'The caller left before its photo was read.'));
          signal?.addEventListener('abort', onAbort, { once: true });
        });
        try {
          const result = await Promise.race([tesseract.recognize(image), died, abandoned]);
          return result.data.text;
        } catch (error) {
          if (closed) throw new AppError('unavailable', 'pos is shutting down.');
          if (AppError.is(error)) {
            await stop(live);
            throw error;
          }
          // Tesseract rejects an image it cannot decode with this message and keeps working.
          if (String(error).includes('read image')) throw unreadable('its pixels could not be decoded');
          await stop(live);
          options.logger?.error({ err: error }, 'OCR failed');
          throw new AppError('unavailable', 'The menu photo reader failed on this photo; try again or send the menu as text.');
        }
      } finally {
        clearTimeout(timer);
        if (onAbort) signal?.removeEventListener('abort', onAbort);
        next();
      }
    },
    async close() {
      closed = true;
      for (const go of waiting.splice(0)) go();
      await stop(current);
    },
  };
}

type LiveWorker = { tesseract: Worker; died: Promise<never> };

async function startWorker(): Promise<LiveWorker> {
  // Loaded with the first photo, as the worker is, not at pos's start.
  const { createWorker, OEM } = await import('tesseract.js');
  const tesseract = await createWorker('eng', OEM.LSTM_ONLY, {
    langPath: LANG_PATH,
    gzip: true,
    // The traineddata is read where the package put it; no copy is written to a cache.
    cachePath: LANG_PATH,
    cacheMethod: 'none',
    // Without a handler tesseract.js throws a refused job's error again, uncaught, in this thread.
    errorHandler: () => undefined,
  });
  // A worker thread that dies (out of memory) fails the photo it was reading rather than the process.
  const thread = (tesseract as Worker & { worker?: NodeJS.EventEmitter }).worker;
  const died = new Promise<never>((_, reject) => {
    thread?.on('error', (error) => reject(error instanceof Error ? error : new Error(String(error))));
    thread?.once('exit', (code) => reject(new Error(`the OCR worker thread exited (${code})`)));
  });
  died.catch(() => undefined);
  return { tesseract, died };
}
