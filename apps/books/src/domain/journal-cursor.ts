import { z } from 'zod';
import type { EntryPosition } from '../data/journal-repository.js';

const positionSchema = z.tuple([z.iso.datetime(), z.guid()]);

/** Opaque to callers: base64url of the last entry's occurred_at and id; the next page starts after it. */
export function encodeCursor(position: EntryPosition): string {
  return Buffer.from(JSON.stringify([position.occurredAt.toISOString(), position.id])).toString('base64url');
}

export function decodeCursor(cursor: string): EntryPosition | undefined {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = positionSchema.safeParse(json);
  return parsed.success ? { occurredAt: new Date(parsed.data[0]), id: parsed.data[1] } : undefined;
}
