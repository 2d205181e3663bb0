import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { describe, Problem, Refusal } from '../form.js';
import { basisPointsOf } from '../format.js';

type Section = { name: string; item_ids: string[] };
type Menu = { version: number; sections: Section[]; tip_basis_points: number[] };
type Named = { id: string; name: string };

/** Moves the element at `from` one place up (-1) or down (+1); the list as it was at an end. */
function moved<T>(list: T[], from: number, by: -1 | 1): T[] {
  const to = from + by;
  if (to < 0 || to >= list.length) return list;
  const copy = [...list];
  [copy[from], copy[to]] = [copy[to]!, copy[from]!];
  return copy;
}

const percentOf = (basisPoints: number) =>
  `${Math.trunc(basisPoints / 100)}${
    basisPoints % 100
      ? `.${String(basisPoints % 100)
          .padStart(2, '0')
          .replace(/0$/, '')}`
      : ''
  }`;

/**
 * The menu as the counter shows it: sections in order, each with its items in order, and the tip choices.
 * It is saved as a whole with the version it was read at (If-Match): when someone else saved it meanwhile,
 * pos refuses, the page says so in words and keeps this editor's changes, to save over theirs or to drop.
 */
export function MenuSections({ handle, items }: { handle: string; items: Named[] }) {
  const [menu, setMenu] = useState<Menu | null>(null);
  const [sections, setSections] = useState<Section[]>([]);
  const [tips, setTips] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [stale, setStale] = useState<number | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const url = `/api/v1/orgs/${handle}/menu`;
  const read = async () => {
    const current = await api<Menu>(url);
    setMenu(current);
    setSections(current.sections.map(({ name, item_ids }) => ({ name, item_ids })));
    setTips(current.tip_basis_points.map(percentOf).join(', '));
    setStale(null);
  };
  useEffect(() => void read().catch((error) => setProblem(describe(error))), [handle]);

  const save = async (version: number) => {
    setBusy(true);
    setProblem(null);
    setSaid(null);
    try {
      const tipBasisPoints = tips.trim() ? tips.split(',').map((tip) => basisPointsOf(tip)) : [];
      if (sections.some((section) => !section.name.trim())) throw new Refusal('Give each section a name.');
      const saved = await api<Menu>(url, {
        method: 'PUT',
        headers: { 'if-match': `"${version}"` },
        body: { sections: sections.map((s) => ({ name: s.name.trim(), item_ids: s.item_ids })), tip_basis_points: tipBasisPoints },
      });
      setMenu(saved);
      setStale(null);
      setSaid(`Saved: version ${saved.version}.`);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'precondition_failed') setStale(Number(error.details?.current_version ?? 0));
      else setProblem(describe(error));
    } finally {
      setBusy(false);
    }
  };
  const change = (index: number, patch: Partial<Section>) =>
    setSections((all) => all.map((s, i) => (i === index ? { ...s, ...patch } : s)));
  const nameOf = (id: string) => items.find((item) => item.id === id)?.name ?? 'An item no longer sold';

  if (!menu) return <Problem problem={problem} />;
  return (
    <section class="card" aria-labelledby="menu-title">
      <h2 id="menu-title">The menu at the counter</h2>
      <p class="muted">
        Sections in the order the counter shows them (version {menu.version}
        {menu.version === 0 ? ': not saved yet, so the counter groups items by category' : ''}).
      </p>
      {sections.map((section, index) => (
        <fieldset class="menu-section" key={index}>
          <legend>Section {index + 1}</legend>
          <label class="field">
            <span>Section name</span>
            <input
              value={section.name}
              maxLength={100}
              autoComplete="off"
              onInput={(event) => change(index, { name: (event.currentTarget as HTMLInputElement).value })}
            />
          </label>
          <ol class="menu-items">
            {section.item_ids.map((id, at) => (
              <li key={id}>
                <span>{nameOf(id)}</span>
                <button
                  type="button"
                  class="secondary"
                  aria-label={`Move ${nameOf(id)} up`}
                  disabled={at === 0}
                  onClick={() => change(index, { item_ids: moved(section.item_ids, at, -1) })}
                >
                  ↑
                </button>
                <button
                  type="button"
                  class="secondary"
                  aria-label={`Move ${nameOf(id)} down`}
                  disabled={at === section.item_ids.length - 1}
                  onClick={() => change(index, { item_ids: moved(section.item_ids, at, 1) })}
                >
                  ↓
                </button>
                <button
                  type="button"
                  class="secondary"
                  aria-label={`Take ${nameOf(id)} out of ${section.name || 'the section'}`}
                  onClick={() => change(index, { item_ids: section.item_ids.filter((other) => other !== id) })}
                >
                  ✕
                </button>
              </li>
            ))}
          </ol>
          <label class="field">
            <span>Add an item to {section.name || 'this section'}</span>
            <select
              value=""
              onChange={(event) => {
                const id = (event.currentTarget as HTMLSelectElement).value;
                if (id) change(index, { item_ids: [...section.item_ids, id] });
              }}
            >
              <option value="">Choose an item…</option>
              {items
                .filter((item) => !section.item_ids.includes(item.id))
                .map((item) => (
                  <option key={item.id} value={item.id}>
                    {item.name}
                  </option>
                ))}
            </select>
          </label>
          <p class="actions">
            <button type="button" class="secondary" disabled={index === 0} onClick={() => setSections((all) => moved(all, index, -1))}>
              Move section up
            </button>
            <button
              type="button"
              class="secondary"
              disabled={index === sections.length - 1}
              onClick={() => setSections((all) => moved(all, index, 1))}
            >
              Move section down
            </button>
            <button type="button" class="secondary" onClick={() => setSections((all) => all.filter((_, i) => i !== index))}>
              Remove section {index + 1}
            </button>
          </p>
        </fieldset>
      ))}
      <p class="actions">
        <button type="button" class="secondary" onClick={() => setSections((all) => [...all, { name: '', item_ids: [] }])}>
          Add a section
        </button>
      </p>
      <label class="field">
        <span>Tip choices (%)</span>
        <input
          value={tips}
          autoComplete="off"
          inputMode="decimal"
          onInput={(event) => setTips((event.currentTarget as HTMLInputElement).value)}
          aria-describedby="tips-hint"
        />
        <small id="tips-hint" class="hint">
          Up to six, separated by commas, e.g. 10, 15, 20. &ldquo;None&rdquo; and a custom tip are always offered.
        </small>
      </label>
      {stale !== null && (
        <div class="notice" role="alert">
          <p>
            Someone else saved the menu while you were editing it (it is now at version {stale}). Your changes are still here, not saved.
          </p>
          <p class="actions">
            <button type="button" disabled={busy} onClick={() => save(stale)}>
              Save mine over theirs
            </button>
            <button type="button" class="secondary" disabled={busy} onClick={() => read().catch((error) => setProblem(describe(error)))}>
              Drop mine and load theirs
            </button>
          </p>
        </div>
      )}
      <Problem problem={problem} />
      <p class="actions">
        <button type="button" disabled={busy} onClick={() => save(menu.version)}>
          Save the menu
        </button>
        {said && <span role="status">{said}</span>}
      </p>
    </section>
  );
}
