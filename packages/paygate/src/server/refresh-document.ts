import { AppError } from '@ctk/shared';
import { readDocument, type PublishedDocument } from './published-document.js';

/** After a failed fetch, try again within this long (or the document's max age, if shorter). */
const RETRY_AFTER_FAILURE_MS = 5_000;
/** An unknown kid asks for a refresh at most this often: a flood of made-up kids must not become a flood of fetches. */
const MIN_EARLY_REFRESH_MS = 5_000;
/** A document asking to be fetched more often than this is fetched this often. */
const MIN_MAX_AGE_SECONDS = 1;

export type DocumentSource = {
  current(): PublishedDocument | undefined;
  /** Resolves once a document is loaded; rejects when the first fetch fails (the source keeps trying). */
  ready(): Promise<void>;
  /** Fetches now if the last fetch is old enough: called when a credential names a kid the document lacks. */
  refreshSoon(): void;
  close(): void;
};

type Options = {
  url: string;
  timeoutMs: number;
  onChange(previous: PublishedDocument | undefined, next: PublishedDocument): void;
  onError(error: Error): void;
};

/**
 * Fetches the gate's published document at start, then again every `max_age_seconds` in the background
 * (the timer does not hold the process open). A failed fetch keeps the last document and tries again soon.
 */
export function refreshDocument(options: Options): DocumentSource {
  let document: PublishedDocument | undefined;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let lastEarlyAt = 0;
  let closed = false;

  const schedule = (ms: number) => {
    clearTimeout(timer);
    if (closed) return;
    timer = setTimeout(() => void fetchNow().catch(() => undefined), ms);
    timer.unref();
  };

  const fetchNow = (): Promise<void> => {
    inFlight ??= (async () => {
      try {
        const next = readDocument(await fetchJson(options.url, options.timeoutMs), document);
        if (!next)
          throw new AppError('unavailable', `The payment gate's published document at ${options.url} is not a ctk-paygate document.`);
        const previous = document;
        document = next;
        options.onChange(previous, next);
        schedule(Math.max(next.maxAgeSeconds, MIN_MAX_AGE_SECONDS) * 1000);
      } catch (error) {
        options.onError(error as Error);
        schedule(Math.min(RETRY_AFTER_FAILURE_MS, (document?.maxAgeSeconds ?? Infinity) * 1000));
        throw error;
      } finally {
        inFlight = undefined;
      }
    })();
    return inFlight;
  };

  const first = fetchNow();
  first.catch(() => undefined);
  return {
    current: () => document,
    ready: () => (document ? Promise.resolve() : first),
    refreshSoon() {
      if (inFlight || closed || Date.now() - lastEarlyAt < MIN_EARLY_REFRESH_MS) return;
      lastEarlyAt = Date.now();
      void fetchNow().catch(() => undefined);
    },
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}

async function fetchJson(url: string, timeoutMs: number): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' }, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new AppError('unavailable', `The payment gate's published document at ${url} is unreachable (${cause}).`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new AppError('unavailable', `The payment gate's published document at ${url} answered ${response.status}.`);
  }
  try {
    return await response.json();
  } catch {
    throw new AppError('unavailable', `The payment gate's published document at ${url} is not JSON.`);
  }
}
