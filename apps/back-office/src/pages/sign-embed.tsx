import { useState } from 'preact/hooks';

/** The badge for the shop's own web site: an `<img>` of the public sign, to paste, with a copy button. */
export function SignEmbed({ handle, name }: { handle: string; name: string }) {
  const [copied, setCopied] = useState<string | null>(null);
  const alt = `${name}: open or closed right now`.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
  const snippet = `<img src="${location.origin}/api/v1/shops/${handle}/sign?format=svg" alt="${alt}" width="220" height="40">`;
  const copy = () =>
    navigator.clipboard.writeText(snippet).then(
      () => setCopied('Copied: paste it into your web page.'),
      () => {
        (document.getElementById('sign-snippet') as HTMLTextAreaElement | null)?.select();
        setCopied('Selected: copy it with your keyboard or menu.');
      },
    );
  return (
    <section class="card" aria-labelledby="embed-title">
      <h2 id="embed-title">Show the sign on your web site</h2>
      <p>Paste this where the sign should show. It follows your hours and changes by itself; nothing else to install.</p>
      <label class="field">
        <span>The badge&rsquo;s code</span>
        <textarea id="sign-snippet" readOnly rows={5} value={snippet} spellcheck={false} />
      </label>
      <p class="actions">
        <button type="button" class="secondary" onClick={copy}>
          Copy the code
        </button>
        {copied && <span role="status">{copied}</span>}
      </p>
    </section>
  );
}
