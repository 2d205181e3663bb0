import { useId, useState } from 'preact/hooks';

/** A secret the API shows once (a new key): to copy now, with what it is for, until the reader says it is kept. */
export function SecretOnce({ title, secret, note, onDone }: { title: string; secret: string; note: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const titleId = useId();
  return (
    <section class="card secret" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <p>{note}</p>
      <output class="secret-value" aria-label="The new key">
        {secret}
      </output>
      <p class="actions">
        <button
          type="button"
          onClick={() =>
            navigator.clipboard.writeText(secret).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          I have kept it
        </button>
      </p>
    </section>
  );
}
