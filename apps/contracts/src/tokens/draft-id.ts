import { randomBytes } from 'node:crypto';

/** A draft's id: "tkd_" and 24 random URL-safe characters (18 bytes), so one cannot be guessed from another. */
export const DRAFT_ID = /^tkd_[A-Za-z0-9_-]{24}$/;

export function newDraftId(): string {
  return `tkd_${randomBytes(18).toString('base64url')}`;
}
