import { DAY_NAMES, dayAfter, NEW_PERIOD, WEEKDAYS, type Period, type Weekday } from '../hours.js';
import { PeriodRows } from './period-rows.js';

type Props = {
  week: Record<Weekday, Period[]>;
  problems: Record<string, string>;
  onChange: (week: Record<Weekday, Period[]>) => void;
};

/** The usual week: a row per weekday with its opening and closing times, or closed all day. */
export function WeekHours({ week, problems, onChange }: Props) {
  const setDay = (day: Weekday, periods: Period[]) => onChange({ ...week, [day]: periods });
  const sameAsMonday = () =>
    onChange({
      ...week,
      ...Object.fromEntries((['tue', 'wed', 'thu', 'fri'] as const).map((day) => [day, week.mon.map((p) => ({ ...p }))])),
    });
  return (
    <div class="week">
      {WEEKDAYS.map((day) => (
        <fieldset class="day" key={day}>
          <legend>{DAY_NAMES[day]}</legend>
          <label class="check day-closed">
            <input
              type="checkbox"
              checked={week[day].length === 0}
              onChange={(event) => setDay(day, event.currentTarget.checked ? [] : [{ ...NEW_PERIOD }])}
            />
            <span>Closed</span>
          </label>
          {week[day].length > 0 && (
            <PeriodRows
              name={day}
              nextDay={DAY_NAMES[dayAfter(day)]}
              periods={week[day]}
              field={(k, part) => `${day}.${k}.${part}`}
              problems={problems}
              onChange={(periods) => setDay(day, periods)}
            />
          )}
          {day === 'mon' && week.mon.length > 0 && (
            <button type="button" class="link" onClick={sameAsMonday}>
              Same hours Tuesday to Friday
            </button>
          )}
        </fieldset>
      ))}
    </div>
  );
}
