import type { Hours as HoursMessage } from '@ctk/proto/ctk/federation/v1/federation';
import type { Hours, Weekday } from './hours.js';

/** Hours as the API shows them, in the shop's time zone. */
export function toHoursMessage(hours: Hours, timeZone: string): HoursMessage {
  return { ...hours, timeZone };
}

/** Hours as sent (the gateway checked their shape; checkHours checks their rules). */
export function fromHoursMessage(message: HoursMessage | undefined): Hours {
  return {
    regular: (message?.regular ?? []).map(({ day, opens, closes }) => ({ day: day as Weekday, opens, closes })),
    special: (message?.special ?? []).map(({ date, periods, note }) => ({
      date,
      periods: periods.map(({ opens, closes }) => ({ opens, closes })),
      ...(note === undefined ? {} : { note }),
    })),
    ...(message?.override
      ? {
          override: {
            state: message.override.state as 'open' | 'closed',
            until: message.override.until,
            ...(message.override.note === undefined ? {} : { note: message.override.note }),
          },
        }
      : {}),
  };
}

/** No hours set: the sign says so (reason no_hours). */
export const NO_HOURS: Hours = { regular: [], special: [] };
