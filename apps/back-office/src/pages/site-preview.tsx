import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import { describe, Problem } from '../form.js';
import { siteUrl } from '../site.js';

/**
 * The preview's page without its scripts (the Buy button's, which a preview does not run) and with its
 * stylesheet taken out: the frame inherits this page's Content-Security-Policy, which refuses an inline
 * `<style>`, so the stylesheet is given to the frame's document through the CSSOM instead, rule by rule.
 */
function framed(html: string): { page: string; css: string } {
  // Not through DOMParser: its document takes this page's policy too, and reports the `<style>` it parses.
  const css: string[] = [];
  const page = html
    .replace(/<style>([\s\S]*?)<\/style>/g, (_, text: string) => (css.push(text), ''))
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '');
  return { page, css: css.join('\n') };
}

/** A stylesheet's top-level rules, each whole (an `@media` block with its rules inside), for `insertRule`. */
function rulesOf(css: string): string[] {
  const rules: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < css.length; i++) {
    if (css[i] === '{') depth++;
    else if (css[i] === '}' && --depth === 0) {
      rules.push(css.slice(start, i + 1).trim());
      start = i + 1;
    }
  }
  return rules;
}

/**
 * The site's home page as a publish would make it now, from the saved settings, made again after each save
 * or on request. The frame is sandboxed: nothing in it runs (no script, form or navigation of this page); it
 * keeps this page's origin only for its stylesheet to be set from here.
 */
export function SitePreview({ handle, version }: { handle: string; version: number }) {
  const [html, setHtml] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [asked, setAsked] = useState(0);
  const frame = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    setProblem(null);
    api<{ html: string }>(`${siteUrl(handle)}/preview`, { cache: 'no-store' }).then(
      (answer) => setHtml(answer.html),
      (error) => setProblem(describe(error)),
    );
  }, [handle, version, asked]);
  const shown = useMemo(() => (html === null ? null : framed(html)), [html]);
  const styled = () => {
    const view = frame.current?.contentWindow as (Window & typeof globalThis) | null | undefined;
    if (!view || !shown) return;
    // Rule by rule: the policy refuses a whole stylesheet's text (an inline style, replaceSync), not the CSSOM.
    const sheet = new view.CSSStyleSheet();
    for (const rule of rulesOf(shown.css)) {
      try {
        sheet.insertRule(rule, sheet.cssRules.length);
      } catch {
        // A rule this browser does not know is left out, as a stylesheet would.
      }
    }
    view.document.adoptedStyleSheets = [sheet];
  };
  return (
    <section class="card" aria-labelledby="preview-title">
      <h2 id="preview-title">Preview</h2>
      <p class="hint">Your home page as it would be published now, from what is saved. The Buy buttons show once published.</p>
      <Problem problem={problem} />
      {shown && (
        <iframe
          ref={frame}
          class="site-preview"
          title="Preview of your site’s home page"
          sandbox="allow-same-origin"
          srcdoc={shown.page}
          onLoad={styled}
        />
      )}
      <p class="actions">
        <button type="button" class="secondary" onClick={() => setAsked((n) => n + 1)}>
          Refresh the preview
        </button>
      </p>
    </section>
  );
}
