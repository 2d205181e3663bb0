/** Dates in exports are the UTC calendar date of occurred_at, as the date range is. */
export function isoDate(occurredAt: string): string {
  return new Date(occurredAt).toISOString().slice(0, 10);
}

/** MM/DD/YYYY, as QuickBooks Online reads it. */
export function usDate(occurredAt: string): string {
  const [year, month, day] = isoDate(occurredAt).split('-');
  return `${month}/${day}/${year}`;
}

/** DD/MM/YYYY, as Xero reads it. */
export function dayFirstDate(occurredAt: string): string {
  const [year, month, day] = isoDate(occurredAt).split('-');
  return `${day}/${month}/${year}`;
}

/** The day after a YYYY-MM-DD date, for an inclusive `to`. */
export function nextDay(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}
