import { calendarDate } from '@ctk/shared';
import { z } from 'zod';
import { limitField } from '../routes/pagination.js';
import { handleField } from '../identity/organization-fields.js';

const timeZone = z.string().default('UTC').describe('An IANA time zone name, such as Europe/London or America/New_York');

export const reportParams = z.object({ handle: handleField });

/**
 * Local calendar dates in `time_zone` (UTC by default), both included. Books owns the range's rules (the time
 * zone, `from` not after `to`, how many days a report spans) and names the field it refuses. An unknown
 * parameter is a 422, as a misspelt one would otherwise go unnoticed.
 */
const range = {
  from: calendarDate('from'),
  to: calendarDate('to'),
  time_zone: timeZone,
};

export const PERIODS = ['day', 'month'] as const;

export const salesQuery = z
  .object({
    ...range,
    period: z.enum(PERIODS, { error: `period must be one of ${PERIODS.join(', ')}` }).default('day'),
  })
  .strict();

export const topItemsQuery = z
  .object({
    ...range,
    limit: limitField.default(10),
  })
  .strict();

export const busyHoursQuery = z.object(range).strict();

/** The end of `at` (today by default) in `time_zone`. */
export const balancesQuery = z
  .object({
    at: calendarDate('at').optional(),
    time_zone: timeZone,
  })
  .strict();
