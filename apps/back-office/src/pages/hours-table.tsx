import { clockTime, DAY_NAMES, WEEKDAYS, type Hours, type Period } from '../hours.js';
import { calendarDay } from './special-days.js';

const periodsWords = (periods: Period[]) =>
  periods.length === 0 ? 'Closed' : periods.map((p) => `${clockTime(p.opens)} to ${clockTime(p.closes)}`).join(', ');

/** The hours as staff see them: read only (changing them is an admin's). */
export function HoursTable({ hours }: { hours: Hours }) {
  return (
    <section class="card" aria-labelledby="hours-title">
      <h2 id="hours-title">Opening hours</h2>
      <p class="next">You can see the hours here; only the shop&rsquo;s owner or an admin can change them and the sign.</p>
      <table class="lines hours-table">
        <caption class="visually-hidden">Every week</caption>
        <tbody>
          {WEEKDAYS.map((day) => (
            <tr key={day}>
              <th scope="row">{DAY_NAMES[day]}</th>
              <td>{periodsWords(hours.regular.filter((p) => p.day === day))}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Special days</h3>
      {hours.special.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <ul class="entries">
          {hours.special.map((day) => (
            <li key={day.date}>
              <strong>{calendarDay(day.date)}</strong>: {periodsWords(day.periods)}
              {day.note ? ` · ${day.note}` : ''}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
