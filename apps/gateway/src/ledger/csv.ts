/** RFC 4180 CSV: fields with a comma, a quote or a line break are quoted (quotes doubled); lines end in CRLF. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string>>): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * Free text (descriptions, memos) that a spreadsheet would read as a formula (=, +, -, @, tab, CR first)
 * gets a leading apostrophe, so opening an export cannot run anything. Amounts and codes never pass here.
 */
export function text(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}
