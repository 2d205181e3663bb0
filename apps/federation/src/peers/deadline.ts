import type { AppError } from '@ctk/shared';

/** A signal that aborts, with the given error as its reason, once the time is up. */
export type Deadline = { signal: AbortSignal; clear: () => void };

/** Starts the one timer the whole exchange (DNS, connects, redirects, bodies) runs under. */
export function startDeadline(timeoutMs: number, error: () => AppError): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(error()), timeoutMs);
  timer.unref();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

/** The promise's outcome, or the signal's reason if it aborts first. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
