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
