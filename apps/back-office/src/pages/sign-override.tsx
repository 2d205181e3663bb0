import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { Field, Problem, Refusal, useSubmit } from '../form.js';
import { asAdminOnly, fieldProblems, liveOverride, type Hours, type SignOverride } from '../hours.js';
import { isoInZone, nextLocalTime, whenFrom } from '../sign-words.js';

/** How long the sign may be set for, in minutes; "time": until a time of day chosen. */
const LENGTHS = [30, 60, 120, 180, 240, 480];
const lengthWords = (minutes: number) => (minutes < 60 ? `${minutes} minutes` : minutes === 60 ? '1 hour' : `${minutes / 60} hours`);

type Props = { handle: string; zone: string; saved: Hours; onSaved: (hours: Hours) => void };

/**
 * "Closed now" or "Open late" for a while, whatever the hours say (the hours' `override`, until a time at most
 * 7 days ahead): the sign goes back to the hours by itself when it ends, or at once on request.
 */
export function SignOverrideCard({ handle, zone, saved, onSaved }: Props) {
  const active = liveOverride(saved.override);
  const [length, setLength] = useState('60');
  const [problems, setProblems] = useState<Record<string, string>>({});
  // The choices say until when from now: read again while the page is open.
  const [, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  const put = async (override: SignOverride | null) => {
    setProblems({});
    const hours = { regular: saved.regular, special: saved.special, override };
    try {
      onSaved(await api<Hours>(`/api/v1/orgs/${encodeURIComponent(handle)}/hours`, { method: 'PUT', body: hours }));
    } catch (error) {
      const found = fieldProblems(error);
      if (!found) throw asAdminOnly(error);
      setProblems(found);
      throw new Refusal('The sign is not changed: see the marked entry.');
    }
  };
  const set = useSubmit(async (form) => {
    const text = (name: string) => String(form.get(name) ?? '').trim();
    if (length === 'time' && !text('until_time')) {
      setProblems({ 'override.until': 'Choose the time the sign goes back to your hours.' });
      throw new Refusal('The sign is not changed: see the marked entry.');
    }
    const until = length === 'time' ? nextLocalTime(text('until_time'), zone) : Date.now() + Number(length) * 60_000;
    const note = text('note');
    await put({ state: text('state') === 'open' ? 'open' : 'closed', until: isoInZone(until, zone), ...(note ? { note } : {}) });
    (document.getElementById('sign-override') as HTMLFormElement | null)?.reset();
    setLength('60');
  });
  const end = useSubmit(() => put(null));
  return (
    <section class="card" aria-labelledby="override-title">
      <h2 id="override-title">Change the sign now</h2>
      {active ? (
        <form class="next override-on" onSubmit={end.submit}>
          <p>
            The sign says <strong>{active.state === 'open' ? 'Open' : 'Closed'}</strong> until {whenFrom(active.until, zone)}, whatever your
            hours say{active.note ? `: ${active.note}` : ''}.
          </p>
          <Problem problem={end.problem} />
          <button type="submit" class="secondary" disabled={end.busy}>
            Back to the usual hours now
          </button>
        </form>
      ) : (
        <p class="hint">Closing early, or open late for an event? Change the sign for a while: it goes back to your hours by itself.</p>
      )}
      <form id="sign-override" onSubmit={set.submit} noValidate aria-label="Change the sign now">
        <fieldset class="options">
          <legend>The sign says</legend>
          <label class="check">
            <input type="radio" name="state" value="closed" defaultChecked />
            <span>Closed now</span>
          </label>
          <label class="check">
            <input type="radio" name="state" value="open" />
            <span>Open now (open late)</span>
          </label>
        </fieldset>
        <label class="field">
          <span>For</span>
          <select
            name="length"
            value={length}
            aria-describedby={problems['override.until'] && length !== 'time' ? 'override-until-problem' : undefined}
            onChange={(event) => setLength(event.currentTarget.value)}
          >
            {LENGTHS.map((minutes) => (
              <option key={minutes} value={String(minutes)}>
                {lengthWords(minutes)} (until {whenFrom(new Date(Date.now() + minutes * 60_000).toISOString(), zone)})
              </option>
            ))}
            <option value="time">Until a time I choose</option>
          </select>
          {problems['override.until'] && length !== 'time' && (
            <small id="override-until-problem" class="field-problem">
              {problems['override.until']}
            </small>
          )}
        </label>
        {length === 'time' && <Field type="time" label="Until" name="until_time" required problem={problems['override.until']} />}
        <Field
          label="Note for customers"
          name="note"
          maxLength={140}
          autoComplete="off"
          hint="Optional, e.g. At the market today, back at 3."
          problem={problems['override.note']}
        />
        <Problem problem={set.problem} />
        <button type="submit" disabled={set.busy}>
          Put up the sign
        </button>
      </form>
    </section>
  );
}
