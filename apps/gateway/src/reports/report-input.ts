import { calendarDate, isTimeZone } from '@ctk/shared';
import { z } from 'zod';
import { limitField } from '../routes/pagination.js';
import { handleField } from '../identity/organization-fields.js';

const timeZone = z
  .string()
  .refine(isTimeZone, 'time_zone must be an IANA time zone name, such as Europe/London or America/New_York')
  .default('UTC');

export const reportParams = z.object({ handle: handleField });

/** Local calendar dates in `time_zone` (UTC by default), both included. Books caps how many days a report spans. An unknown parameter is a 422, as a misspelt one would otherwise go unnoticed. */
const range = {
  from: calendarDate('from'),
  to: calendarDate('to'),
  time_zone: timeZone,
};
const fromNotAfterTo = (q: { from: string; to: string }) => q.from <= q.to;
const FROM_AFTER_TO = { message: 'from must not be after to', path: ['from'] };

export const PERIODS = ['day', 'month'] as const;

export const salesQuery = z
  .object({
    ...range,
    period: z.enum(PERIODS, { error: `period must be one of ${PERIODS.join(', ')}` }).default('day'),
  })
  .strict()
  .refine(fromNotAfterTo, FROM_AFTER_TO);

export const topItemsQuery = z
  .object({
    ...range,
    limit: limitField.default(10),
  })
  .strict()
  .refine(fromNotAfterTo, FROM_AFTER_TO);

export const busyHoursQuery = z.object(range).strict().refine(fromNotAfterTo, FROM_AFTER_TO);

/** The end of `at` (today by default) in `time_zone`. */
export const balancesQuery = z
  .object({
    at: calendarDate('at').optional(),
    time_zone: timeZone,
  })
  .strict();
