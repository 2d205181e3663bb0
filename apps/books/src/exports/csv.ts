import { singleLine } from './single-line.js';

/**
 * One RFC 4180 CSV row, ending in CRLF: fields with a comma or a quote are quoted (quotes doubled). Line
 * breaks and other control characters in a field become a space first: quoting them is RFC-correct, but
 * QuickBooks' and Xero's importers and naive readers split rows on them.
 */
export function csvRow(fields: readonly string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

/** One CSV field as csvRow writes it. */
export function csvField(value: string): string {
  const flat = singleLine(value);
  return /[",]/.test(flat) ? `"${flat.replace(/"/g, '""')}"` : flat;
}

/**
 * Free text (descriptions, memos) on one line; if a spreadsheet would read it as a formula (=, +, -, @
 * first, after any blanks, which a tab or a line break became) it gets a leading apostrophe, so opening
 * an export cannot run anything. Amounts and codes never pass here.
 */
export function text(value: string): string {
  const flat = singleLine(value);
  return /^\s*[=+\-@]/.test(flat) ? `'${flat}` : flat;
}
