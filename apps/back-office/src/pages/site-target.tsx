import { Field } from '../form.js';
import type { Draft, S3Target } from '../site.js';

type Props = { draft: Draft; problems: Record<string, string>; onChange: (change: Partial<Draft>) => void };

const S3_FIELDS: { key: keyof S3Target; label: string; hint?: string; required?: boolean }[] = [
  { key: 'endpoint', label: 'Endpoint', hint: 'The store’s address, e.g. https://s3.eu-west-1.amazonaws.com', required: true },
  { key: 'bucket', label: 'Bucket', required: true },
  { key: 'region', label: 'Region', hint: 'Left empty, us-east-1.' },
  { key: 'prefix', label: 'Folder in the bucket', hint: 'e.g. www/ (left empty, the bucket’s root).' },
  { key: 'access_key_id', label: 'Access key ID', required: true },
];

/** Where the site is published: a folder on this server, or a bucket of S3-compatible storage (its secret written, never shown). */
export function SiteTargetFields({ draft, problems, onChange }: Props) {
  const s3 = (key: keyof S3Target) => (event: Event) =>
    onChange({ s3: { ...draft.s3, [key]: (event.currentTarget as HTMLInputElement).value } });
  return (
    <fieldset>
      <legend>Publish to</legend>
      <label class="check">
        <input type="radio" name="target" checked={draft.kind === 'folder'} onChange={() => onChange({ kind: 'folder' })} />
        <span>A folder on this server (any web host can serve it)</span>
      </label>
      <label class="check">
        <input type="radio" name="target" checked={draft.kind === 's3'} onChange={() => onChange({ kind: 's3' })} />
        <span>S3-compatible storage</span>
      </label>
      {draft.kind === 's3' && (
        <div class="stack">
          {S3_FIELDS.map(({ key, label, hint, required }) => (
            <Field
              key={key}
              label={label}
              name={`s3-${key}`}
              value={draft.s3[key]}
              hint={hint}
              required={required}
              autoComplete="off"
              spellcheck={false}
              problem={problems[`target.${key}`]}
              onInput={s3(key)}
            />
          ))}
          <Field
            label="Secret access key"
            name="s3-secret"
            type="password"
            autoComplete="new-password"
            value={draft.secret}
            hint={draft.secretLast4 ? `Set (ends in ${draft.secretLast4}). Leave empty to keep it.` : 'Not set yet.'}
            problem={problems['target.secret_access_key']}
            onInput={(event) => onChange({ secret: (event.currentTarget as HTMLInputElement).value })}
          />
        </div>
      )}
    </fieldset>
  );
}
