import { AppError } from '@ctk/shared';
import { z } from 'zod';

/**
 * pos's bounds on what it analyses (apps/pos/src/analyze): a photo's bytes, which the route's body limit
 * is sized to, and a text's characters, checked here too because a longer text (or two inputs at once)
 * could exceed the 4 MiB gRPC message before pos could refuse it. pos checks the rest.
 */
export const MAX_ANALYZE_IMAGE_BYTES = 4_000_000;
const MAX_ANALYZE_TEXT = 100_000;
/** The route's body limit: the largest image as base64 in its JSON, and room for the other fields. */
export const ANALYZE_BODY_LIMIT = Math.ceil(MAX_ANALYZE_IMAGE_BYTES / 3) * 4 + 64 * 1024;

// A browser's FileReader gives a data URL; its declared type is ignored (pos reads the bytes' own signature).
const DATA_URL_PREFIX = /^data:[\w.+/-]*;base64,/;

/** The contract's request body, its image (base64 bytes) also as a data URL, and only one input. */
export function analyzeItemsBody(contract: z.ZodObject) {
  const image = z
    .string()
    .transform((value) => value.replace(DATA_URL_PREFIX, ''))
    .pipe(z.base64('image must be base64 (standard alphabet, padded)'))
    .optional();
  return contract
    .extend({ image: image.describe(contract.shape.image?.description ?? '') })
    .refine((body) => [body.text, body.csv, body.image].filter(Boolean).length <= 1, {
      message: 'give only one of text, csv or image',
      path: ['image'],
    })
    .describe(contract.description ?? '');
}

/** A text or CSV past pos's bound is 413 here, in pos's words, before it is sent. */
export function refuseLongText(body: { text?: string; csv?: string }): void {
  for (const field of ['text', 'csv'] as const) {
    const length = body[field]?.length ?? 0;
    if (length > MAX_ANALYZE_TEXT)
      throw new AppError('payload_too_large', `${field} is ${length} characters; at most ${MAX_ANALYZE_TEXT}. Send a long list in parts.`, {
        field,
      });
  }
}
