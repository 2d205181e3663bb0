import type { Readable } from 'node:stream';
import { AppError } from '@ctk/shared';

/**
 * Open event streams per client address. A stream is anonymous and lives up to half an hour, each one a
 * call held open to pos: the per-minute allowance alone would let one address hold tens of thousands.
 */
export class EventStreamSlots {
  private readonly open = new Map<string, number>();

  constructor(private readonly max: number) {}

  /**
   * Opens a stream in one of `key`'s slots, or throws 429 `rate_limited` when all are taken. The slot is
   * given back when the stream closes (it ended, or the client went away), or at once if opening fails.
   */
  async openIn(key: string, open: () => Promise<Readable>): Promise<Readable> {
    const count = this.open.get(key) ?? 0;
    if (count >= this.max)
      throw new AppError(
        'rate_limited',
        `Too many open event streams: at most ${this.max} at once from one address. Close one, or retry after 60 s.`,
        { retry_after_seconds: 60 },
      );
    this.open.set(key, count + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (this.open.get(key) ?? 1) - 1;
      if (left > 0) this.open.set(key, left);
      else this.open.delete(key);
    };
    try {
      const stream = await open();
      stream.once('close', release);
      return stream;
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Streams open now for `key`. */
  count(key: string): number {
    return this.open.get(key) ?? 0;
  }
}
