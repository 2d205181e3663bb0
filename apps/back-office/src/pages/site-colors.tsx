import { Field } from '../form.js';
import { COLOR_FIELDS, type Colors } from '../site.js';

type Props = { colors: Colors; problems: Record<string, string>; onChange: (colors: Colors) => void };

/** The site's four colours, each with what it colours and, when it is hard to read on its background, why. */
export function SiteColorFields({ colors, problems, onChange }: Props) {
  return (
    <fieldset class="site-colors">
      <legend>Colours</legend>
      <p class="hint">Each must be easy to read on the colour behind it (a contrast of at least 4.5 to 1).</p>
      {COLOR_FIELDS.map(({ key, label, hint }) => (
        <Field
          key={key}
          type="color"
          label={label}
          name={`color-${key}`}
          value={colors[key]}
          hint={`${hint} Now ${colors[key]}.`}
          // Named by the label alone: the hint, with the colour in it, changes as it is picked.
          aria-label={label}
          problem={problems[`colors.${key}`]}
          onInput={(event) => onChange({ ...colors, [key]: (event.currentTarget as HTMLInputElement).value })}
        />
      ))}
    </fieldset>
  );
}
