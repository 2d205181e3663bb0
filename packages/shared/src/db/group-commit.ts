import { observeBatch } from '../metrics/metrics.js';
import { activeTraceContext, inBatchSpan, type TraceContext } from '../tracing/tracing.js';

export type GroupCommitOptions<T> = {
  /** The most items one batch takes. */
  maxBatch: number;
  /** The name each write is traced under, in every caller's trace (inBatchSpan). */
  spanName: string;
  /** How many batches may be written at once (1 unless given): each lane writes one batch at a time. */
  lanes?: number;
  /** Items of one key never share a batch: the later waits for a batch of its own, in the order they came. */
  keyOf?: (item: T) => string;
};

/**
 * Group commit: callers submit one item each and wait for their own result, while the items are written in
 * batches. A batch is written as soon as a lane is free; what arrives while every lane writes waits for the
 * next batch. Under load batches grow (one round trip for many items), and a lone item is written at once,
 * with no timer to wait for. `write` answers one result per item, in order; when it throws, every item of the
 * batch fails with its error. Each write is traced in every caller's trace (inBatchSpan), its statements under
 * the first caller's, and its size counted in ctk_group_commit_batch_size under `spanName`.
 */
export function groupCommit<T, R>(write: (batch: T[]) => Promise<R[]>, options: GroupCommitOptions<T>): (item: T) => Promise<R> {
  type Waiting = { item: T; trace: TraceContext; resolve(result: R): void; reject(error: unknown): void };
  const { maxBatch, spanName, lanes = 1, keyOf } = options;
  let queue: Waiting[] = [];
  let writing = 0;

  /** The next batch: the first items in the queue, none sharing a key with one taken before it. */
  function take(): Waiting[] {
    if (!keyOf) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      return batch;
    }
    const keys = new Set<string>();
    const batch: Waiting[] = [];
    const left: Waiting[] = [];
    for (const waiting of queue) {
      const key = keyOf(waiting.item);
      if (batch.length < maxBatch && !keys.has(key)) {
        keys.add(key);
        batch.push(waiting);
      } else left.push(waiting);
    }
    queue = left;
    return batch;
  }

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const batch = take();
      observeBatch(spanName, batch.length);
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
    writing--;
  }

  return (item) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, trace: activeTraceContext(), resolve, reject });
      if (writing < lanes) {
        writing++;
        setImmediate(() => void drain());
      }
    });
}
