import { useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { Field, Problem, Refusal, useSubmit } from '../form.js';
import { asAdminOnly, draftOf, fieldProblems, settingsOf, siteUrl, type Draft, type Site } from '../site.js';
import { SiteColorFields } from './site-colors.js';
import { SiteSections } from './site-sections.js';
import { SiteTargetFields } from './site-target.js';

type Props = { handle: string; site: Site; onSaved: (site: Site) => void; onStale: () => Promise<Site> };

/**
 * The site's settings as an owner edits them, saved as a whole with the version read (If-Match). What commerce
 * refuses is shown beside the field it names (an unreadable colour beside that colour); when someone else
 * saved meanwhile, the page says so and shows theirs.
 */
export function SiteEditor({ handle, site, onSaved, onStale }: Props) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(site));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [done, setDone] = useState(false);
  const [stale, setStale] = useState(false);
  const edit = (change: Partial<Draft>) => {
    setDone(false);
    setDraft({ ...draft, ...change });
  };
  const { submit, busy, problem } = useSubmit(async () => {
    setDone(false);
    setStale(false);
    setProblems({});
    let answer: Site;
    try {
      answer = await api<Site>(siteUrl(handle), { method: 'PUT', headers: { 'if-match': `"${site.version}"` }, body: settingsOf(draft) });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'precondition_failed') {
        // Theirs replaces this editor's draft: the page said it would reload.
        setDraft(draftOf(await onStale()));
        setStale(true);
        return;
      }
      const found = fieldProblems(error);
      if (!found) throw asAdminOnly(error, 'change the site');
      setProblems(found);
      const count = Object.keys(found).length;
      throw new Refusal(`Not saved: ${count === 1 ? 'one setting needs' : `${count} settings need`} a look, marked above in red.`);
    }
    setDraft(draftOf(answer));
    onSaved(answer);
    setDone(true);
  });
  const text = (name: 'title' | 'tagline') => (event: Event) => edit({ [name]: (event.currentTarget as HTMLInputElement).value });
  return (
    <section class="card" aria-labelledby="editor-title">
      <h2 id="editor-title">Settings</h2>
      <form onSubmit={submit} noValidate aria-label="Site settings">
        <h3>Words</h3>
        <Field
          label="Title"
          name="title"
          value={draft.title}
          maxLength={80}
          autoComplete="off"
          onInput={text('title')}
          hint="Left empty, your shop’s name."
          problem={problems.title}
        />
        <Field
          label="Tagline"
          name="tagline"
          value={draft.tagline}
          maxLength={160}
          autoComplete="off"
          onInput={text('tagline')}
          hint="One line under the title."
          problem={problems.tagline}
        />
        <label class="field">
          <span>About us</span>
          <textarea
            name="about"
            rows={5}
            maxLength={2000}
            value={draft.about}
            aria-describedby="about-hint"
            aria-invalid={problems.about ? true : undefined}
            onInput={(event) => edit({ about: (event.currentTarget as HTMLTextAreaElement).value })}
          />
          {problems.about && <small class="field-problem">{problems.about}</small>}
          <small id="about-hint" class="hint">
            A blank line starts a new paragraph.
          </small>
        </label>
        <SiteColorFields colors={draft.colors} problems={problems} onChange={(colors) => edit({ colors })} />
        <SiteSections sections={draft.sections} onChange={(sections) => edit({ sections })} />
        <SiteTargetFields draft={draft} problems={problems} onChange={edit} />
        {stale && (
          <p class="notice" role="alert">
            Someone else changed the site while you were editing it. Their version is shown above now: make your changes again and save.
          </p>
        )}
        <Problem problem={problem} />
        <p class="actions save-bar">
          <button type="submit" disabled={busy}>
            {busy ? 'Saving…' : 'Save the site'}
          </button>
          {done && <span role="status">Saved. Publish to put it online.</span>}
        </p>
      </form>
    </section>
  );
}
