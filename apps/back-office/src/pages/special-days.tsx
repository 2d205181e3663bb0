import { Field } from '../form.js';
import { NEW_PERIOD, newSpecial, type SpecialDraft } from '../hours.js';
import { PeriodRows } from './period-rows.js';

type Props = { days: SpecialDraft[]; problems: Record<string, string>; onChange: (days: SpecialDraft[]) => void };

/** A date as a person reads it: "Fri, Dec 25, 2026" (a calendar date: no time zone moves it). */
export const calendarDay = (date: string) =>
  new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );

/** Special days: a date closed all day or with hours of its own, and a note customers see (a holiday, an event). */
export function SpecialDays({ days, problems, onChange }: Props) {
  const set = (j: number, change: Partial<SpecialDraft>) => onChange(days.map((day, i) => (i === j ? { ...day, ...change } : day)));
  return (
    <>
      {days.length === 0 && <p class="muted">None: the usual week applies every day.</p>}
      {days.map((day, j) => {
        const title = /^\d{4}-\d{2}-\d{2}$/.test(day.date) ? calendarDay(day.date) : 'A special day';
        return (
          <fieldset class="day" key={day.key}>
            <legend>{title}</legend>
            <Field
              type="date"
              label="Date"
              name={`special-${day.key}-date`}
              value={day.date}
              problem={problems[`special[${j}].date`]}
              onInput={(event) => set(j, { date: event.currentTarget.value })}
            />
            <label class="check">
              <input
                type="checkbox"
                checked={day.closed}
                onChange={(event) =>
                  set(j, { closed: event.currentTarget.checked, periods: day.periods.length ? day.periods : [{ ...NEW_PERIOD }] })
                }
              />
              <span>Closed all day</span>
            </label>
            {!day.closed && (
              <PeriodRows
                name={`special-${day.key}`}
                nextDay="the next day"
                periods={day.periods}
                field={(k, part) => `special[${j}].periods[${k}].${part}`}
                problems={problems}
                onChange={(periods) => set(j, { periods, closed: periods.length === 0 })}
              />
            )}
            <Field
              label="Note for customers"
              name={`special-${day.key}-note`}
              value={day.note}
              maxLength={140}
              autoComplete="off"
              hint="Optional, e.g. Closed for Christmas."
              problem={problems[`special[${j}].note`]}
              onInput={(event) => set(j, { note: event.currentTarget.value })}
            />
            <button type="button" class="secondary" onClick={() => onChange(days.filter((_, i) => i !== j))}>
              Remove this day
            </button>
          </fieldset>
        );
      })}
      <button type="button" class="secondary" onClick={() => onChange([...days, newSpecial()])}>
        Add a special day
      </button>
    </>
  );
}
