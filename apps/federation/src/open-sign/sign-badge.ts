import type { SignState } from './sign-state.js';
import { signDetail } from './sign-words.js';

const WIDTH = 220;
const HEIGHT = 40;
/** Where the name's part ends and the state's begins. */
const SPLIT = 124;
const COLOURS = { name: '#3d3d3d', open: '#1e7b34', closed: '#8a4b4b' }; // white text on each: 10.9:1, 5.3:1, 6.6:1
const MAX_NAME = 24;
const MAX_TITLE_NAME = 100;

/**
 * The open sign as a standalone SVG badge (220x40, like shields.io): the shop's name on the left, "Open" (green) or
 * "Closed" (red-grey) on the right over what comes next ("until 17:00", "opens Tue 08:00") in the shop's time zone.
 * The name is XML-escaped, cleared of control characters, and cut with an ellipsis past 24 characters; text too
 * wide for its part is narrowed to fit. A `<title>`, `role="img"` and `aria-label` say it all in words
 * ("Blue Bottle Cafe is open until 17:00"). The same input gives the same bytes.
 */
export function signBadge(state: SignState, shopName: string, now: Date): string {
  const name = displayName(shopName);
  const detail = signDetail(state, now);
  const label = `${cut(name || 'This shop', MAX_TITLE_NAME)} is ${state.open ? 'open' : 'closed,'} ${detail}`;
  const shown = cut(name, MAX_NAME);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeXml(label)}">`,
    `<title>${escapeXml(label)}</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" rx="4" fill="${state.open ? COLOURS.open : COLOURS.closed}"/>`,
    `<path d="M4 0H${SPLIT}V${HEIGHT}H4A4 4 0 0 1 0 ${HEIGHT - 4}V4A4 4 0 0 1 4 0Z" fill="${COLOURS.name}"/>`,
    '<g fill="#fff" font-family="Verdana,DejaVu Sans,Geneva,sans-serif" text-anchor="middle">',
    text(SPLIT / 2, 24, 11, SPLIT - 12, shown),
    text((SPLIT + WIDTH) / 2, 18, 13, WIDTH - SPLIT - 8, state.open ? 'Open' : 'Closed', ' font-weight="bold"'),
    text((SPLIT + WIDTH) / 2, 32, 9, WIDTH - SPLIT - 8, detail),
    '</g>',
    '</svg>',
  ].join('\n');
}

/** A centred line of text, narrowed to `room` pixels if it would be wider (estimated at 0.6 of the font size a character). */
function text(x: number, y: number, size: number, room: number, content: string, extra = ''): string {
  const fit = graphemes(content).length * size * 0.6 > room ? ` textLength="${room}" lengthAdjust="spacingAndGlyphs"` : '';
  return `<text x="${x}" y="${y}" font-size="${size}"${extra}${fit}>${escapeXml(content)}</text>`;
}

/** The name on one line: control characters and bidirectional overrides as spaces, what XML cannot hold as U+FFFD, spaces collapsed. */
function displayName(name: string): string {
  return name
    .replace(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu, ' ')
    .replace(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '\ufffd')
    .replace(/\s+/g, ' ')
    .trim();
}

/** At most `max` characters as people count them (grapheme clusters), the last an ellipsis when cut. */
function cut(text: string, max: number): string {
  const parts = graphemes(text);
  return parts.length <= max
    ? text
    : `${parts
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

function graphemes(text: string): string[] {
  return Array.from(new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text), (part) => part.segment);
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}
