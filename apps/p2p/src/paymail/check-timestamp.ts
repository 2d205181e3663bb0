import { AppError } from '@ctk/shared';

// ISO 8601 with a time and a zone, as paymail senders write `dt` (new Date().toISOString()).
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A sender's `dt` must be an ISO 8601 instant within the tolerance of now, either way (no replays of old requests). */
export function checkTimestamp(dt: string, toleranceSeconds: number, now = new Date()): void {
  const at = ISO_INSTANT.test(dt) ? Date.parse(dt) : Number.NaN;
  if (Number.isNaN(at))
    throw new AppError(
      'validation_failed',
      `dt ${JSON.stringify(dt.slice(0, 40))} is not an ISO 8601 time such as 2026-03-02T10:00:00.000Z.`,
      { field: 'dt' },
    );
  const skew = Math.abs(now.getTime() - at) / 1000;
  if (skew > toleranceSeconds) {
    throw new AppError(
      'validation_failed',
      `dt is ${Math.round(skew)} s from this server's time; at most ${toleranceSeconds} s is accepted.`,
      { field: 'dt', server_time: now.toISOString() },
    );
  }
}
