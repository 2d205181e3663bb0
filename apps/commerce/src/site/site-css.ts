import type { SiteColors } from './site-settings.js';

/**
 * The site's one stylesheet, from its colours: a single column that reads on a phone and widens to a
 * measure on a desktop. The Buy buttons (checkout.js's shadow root) take the accent through ::part(button).
 */
export function siteCss(colors: SiteColors): string {
  return `:root {
  --background: ${colors.background};
  --text: ${colors.text};
  --accent: ${colors.accent};
  --accent-text: ${colors.accentText};
  color-scheme: light;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0;
  background: var(--background);
  color: var(--text);
  font: 1.0625rem/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
a { color: var(--accent); text-underline-offset: 0.15em; }
a:focus-visible, ctk-buy-button:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
h1, h2, h3, h4 { line-height: 1.2; margin: 0 0 0.5rem; }
h2 { color: var(--accent); font-size: 1.5rem; }
h3 { font-size: 1.125rem; }
.wrap { max-width: 46rem; margin: 0 auto; padding: 0 1rem; }
.site-header { padding: 1.25rem 0 0.5rem; }
.site-header a { color: inherit; text-decoration: none; font-weight: 700; }
.hero { background: var(--accent); color: var(--accent-text); padding: 3rem 0 2.5rem; }
.hero h1 { font-size: clamp(2rem, 7vw, 3rem); }
.hero p { margin: 0; font-size: 1.2rem; }
.hero img { width: 4rem; height: 4rem; border-radius: 50%; object-fit: cover; margin-bottom: 1rem; }
main section { padding: 1.75rem 0; border-bottom: 1px solid color-mix(in srgb, var(--text) 15%, transparent); }
main section:last-child { border-bottom: 0; }
.items { list-style: none; margin: 0 0 1.5rem; padding: 0; display: grid; gap: 1rem; }
.item { display: grid; grid-template-columns: 1fr auto; gap: 0.25rem 1rem; align-items: start; }
.item h4, .item p { margin: 0; grid-column: 1; }
.item h4 { font-size: 1.0625rem; }
caption { text-align: left; padding: 0 0 0.5rem; }
.item .price { font-weight: 700; grid-column: 2; grid-row: 1; }
.item ctk-buy-button, .item .sold-out { grid-column: 2; grid-row: 2 / span 2; justify-self: end; }
.description { color: color-mix(in srgb, var(--text) 85%, var(--background)); }
.sold-out { font-weight: 600; }
ctk-buy-button::part(button) { background: var(--accent); color: var(--accent-text); border: 0; border-radius: 0.5rem; padding: 0.6rem 1.1rem; font: 600 1rem/1.2 system-ui, sans-serif; cursor: pointer; min-height: 44px; }
table { border-collapse: collapse; }
th, td { text-align: left; padding: 0.25rem 1.5rem 0.25rem 0; vertical-align: top; }
th { font-weight: 600; }
.sign { display: block; margin: 0 0 1rem; max-width: 100%; height: auto; }
.product { padding: 1.5rem 0 2rem; }
.product h1 { font-size: clamp(1.75rem, 6vw, 2.5rem); }
.product .price { font-size: 1.35rem; font-weight: 700; margin: 0.5rem 0 1rem; }
.options { padding-left: 1.2rem; }
footer { padding: 2rem 0; font-size: 0.9rem; }
`;
}
