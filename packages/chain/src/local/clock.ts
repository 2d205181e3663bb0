import { AppError } from '@ctk/shared';

/** The most one `POST /clock` moves the clock: ten years of 365 days. */
export const MAX_CLOCK_ADVANCE_SECONDS = 10 * 365 * 24 * 60 * 60;

/**
 * The latest the clock may read: a block header's time is an unsigned 32-bit number (2106-02-07), less a day
 * for blocks that run ahead of the clock (a block's time must pass the median of the previous 11, so blocks
 * mined faster than one a second creep ahead, a second every six blocks).
 */
export const MAX_CLOCK_SECONDS = 0xffffffff - 24 * 60 * 60;

/**
 * The local chain's clock: real time plus an offset a test moves forward (`advance`), so that what waits for
 * time (a time-locked transaction) can be tried without waiting. Blocks take their time from it. It never
 * goes back: not by its offset, which only grows, nor when the machine's clock is set back.
 */
export class ChainClock {
  private latest = 0;

  constructor(
    private offset = 0,
    private readonly realNow: () => number = Date.now,
  ) {}

  /** How far ahead of real time the clock is, in seconds. */
  get offsetSeconds(): number {
    return this.offset;
  }

  /** The chain's time, in unix seconds. */
  now(): number {
    this.latest = Math.max(this.latest, Math.floor(this.realNow() / 1000) + this.offset);
    return this.latest;
  }

  /** The chain's time in milliseconds (for timestamps), never before `now()`. */
  nowMs(): number {
    return Math.max(this.realNow() + this.offset * 1000, this.now() * 1000);
  }

  /** Moves the clock `seconds` forward (an integer from 1 to MAX_CLOCK_ADVANCE_SECONDS); answers the new time. */
  advance(seconds: unknown): number {
    if (!Number.isSafeInteger(seconds) || (seconds as number) < 1 || (seconds as number) > MAX_CLOCK_ADVANCE_SECONDS) {
      throw new AppError(
        'validation_failed',
        `advance_seconds must be an integer from 1 to ${MAX_CLOCK_ADVANCE_SECONDS} (ten years); the clock only goes forward`,
      );
    }
    const now = this.now();
    if (now + (seconds as number) > MAX_CLOCK_SECONDS) {
      throw new AppError(
        'validation_failed',
        `The clock reads ${now}: ${seconds as number} seconds more would pass ${MAX_CLOCK_SECONDS} (${new Date(MAX_CLOCK_SECONDS * 1000).toISOString()}), past which a block header cannot hold the time`,
      );
    }
    this.offset += seconds as number;
    return this.now();
  }
}
