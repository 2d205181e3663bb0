import { randomBytes } from 'node:crypto';

/** A draft's id: "tkd_" and 24 random URL-safe characters (18 bytes), so one cannot be guessed from another. */
export const DRAFT_ID = /^tkd_[A-Za-z0-9_-]{24}$/;

/**
 * The id of a contracts record: its prefix ("tkd" a mint's draft, "tkr" a redemption, "jtx" a joint transaction, "esc" an escrow, "tlr" a time-locked refund,
 * "ref" a referral link, "rco" a checkout through one)
 * and 24 random URL-safe characters (18 bytes): an id is also the invitation to read it, so none can be guessed.
 */
export function newRecordId(prefix: 'tkd' | 'tkr' | 'jtx' | 'esc' | 'tlr' | 'ref' | 'rco'): string {
  return `${prefix}_${randomBytes(18).toString('base64url')}`;
}
