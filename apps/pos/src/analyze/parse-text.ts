import { DraftList, MAX_CATEGORY, MAX_DRAFTS, quoted } from './drafts.js';
import { PRICE_AT_END, readPrice } from './price.js';

/** Characters of one line read at most: a longer one is not a menu line (and bounds the price pattern's work). */
export const MAX_LINE = 300;

const LEADER_AT_END = /[\s.…·_:\-–—]+$/u;
const LEADER_AT_START = /^[\s.…·_:\-–—]+/u;
const BULLET = /^(?:[-*•·–]|\d{1,3}[.)])\s+(?=\p{L})/u;

/**
 * Drafts from pasted text or OCR output: one item per line, its price at the end ("Flat white 4.50",
 * "Croissant ..... $3.25"). A line without a price that looks like a heading ("COFFEE", "Pastries:",
 * "# Cakes") becomes the category of the lines below it; any other line is skipped with why.
 */
export function parseText(text: string, currency: string, list = new DraftList()): DraftList {
  const lines = text.split('\n');
  let category = '';
  let heading = '';
  for (const [index, raw] of lines.entries()) {
    const where = `line ${index + 1}`;
    const line = raw.replace(/\s+/g, ' ').trim().replace(BULLET, '');
    if (!line) continue;
    if (list.full) {
      list.skip(`lines ${index + 1}-${lines.length}`, `not read: at most ${MAX_DRAFTS} drafts at once`);
      break;
    }
    if (line.length > MAX_LINE) {
      list.skip(where, `longer than ${MAX_LINE} characters`);
      continue;
    }
    const match = PRICE_AT_END.exec(line);
    if (!match?.groups) {
      const title = headingOf(line);
      if (title) [category, heading] = [title, line];
      else list.skip(where, `no price at the end of ${quoted(line)}`);
      continue;
    }
    const name = line.slice(0, match.index).replace(LEADER_AT_END, '');
    if (!name) {
      list.skip(where, `a price without a name (${quoted(line)})`);
      continue;
    }
    const before = PRICE_AT_END.exec(name)?.groups;
    // "Latte 4.50 5.00" is two sizes, not an item named "Latte 4.50"; "Pack of 6 12.00" is one price.
    if (before && (before.before || before.after || /[.,]\d{1,2}$/.test(before.number ?? ''))) {
      list.skip(where, `two prices on one line (${quoted(line)}): one line per size, or add the sizes as modifiers`);
      continue;
    }
    const read = readPrice(match.groups, currency, match[0].replace(LEADER_AT_START, ''));
    if ('problem' in read) {
      list.skip(where, read.problem);
      continue;
    }
    const notes = [...read.price.notes];
    if (category) notes.push(`category ${quoted(category)} from the heading ${quoted(heading)} above`);
    list.add(where, { name, description: '', priceCents: read.price.priceCents, currency: read.price.currency, category, notes });
  }
  return list;
}

/** The category a heading line names, or null when the line is not a heading. */
function headingOf(line: string): string | null {
  if (/\d/.test(line) || line.length > MAX_CATEGORY + 2) return null;
  const marked = /^#+\s*(.+)$/u.exec(line)?.[1] ?? /^(.+?)\s*:$/u.exec(line)?.[1];
  if (marked) return marked.trim();
  const shouted = /\p{L}{2}/u.test(line) && !/\p{Ll}/u.test(line) && line.split(' ').length <= 6;
  // "HOT DRINKS" is a category "Hot drinks".
  return shouted ? line.charAt(0) + line.slice(1).toLowerCase() : null;
}
