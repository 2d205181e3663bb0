import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { Problem, Refusal, useSubmit } from '../form.js';
import { asAdminOnly, clockTime, draftOf, fieldProblems, hoursOf, liveOverride, type Draft, type Hours } from '../hours.js';
import { SpecialDays } from './special-days.js';
import { WeekHours } from './week-hours.js';

type Props = { handle: string; saved: Hours; onSaved: (hours: Hours) => void };

/**
 * The shop's hours as an owner edits them: the usual week and special days, saved as a whole (`PUT .../hours`,
 * the sign set by hand kept while it lasts). What federation refuses is shown beside the time, date or note it
 * names.
 */
export function HoursEditor({ handle, saved, onSaved }: Props) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [done, setDone] = useState(false);
  const edit = (change: Partial<Draft>, structural = false) => {
    setDone(false);
    // A day added or removed moves the special days' places: what was said of them no longer fits.
    if (structural) setProblems({});
    setDraft({ ...draft, ...change });
  };
  const { submit, busy, problem } = useSubmit(async () => {
    setDone(false);
    setProblems({});
    const { hours, editorField } = hoursOf(draft, liveOverride(saved.override));
    let answer: Hours;
    try {
      answer = await api<Hours>(`/api/v1/orgs/${encodeURIComponent(handle)}/hours`, { method: 'PUT', body: hours });
    } catch (error) {
      const found = fieldProblems(error, editorField);
      if (!found) throw asAdminOnly(error);
      setProblems(found);
      const elsewhere = Object.entries(found)
        .filter(([field]) => !/^(mon|tue|wed|thu|fri|sat|sun)\.|^special\[\d+\]\.(date|note|periods\[)/.test(field))
        .map(([, message]) => message);
      const count = Object.keys(found).length - elsewhere.length;
      throw new Refusal(
        [
          count > 0 ? `Not saved: ${count === 1 ? 'one entry needs' : `${count} entries need`} a look, marked above in red.` : 'Not saved.',
          ...elsewhere,
        ].join(' '),
      );
    }
    setDraft(draftOf(answer));
    onSaved(answer);
    setDone(true);
  });
  return (
    <section class="card" aria-labelledby="hours-title">
      <h2 id="hours-title">Opening hours</h2>
      <p class="hint">
        In the shop&rsquo;s time zone. A closing time earlier than the opening time runs past midnight: {clockTime('18:00')} to{' '}
        {clockTime('02:00')} on Saturday closes on Sunday morning.
      </p>
      <form onSubmit={submit} noValidate aria-label="Opening hours">
        <h3>Every week</h3>
        <WeekHours week={draft.week} problems={problems} onChange={(week) => edit({ week })} />
        <h3>Special days</h3>
        <SpecialDays
          days={draft.special}
          problems={problems}
          onChange={(special) => edit({ special }, special.length !== draft.special.length)}
        />
        <Problem problem={problem} />
        <p class="actions save-bar">
          <button type="submit" disabled={busy}>
            {busy ? 'Saving…' : 'Save the hours'}
          </button>
          {done && <span role="status">Saved: the sign follows the new hours.</span>}
        </p>
      </form>
    </section>
  );
}
