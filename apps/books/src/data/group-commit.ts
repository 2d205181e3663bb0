import { activeTraceContext, inBatchSpan, type TraceContext } from '@ctk/shared';

/**
 * Group commit: callers submit one item each and wait for their own result, while the items are
 * written in batches. A batch is written as soon as nothing else is being written; what arrives during a
 * write waits for the next batch. Under load batches grow (one round trip for many entries), and a
 * lone item is written at once, with no timer to wait for. Each write is traced as `spanName` in every
 * caller's trace (inBatchSpan), its statements under the first caller's.
 */
export function groupCommit<T, R>(write: (batch: T[]) => Promise<R[]>, maxBatch: number, spanName: string): (item: T) => Promise<R> {
  type Waiting = { item: T; trace: TraceContext; resolve(result: R): void; reject(error: unknown): void };
  let queue: Waiting[] = [];
  let writing = false;

  async function drain(): Promise<void> {
    writing = true;
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      try {
        const results = await inBatchSpan(
          spanName,
          batch.map((waiting) => waiting.trace),
          () => write(batch.map((waiting) => waiting.item)),
        );
        batch.forEach((waiting, i) => waiting.resolve(results[i] as R));
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    writing = false;
  }

  return (item) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, trace: activeTraceContext(), resolve, reject });
      if (!writing) setImmediate(() => void drain());
      writing = true;
    });
}
