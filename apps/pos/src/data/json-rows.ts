import { columnOf } from '@ctk/shared';

/** How a field of a row aggregated as json travels: as it is, or (bigint, timestamp) as text read back exactly. */
export type Kind = 'plain' | 'bigint' | 'date';

/**
 * A json array of the rows `from` answers (its rows under the alias `p`), each field under its name, bigints and
 * timestamps as text, in `orderBy`'s order: a row's dependent rows read in the statement that reads the row.
 */
export function jsonRows(fields: Record<string, Kind>, from: string, orderBy: string): string {
  const values = Object.entries(fields).map(([field, kind]) => {
    const column = `p.${columnOf(field)}`;
    const value = kind === 'bigint' ? `${column}::text` : kind === 'date' ? `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : column;
    return `'${field}', ${value}`;
  });
  return `COALESCE((SELECT json_agg(json_build_object(${values.join(', ')}) ORDER BY ${orderBy}) FROM ${from}), '[]')`;
}

/** A row of jsonRows with its bigints and timestamps read back. */
export function typed<T>(raw: Record<string, unknown>, fields: Record<keyof T, Kind>): T {
  const record: Record<string, unknown> = {};
  for (const [field, kind] of Object.entries(fields) as [string, Kind][]) {
    const value = raw[field];
    record[field] = value === null || kind === 'plain' ? value : kind === 'bigint' ? BigInt(value as string) : new Date(value as string);
  }
  return record as T;
}
