import { randomBytes } from 'node:crypto';

/** A draft's id: "tkd_" and 24 random URL-safe characters (18 bytes), so one cannot be guessed from another. */
export const DRAFT_ID = /^tkd_[A-Za-z0-9_-]{24}$/;

/** The id of a tokens record: its prefix ("tkd" a mint's draft, "tkr" a redemption) and 24 random URL-safe characters. */
export function newTokenRecordId(prefix: 'tkd' | 'tkr'): string {
  return `${prefix}_${randomBytes(18).toString('base64url')}`;
}
