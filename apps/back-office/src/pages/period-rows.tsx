import { Field } from '../form.js';
import { clockTime, pastMidnight, type Period } from '../hours.js';

/** The most periods the editor offers a day (federation takes 10 on a special day, 50 a week). */
const MOST = 4;
const ORDINALS = ['first', 'second', 'third', 'fourth'];

type Props = {
  /** A prefix unique on the page, for the inputs' names. */
  name: string;
  /** What the next day is called, for a period past midnight ("Tuesday", "the next day"). */
  nextDay: string;
  periods: Period[];
  /** The editor's field of a period's time, to find the API's problem with it. */
  field: (k: number, part: 'opens' | 'closes') => string;
  problems: Record<string, string>;
  onChange: (periods: Period[]) => void;
};

/** A day's opening periods: each an opening and a closing time, with what is wrong beside it; another added, one removed. */
export function PeriodRows({ name, nextDay, periods, field, problems, onChange }: Props) {
  const set = (k: number, part: 'opens' | 'closes', value: string) =>
    onChange(periods.map((period, i) => (i === k ? { ...period, [part]: value } : period)));
  return (
    <>
      {periods.map((period, k) => (
        <div class="period" key={k}>
          <Field
            type="time"
            label="Opens"
            name={`${name}-${k}-opens`}
            value={period.opens}
            problem={problems[field(k, 'opens')]}
            onInput={(event) => set(k, 'opens', event.currentTarget.value)}
          />
          <Field
            type="time"
            label="Closes"
            name={`${name}-${k}-closes`}
            value={period.closes}
            problem={problems[field(k, 'closes')]}
            onInput={(event) => set(k, 'closes', event.currentTarget.value)}
          />
          {pastMidnight(period) && (
            <small class="hint period-note">
              {period.closes === '00:00'
                ? 'Closes at midnight.'
                : `Runs past midnight: closes at ${clockTime(period.closes)} on ${nextDay}.`}
            </small>
          )}
          {periods.length > 1 && (
            <button type="button" class="link remove" onClick={() => onChange(periods.filter((_, i) => i !== k))}>
              Remove the {ORDINALS[k] ?? 'last'} period
            </button>
          )}
        </div>
      ))}
      {periods.length < MOST && (
        <button type="button" class="link add-period" onClick={() => onChange([...periods, { opens: '', closes: '' }])}>
          {periods.length === 0 ? 'Add opening hours' : periods.length === 1 ? 'Add a second period' : 'Add another period'}
        </button>
      )}
    </>
  );
}
