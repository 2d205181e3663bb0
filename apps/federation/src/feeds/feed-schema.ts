import { z } from 'zod';
import { isTimeZone } from '@ctk/shared';
import { CTK_NAMESPACE, FEED_PATH, PROOF_TYPE, type JsonObject } from './feed-document.js';
import { amount, currency, handle, httpUrl, instant, line, originUrl, prose, publicKeyHex } from './feed-fields.js';
import { formatPrice } from './feed-price.js';
import { geohashCells } from './geohash-cells.js';
import { opaqueJsonProblem } from './opaque-json.js';

/** How large an opaque member (hours, opening hours) may be, in bytes of canonical JSON. */
export const MAX_OPAQUE_BYTES = 64 * 1024;

/** The `@id` of a merchant's feed on an origin: the origin's URL (no trailing "/"), the feeds path, the handle. */
export function feedId(origin: string, merchantHandle: string): string {
  return `${origin.replace(/\/$/, '')}${FEED_PATH}${merchantHandle}`;
}

// zod runs a refinement even when a bound inside failed (a latitude of 91): a refinement must not throw on such values,
// the bound's own issue names them.
function quietly<T>(compute: () => T): T | undefined {
  try {
    return compute();
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const opaque = <T>(schema: z.ZodType<T>) =>
  schema.superRefine((value, ctx) => {
    const problem = opaqueJsonProblem(value, MAX_OPAQUE_BYTES);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });

const proof = z.strictObject({
  type: z.literal(PROOF_TYPE),
  proofPurpose: z.enum(['ctk:instance', 'ctk:merchant']),
  publicKey: publicKeyHex,
  created: instant,
  digest: z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 digest, 64 lower-case hex digits'),
  signature: z.string().regex(/^(?:[0-9a-f]{2}){8,72}$/, 'must be a DER signature in lower-case hex'),
});

const offer = z
  .strictObject({
    '@type': z.literal('Offer'),
    price: z.string().max(32),
    priceCurrency: currency,
    'ctk:priceMinor': amount,
    'ctk:satoshis': amount.optional(),
    availability: z.enum(['https://schema.org/InStock', 'https://schema.org/OutOfStock']),
    inventoryLevel: z.strictObject({ '@type': z.literal('QuantitativeValue'), value: amount }).optional(),
  })
  .superRefine((o, ctx) => {
    const exact = /^[A-Z]{3}$/.test(o.priceCurrency) ? quietly(() => formatPrice(o['ctk:priceMinor'], o.priceCurrency)) : undefined;
    if (exact !== undefined && o.price !== exact) {
      ctx.addIssue({ code: 'custom', path: ['price'], message: `must be "${exact}", ctk:priceMinor in ${o.priceCurrency}` });
    }
  });

const item = z.strictObject({
  '@type': z.literal('Product'),
  productID: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/, 'must be 1 to 64 of A-Z, a-z, 0-9 and . _ : -'),
  name: line(200),
  description: prose(5000),
  category: line(100).optional(),
  image: z.array(httpUrl).max(10),
  dateModified: instant,
  offers: offer,
});

const business = z
  .strictObject({
    '@type': z.literal('LocalBusiness'),
    identifier: handle,
    name: line(200),
    description: prose(5000).optional(),
    url: httpUrl.optional(),
    image: httpUrl.optional(),
    geo: z
      .strictObject({
        '@type': z.literal('GeoCoordinates'),
        latitude: z.number().min(-90).max(90),
        longitude: z.number().min(-180).max(180),
      })
      .optional(),
    'ctk:geohash': z.array(z.string().max(12)).max(4).optional(),
    'ctk:category': line(100).optional(),
    'ctk:timeZone': z.string().max(64).refine(isTimeZone, 'must be an IANA time zone such as Europe/London'),
    'ctk:hours': opaque(z.custom<JsonObject>(isObject, 'must be a JSON object')),
    openingHoursSpecification: opaque(z.array(z.custom<JsonObject>(isObject, 'must be a JSON object')).max(200)),
    'ctk:paymail': z
      .string()
      .max(320)
      .regex(/^[a-z0-9][a-z0-9._-]{0,63}@[a-z0-9.-]{1,253}(?::\d{1,5})?$/, 'must be a paymail (alias@domain)')
      .optional(),
    'ctk:publicKey': publicKeyHex.optional(),
  })
  .superRefine((b, ctx) => {
    const geohash = b['ctk:geohash'];
    if (geohash === undefined) return;
    if (b.geo === undefined) return ctx.addIssue({ code: 'custom', path: ['ctk:geohash'], message: 'needs geo' });
    const cells = quietly(() => geohashCells(b.geo!.latitude, b.geo!.longitude));
    if (cells !== undefined && geohash.join() !== cells.join()) {
      ctx.addIssue({ code: 'custom', path: ['ctk:geohash'], message: `must be the cells of geo: ${cells.join(', ')}` });
    }
  });

/** The schema of a whole feed, with at most `maxItems` items. */
export function feedSchema(maxItems: number) {
  return z
    .strictObject({
      '@context': z.tuple([z.literal('https://schema.org'), z.strictObject({ ctk: z.literal(CTK_NAMESPACE) })]),
      '@type': z.literal('DataFeed'),
      '@id': httpUrl,
      identifier: handle,
      dateModified: instant,
      'ctk:sequence': z.int('must be an integer').min(0, 'must not be negative'),
      'ctk:origin': z.strictObject({ url: originUrl, publicKey: publicKeyHex }),
      about: business,
      dataFeedElement: z.array(item).max(maxItems, `must hold at most ${maxItems} items`),
      'ctk:rateAt': instant.optional(),
      proof: z.array(proof).max(2, 'must hold at most two proofs (the instance, the merchant)').optional(),
    })
    .superRefine((doc, ctx) => {
      const id = feedId(doc['ctk:origin'].url, doc.identifier);
      if (doc['@id'] !== id)
        ctx.addIssue({ code: 'custom', path: ['@id'], message: `must be ${id} (the origin, ${FEED_PATH}, the handle)` });
      if (doc.about.identifier !== doc.identifier)
        ctx.addIssue({ code: 'custom', path: ['about', 'identifier'], message: 'must be the feed identifier' });
      const seen = new Set<string>();
      doc.dataFeedElement.forEach((element, index) => {
        if (seen.has(element.productID)) {
          ctx.addIssue({ code: 'custom', path: ['dataFeedElement', index, 'productID'], message: 'must be unique in the feed' });
        }
        seen.add(element.productID);
      });
    });
}
