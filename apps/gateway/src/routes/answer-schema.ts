import { z } from 'zod';

/**
 * An answer schema as a named component of the OpenAPI document (e.g. `Organization`), with a
 * realistic example. The example is typed by the schema, and the document's test validates it too.
 */
export function named<S extends z.ZodType>(id: string, schema: S, example: z.output<S>): S {
  return schema.meta({ id, examples: [example] });
}

/** Every list answers one page shape: `{"data": [...], "next_cursor"}`, null on the last page; its example holds the item's. */
export function pageOf<S extends z.ZodType>(id: string, item: S, nextCursor: string | null = null) {
  const example = (z.globalRegistry.get(item)?.examples as unknown[] | undefined)?.[0];
  if (example === undefined) throw new Error(`${id} has no example: declare it with named()`);
  const page = z.object({ data: z.array(item), next_cursor: z.string().nullable() });
  return named(`${id}Page`, page, { data: [example], next_cursor: nextCursor } as z.output<typeof page>);
}

/* Fields that many answers share. */

export const isoTime = z.iso.datetime();
/** Minor units of a currency: a JSON integer, or the integer as a string past 2^53 where a number would not be exact. */
export const minorUnits = z.union([z.number().int(), z.string().regex(/^-?\d+$/)]);
/** Minor units as `minorUnits` answers them: a number while exact, else the digits as a string. */
export const minorUnitsOf = (value: bigint): number | string =>
  value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
