import { useState } from 'preact/hooks';

/**
 * A button that copies a text (a command to run elsewhere), saying in a status region that it did, or that
 * the browser refused (a page not served over HTTPS has no clipboard): then the text is to be selected by hand.
 */
export function CopyButton({
  text,
  label,
  copied,
  secondary = false,
}: {
  text: string;
  label: string;
  copied: string;
  secondary?: boolean;
}) {
  const [said, setSaid] = useState('');
  const copy = () => {
    const refused = () => setSaid('This browser did not let the page copy: select the text and copy it yourself.');
    if (!navigator.clipboard) return refused();
    navigator.clipboard.writeText(text).then(() => setSaid(copied), refused);
  };
  return (
    <>
      <button type="button" class={secondary ? 'secondary' : undefined} onClick={copy}>
        {label}
      </button>
      <span class="copied" role="status">
        {said}
      </span>
    </>
  );
}
