/**
 * Control characters (C0, DEL, C1) and the Unicode line and paragraph separators, which some readers
 * take for line breaks.
 */
const LINE_BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** Free text on one line: every run of control characters and line separators becomes one space. */
export function singleLine(value: string): string {
  return value.replace(LINE_BREAKING, ' ');
}
