import { z } from 'zod';
import { MAX_SATOSHIS } from '@ctk/shared';
import { normalPublicKey } from './feed-signature.js';

// C0 and C1 controls and the bidirectional overrides (as @ctk/shared's text fields); free text may break lines and indent.
const CONTROL = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;
const CONTROL_BUT_LINE_BREAK_OR_TAB = /[^\P{Cc}\t\n\r]|[\u202a-\u202e\u2066-\u2069]/u;
// A lone surrogate has no UTF-8 form: canonical JSON (RFC 8785) refuses it.
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * One line of text (a name, a category): 1 to `max` characters, no control characters, no surrounding spaces.
 * Refused rather than trimmed: the feed is signed as it is, so parsing must not change a character.
 */
export function line(max: number) {
  return z
    .string()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((text) => !CONTROL.test(text), 'must not contain control characters')
    .refine((text) => text === text.trim(), 'must not start or end with spaces')
    .refine((text) => !LONE_SURROGATE.test(text), 'must not contain a lone surrogate');
}

/** Text of several lines (a description), possibly empty: line breaks and tabs, but no other control character. */
export function prose(max: number) {
  return z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((text) => !CONTROL_BUT_LINE_BREAK_OR_TAB.test(text), 'must not contain control characters other than line breaks and tabs')
    .refine((text) => !LONE_SURROGATE.test(text), 'must not contain a lone surrogate');
}

/** An absolute http(s) URL without credentials, at most 2048 characters. */
export const httpUrl = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .refine((text) => !/[\s\p{Cc}\p{Cs}]/u.test(text) && isHttpUrl(text), 'must be an http or https URL');

function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
}

/** An instance's origin: an http(s) URL of a host (and port) only, spelled as the URL standard spells it, path "/" or none. */
export const originUrl = httpUrl.refine((text) => {
  const url = new URL(text);
  return text === url.origin || text === `${url.origin}/`;
}, 'must be an http or https origin (scheme, host and port; no path, query or fragment) in normal form');

/** An instant, ISO 8601 in UTC ("2026-11-28T10:00:00Z"). */
export const instant = z.iso.datetime({ message: 'must be an ISO 8601 UTC date-time such as 2026-11-28T10:00:00Z' });

/** A compressed secp256k1 public key, lower-case hex. */
export const publicKeyHex = z
  .string()
  .refine((text) => normalPublicKey(text) === text, 'must be a compressed secp256k1 public key (66 lower-case hex digits)');

/** A merchant's handle on its origin: 3 to 40 of a-z, 0-9 and inner hyphens. */
export const handle = z.string().regex(/^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$/, 'must be 3 to 40 of a-z, 0-9 and inner hyphens');

/** An ISO 4217 currency code. */
export const currency = z.string().regex(/^[A-Z]{3}$/, 'must be a three-letter ISO 4217 code such as USD');

/** A whole amount (minor units, satoshis, a count): an integer from 0 to 21 million bitcoin's satoshis. */
export const amount = z.int('must be an integer').min(0, 'must not be negative').max(MAX_SATOSHIS, `must be at most ${MAX_SATOSHIS}`);
