import { describe, expect, it } from 'vitest';
import { signBadge } from './sign-badge.js';
import type { SignState } from './sign-state.js';

const LA = 'America/Los_Angeles';
const NOW = new Date('2026-11-30T12:00:00-08:00'); // a Monday
const openUntil5: SignState = {
  open: true,
  since: '2026-11-30T08:00:00-08:00',
  until: '2026-11-30T17:00:00-08:00',
  nextChange: { at: '2026-11-30T17:00:00-08:00', open: false },
  reason: 'regular',
  timeZone: LA,
};
const closedUntilTuesday: SignState = {
  open: false,
  since: '2026-11-30T17:00:00-08:00',
  until: '2026-12-01T08:00:00-08:00',
  nextChange: { at: '2026-12-01T08:00:00-08:00', open: true },
  reason: 'regular',
  timeZone: LA,
};

describe('signBadge', () => {
  it('is a standalone SVG that says the state in words, for people and for screen readers', () => {
    const svg = signBadge(openUntil5, 'Blue Bottle Cafe', NOW);
    expect(svg).toMatch(
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="220" height="40" viewBox="0 0 220 40" role="img" aria-label="Blue Bottle Cafe is open until 17:00">\n/,
    );
    expect(svg).toContain('<title>Blue Bottle Cafe is open until 17:00</title>');
    expect(svg).toContain('fill="#1e7b34"');
    expect(svg).toContain('font-weight="bold">Open</text>');
    expect(svg).toContain('>until 17:00</text>');
    expect(svg).toContain('>Blue Bottle Cafe</text>');
    expect(svg.endsWith('</svg>')).toBe(true);
  });

  it('says when a closed shop opens, with the weekday when it is another day, in the shop’s time zone', () => {
    const svg = signBadge(closedUntilTuesday, 'Blue Bottle Cafe', new Date('2026-12-01T02:00:00Z'));
    expect(svg).toContain('<title>Blue Bottle Cafe is closed, opens Tue 08:00</title>');
    expect(svg).toContain('fill="#8a4b4b"');
    expect(svg).toContain('font-weight="bold">Closed</text>');
    expect(signBadge({ ...closedUntilTuesday, until: '2026-12-12T08:00:00-08:00' }, 'Cafe', NOW)).toContain('>opens 12 Dec 08:00</text>');
  });

  it('says when nothing is known ahead', () => {
    const none: SignState = { open: false, since: null, until: null, nextChange: null, reason: 'no_hours', timeZone: LA };
    expect(signBadge(none, 'Cafe', NOW)).toContain('<title>Cafe is closed, no hours published</title>');
    expect(signBadge({ ...none, open: true, reason: 'regular' }, 'Cafe', NOW)).toContain('<title>Cafe is open round the clock</title>');
  });

  it('escapes the name as XML, and drops control characters XML cannot hold', () => {
    const svg = signBadge(openUntil5, '<script>&"\'\u0000', NOW);
    expect(svg).toContain('<title>&lt;script&gt;&amp;&quot;&apos; is open until 17:00</title>');
    expect(svg).toContain('aria-label="&lt;script&gt;&amp;&quot;&apos; is open until 17:00"');
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('\u0000');
  });

  it('cuts a very long name with an ellipsis and narrows it to fit', () => {
    const svg = signBadge(openUntil5, 'The Very Long Named Coffee Roastery and Bakery of Main Street', NOW);
    expect(svg).toContain('textLength="112" lengthAdjust="spacingAndGlyphs">The Very Long Named Cof…</text>');
    expect(svg).toContain('<title>The Very Long Named Coffee Roastery and Bakery of Main Street is open until 17:00</title>');
  });

  it('is the same for the same input', () => {
    expect(signBadge(openUntil5, 'Cafe', NOW)).toBe(signBadge(openUntil5, 'Cafe', NOW));
  });
});
