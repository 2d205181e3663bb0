/** A shop's open sign as federation works it out (`GET /api/v1/shops/:handle/sign`, a merchant's `sign` in discovery). */
export type SignState = {
  open: boolean;
  since: string | null;
  until: string | null;
  next_change: { at: string; open: boolean } | null;
  reason: 'regular' | 'special' | 'override' | 'no_hours';
  note: string | null;
  time_zone: string;
};
export type ShopSign = { handle: string; name: string; sign: SignState };

/**
 * What the sign says, in words, with its times in the shop's time zone as the reader's locale writes them:
 * "Open now" and "until 5:00 PM"; "Closed now" and "opens Mon 8:00 AM"; the note of a special day or of the
 * sign set by hand.
 */
export function signWords(sign: SignState, now = new Date()): { state: string; detail: string; note: string | null } {
  const state = sign.open ? 'Open now' : 'Closed now';
  if (sign.reason === 'no_hours') return { state: 'Closed', detail: 'no opening hours published yet', note: sign.note };
  const detail =
    sign.until === null
      ? sign.open
        ? 'round the clock'
        : 'not opening soon'
      : `${sign.open ? 'until' : 'opens'} ${whenFrom(sign.until, sign.time_zone, now)}`;
  return { state, detail, note: sign.note };
}

/** The sign as one sentence: "Open now until 5:00 PM.", "Closed now, opens Mon 8:00 AM. Back at 8". */
export function signSentence(sign: SignState, now = new Date()): string {
  const { state, detail, note } = signWords(sign, now);
  return `${state}${sign.open ? ' ' : ', '}${detail}.${note ? ` ${note}` : ''}`;
}

/** A moment as said from `now` in the zone: "5:00 PM" the same day, "Tue 5:00 PM" within six days, else "Dec 12, 5:00 PM". */
export function whenFrom(iso: string, timeZone: string, now = new Date()): string {
  const at = new Date(iso);
  const day = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(d);
  const days = (Date.parse(day(at)) - Date.parse(day(now))) / 86_400_000;
  const time = { hour: 'numeric', minute: '2-digit', timeZone } as const;
  if (days < 1) return new Intl.DateTimeFormat(undefined, time).format(at);
  if (days < 7) return new Intl.DateTimeFormat(undefined, { ...time, weekday: 'short' }).format(at);
  return new Intl.DateTimeFormat(undefined, { ...time, month: 'short', day: 'numeric' }).format(at);
}

/** An instant as ISO 8601 with the zone's own offset at it ("2026-11-28T20:00:00-08:00"), as a shop's times are sent. */
export function isoInZone(ms: number, timeZone: string): string {
  const offset = offsetMinutes(ms, timeZone);
  const local = new Date(Math.floor(ms / 60_000) * 60_000 + offset * 60_000).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  return `${local}${sign}${hours}:${String(Math.abs(offset) % 60).padStart(2, '0')}`;
}

/**
 * The next instant the zone's clocks read `time` ("23:00"): today's if still to come, else tomorrow's. A time
 * skipped by daylight saving comes out an hour later; close enough for a sign set by hand.
 */
export function nextLocalTime(time: string, timeZone: string, now = Date.now()): number {
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  const today = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(now));
  for (const date of [today, new Date(Date.parse(today) + 86_400_000).toISOString().slice(0, 10)]) {
    const wall = Date.parse(`${date}T00:00:00Z`) + (hours * 60 + minutes) * 60_000;
    // The wall-clock time read as UTC, moved by the zone's offset there (asked twice: the offset may change in between).
    let at = wall - offsetMinutes(wall, timeZone) * 60_000;
    at = wall - offsetMinutes(at, timeZone) * 60_000;
    if (at > now) return at;
  }
  return now;
}

/** The zone's offset from UTC at an instant, in minutes (negative west of Greenwich). */
function offsetMinutes(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(new Date(ms));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'));
  return Math.round((wall - Math.floor(ms / 60_000) * 60_000) / 60_000);
}
