import { SECTION_NAMES, type Draft } from '../site.js';

type Sections = Draft['sections'];
type Props = { sections: Sections; onChange: (sections: Sections) => void };

/** Moves the section at `from` one place up (-1) or down (+1). */
function moved(list: Sections, from: number, by: -1 | 1): Sections {
  const to = from + by;
  if (to < 0 || to >= list.length) return list;
  const copy = [...list];
  [copy[from], copy[to]] = [copy[to]!, copy[from]!];
  return copy;
}

/** The home page's sections in order, each shown or not, moved up and down. */
export function SiteSections({ sections, onChange }: Props) {
  return (
    <fieldset>
      <legend>Sections, top to bottom</legend>
      <p class="hint">A section with nothing to show (no place, no paymail, no text) is left out by itself.</p>
      <ol class="site-sections">
        {sections.map((section, at) => {
          const name = SECTION_NAMES[section.id];
          return (
            <li key={section.id}>
              <label class="check">
                <input
                  type="checkbox"
                  checked={section.shown}
                  onChange={(event) =>
                    onChange(sections.map((s, i) => (i === at ? { ...s, shown: (event.currentTarget as HTMLInputElement).checked } : s)))
                  }
                />
                <span>{name}</span>
              </label>
              <button
                type="button"
                class="secondary"
                aria-label={`Move ${name} up`}
                disabled={at === 0}
                onClick={() => onChange(moved(sections, at, -1))}
              >
                ↑
              </button>
              <button
                type="button"
                class="secondary"
                aria-label={`Move ${name} down`}
                disabled={at === sections.length - 1}
                onClick={() => onChange(moved(sections, at, 1))}
              >
                ↓
              </button>
            </li>
          );
        })}
      </ol>
    </fieldset>
  );
}
