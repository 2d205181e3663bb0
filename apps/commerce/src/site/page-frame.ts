import { checkoutScriptTag, escapeHtml, type CheckoutScript } from '@ctk/shared';
import { jsonLdScript } from './json-ld.js';

export type PageFrame = {
  title: string;
  description: string;
  /** The stylesheet: a file beside the page (its path from the page) or, for a preview, its text inline. */
  css: { href: string } | { inline: string };
  /** The Buy button's script, where the page has Buy buttons. */
  script: CheckoutScript | undefined;
  /** The gateway's origin: the script, the open sign, the QR codes and the API the Buy buttons call. */
  gatewayOrigin: string;
  /** Other origins images come from (the shop's avatar). */
  imageOrigins: string[];
  jsonLd: object;
  body: string;
};

/**
 * A whole page: its head (a Content-Security-Policy that lets only the gateway's origin in for scripts,
 * images and calls), its schema.org JSON-LD, and its body. Every text in it was escaped by its maker.
 */
export function page(frame: PageFrame): string {
  const gateway = frame.gatewayOrigin;
  const styles = 'inline' in frame.css ? "'unsafe-inline'" : "'self'";
  const policy = [
    "default-src 'none'",
    `script-src ${gateway}`,
    `style-src ${styles}`,
    `img-src 'self' ${[gateway, ...frame.imageOrigins].join(' ')}`,
    `connect-src ${gateway}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const css =
    'inline' in frame.css ? `<style>\n${frame.css.inline}</style>` : `<link rel="stylesheet" href="${escapeHtml(frame.css.href)}">`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(policy)}">
<title>${escapeHtml(frame.title)}</title>
${frame.description ? `<meta name="description" content="${escapeHtml(frame.description)}">\n` : ''}${css}
${frame.script ? `${checkoutScriptTag(frame.script)}\n` : ''}${jsonLdScript(frame.jsonLd)}
</head>
<body>
${frame.body}
</body>
</html>
`;
}
