import { useEffect, useState } from 'preact/hooks';
import { toWif, type SignInKey } from './sign-in-key.js';

/**
 * A sign-in key's backup: a text file with its WIF and what to do with it, to download, or the WIF to copy.
 * Whoever has it can sign in as its owner, so it is offered, never shown on screen unasked.
 */
export function KeyBackup({ signInKey, name }: { signInKey: SignInKey; name: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    const text = [
      'Commerce Toolkit sign-in key',
      `did: ${signInKey.did}`,
      `key (WIF): ${toWif(signInKey)}`,
      '',
      `To sign in on another browser, open ${location.origin}/ and choose "Restore a key from its backup".`,
      'Anyone with this key can sign in as you: keep it like a password.',
      '',
    ].join('\n');
    const made = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [signInKey]);
  return (
    <p class="actions">
      {url && (
        <a class="button" href={url} download={`commerce-toolkit-key-${name}.txt`}>
          Download the backup
        </a>
      )}
      <button
        type="button"
        class="secondary"
        onClick={() =>
          navigator.clipboard.writeText(toWif(signInKey)).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        {copied ? 'Copied' : 'Copy the key'}
      </button>
    </p>
  );
}
