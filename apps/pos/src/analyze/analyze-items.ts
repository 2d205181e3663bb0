import { AppError } from '@ctk/shared';
import type { AnalyzeItemsRequest, AnalyzeItemsResponse } from '@ctk/proto/ctk/pos/v1/pos';
import { DraftList } from './drafts.js';
import { orientedForOcr } from './exif-orientation.js';
import { inspectImage } from './image-type.js';
import type { OcrReader } from './ocr-reader.js';
import { parseCsv } from './parse-csv.js';
import { parseText } from './parse-text.js';
import { isKnownCurrency } from './price.js';

/** Characters of text or CSV read at most: a long menu is a few thousand; anyone may call this. */
export const MAX_TEXT = 100_000;
/** Lines of text or CSV read at most. */
export const MAX_LINES = 2_000;
const DEFAULT_CURRENCY = 'USD';

const LINE_BREAKS = /\r\n?|[\u0085\u2028\u2029]/g;
// Other control characters read as spaces; invisible format characters (zero-width, bidi overrides) go.
const CONTROLS = /[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f-\u0084\u0086-\u009f]/g;
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/**
 * Item drafts from what a merchant already has: exactly one of pasted text, a CSV, or a photo of a
 * printed menu (read by OCR, then as text). Saves nothing; every guess is a note on its draft, and every
 * line that made no draft is in `skipped` with why.
 */
export async function analyzeItems(ocr: OcrReader, request: AnalyzeItemsRequest, signal?: AbortSignal): Promise<AnalyzeItemsResponse> {
  const given = (['text', 'csv', 'image'] as const).filter((field) => request[field].length > 0);
  if (given.length !== 1) {
    throw new AppError(
      'validation_failed',
      given.length === 0
        ? 'Give one of text, csv or image: all are empty.'
        : `Give only one of text, csv or image, not ${given.join(' and ')}.`,
      { field: given[1] ?? 'text' },
    );
  }
  const currency = request.currency || DEFAULT_CURRENCY;
  if (!/^[A-Z]{3}$/.test(currency) || !isKnownCurrency(currency)) {
    throw new AppError(
      'validation_failed',
      `currency must be an ISO 4217 code in upper case, such as USD or EUR; "${currency.slice(0, 10)}" is not one.`,
      {
        field: 'currency',
      },
    );
  }
  const source = given[0]!;
  if (source === 'image') {
    const image = Buffer.from(request.image.buffer, request.image.byteOffset, request.image.byteLength);
    const { type } = inspectImage(image);
    const text = normalize(await ocr.read(type === 'jpeg' ? orientedForOcr(image) : image, signal));
    const list = parseText(text, currency);
    if (!text.trim()) list.skip('image', 'no text found in the photo');
    return { drafts: list.drafts, source, skipped: list.skipped };
  }
  const text = readable(source, request[source]);
  const list = source === 'csv' ? parseCsv(text, currency) : parseText(text, currency, new DraftList());
  return { drafts: list.drafts, source, skipped: list.skipped };
}

/** Text or CSV within the bounds, its line breaks and control characters normalised. */
function readable(field: 'text' | 'csv', value: string): string {
  if (value.includes('\u0000')) throw new AppError('validation_failed', `${field} must not contain a NUL character.`, { field });
  if (value.length > MAX_TEXT) {
    throw new AppError('payload_too_large', `${field} is ${value.length} characters; at most ${MAX_TEXT}. Send a long list in parts.`, {
      field,
    });
  }
  const text = normalize(value);
  if (!text.trim()) throw new AppError('validation_failed', `${field} has nothing but spaces.`, { field });
  const lines = text.split('\n').length;
  if (lines > MAX_LINES) {
    throw new AppError('payload_too_large', `${field} has ${lines} lines; at most ${MAX_LINES}. Send a long list in parts.`, { field });
  }
  return text;
}

function normalize(text: string): string {
  return text
    .replace(LINE_BREAKS, '\n')
    .replace(CONTROLS, ' ')
    .replace(INVISIBLE, '')
    .replace(/\u0000/g, ' ');
}
