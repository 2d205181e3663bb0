import { z } from 'zod';

/**
 * pos's bounds on what it analyses (apps/pos/src/analyze), checked here too so that an input pos would
 * refuse never reaches the 4 MiB gRPC message limit: past them the gateway answers 413 itself.
 */
export const MAX_ANALYZE_TEXT = 100_000;
export const MAX_ANALYZE_IMAGE_BYTES = 4_000_000;
/** The longest base64 of an image within the bound. */
export const MAX_ANALYZE_IMAGE_BASE64 = Math.ceil(MAX_ANALYZE_IMAGE_BYTES / 3) * 4;
/** The route's body limit: the largest image as base64 in its JSON, and room for the other fields. */
export const ANALYZE_BODY_LIMIT = MAX_ANALYZE_IMAGE_BASE64 + 64 * 1024;

// A browser's FileReader gives a data URL; its declared type is ignored (pos reads the bytes' own signature).
const DATA_URL_PREFIX = /^data:[\w.+/-]*;base64,/;

// Only the shape: pos decides whether exactly one input was given, what the image is and what each line says.
export const analyzeItemsBody = z
  .object({
    text: z
      .string()
      .optional()
      .describe('A pasted list: one item per line, its price at the end; headings ("COFFEE", "Pastries:") give categories'),
    csv: z
      .string()
      .optional()
      .describe(
        'A CSV from a spreadsheet or supplier: "," ";" or tab, a header naming name/item/product, price/cost, category, description',
      ),
    image: z
      .string()
      .transform((value) => value.replace(DATA_URL_PREFIX, ''))
      .pipe(z.base64('image must be base64 (standard alphabet, padded)'))
      .optional()
      .describe(`A photo of a printed menu, PNG or JPEG, base64 (a data: URL is accepted); at most ${MAX_ANALYZE_IMAGE_BYTES} bytes`),
    currency: z
      .string()
      .max(3, 'currency is an ISO 4217 code of three letters')
      .optional()
      .describe('ISO 4217 to assume where a price names none; USD when absent'),
  })
  .strict()
  // Two inputs together could exceed the gRPC message limit before pos could refuse them.
  .refine((body) => [body.text, body.csv, body.image].filter(Boolean).length <= 1, {
    message: 'give only one of text, csv or image',
    path: ['image'],
  })
  .describe('Exactly one of text, csv or image, as JSON (no raw image body: decision 0016)');

/** Request example: a pasted list of a cafe's menu. */
export const analyzeItemsExample = {
  text: 'COFFEE\nFlat white 4.50\nOat milk latte ..... $5.75\n\nPastries:\nCroissant 3.25\nPain au chocolat 3,75',
  currency: 'USD',
};
