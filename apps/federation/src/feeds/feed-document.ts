/** The feed's own terms: `ctk:` in the document stands for this IRI. */
export const CTK_NAMESPACE = 'https://commerce-toolkit.dev/ns/feed#';

/** The JSON-LD context every feed carries: schema.org terms, plus `ctk:` for ours. */
export const FEED_CONTEXT = ['https://schema.org', { ctk: CTK_NAMESPACE }] as const;

/** The path under an origin's URL where a merchant's feed is served: `@id` is origin + this + handle. */
export const FEED_PATH = '/api/v1/feeds/';

/** The one proof type: ECDSA secp256k1 (low-S DER) over the sha256 of the RFC 8785 canonical JSON of the feed without `proof`. */
export const PROOF_TYPE = 'ctk:EcdsaSecp256k1Jcs';

/** Who a proof speaks for: the instance that publishes the feed, or the merchant the feed is about. */
export type ProofPurpose = 'ctk:instance' | 'ctk:merchant';

/** An opaque JSON object (hours and opening hours are another module's; the feed passes them through). */
export type JsonObject = { [key: string]: unknown };

/** A signature over the feed's digest; not itself signed (a feed's digest leaves out its `proof`). */
export type FeedProof = {
  type: typeof PROOF_TYPE;
  proofPurpose: ProofPurpose;
  /** The signer's compressed secp256k1 public key, lower-case hex (66 characters). */
  publicKey: string;
  /** When it was signed, ISO 8601 UTC. */
  created: string;
  /** Hex sha256 of the signed bytes (see {@link PROOF_TYPE}). */
  digest: string;
  /** ECDSA signature, DER, lower-case hex. */
  signature: string;
};

/** One item's offer: its price as a decimal string and, exactly, in minor units. */
export type FeedOffer = {
  '@type': 'Offer';
  /** The decimal price derived from `ctk:priceMinor` and the currency's minor digits, e.g. "4.50". */
  price: string;
  priceCurrency: string;
  'ctk:priceMinor': number;
  /** The price in satoshis at the feed's `ctk:rateAt`; absent when there was no rate. */
  'ctk:satoshis'?: number;
  availability: 'https://schema.org/InStock' | 'https://schema.org/OutOfStock';
  inventoryLevel?: { '@type': 'QuantitativeValue'; value: number };
};

/** One catalog item. */
export type FeedItem = {
  '@type': 'Product';
  productID: string;
  name: string;
  description: string;
  category?: string;
  image: string[];
  dateModified: string;
  offers: FeedOffer;
};

/** The business a feed is about. */
export type FeedBusiness = {
  '@type': 'LocalBusiness';
  identifier: string;
  name: string;
  description?: string;
  url?: string;
  image?: string;
  geo?: { '@type': 'GeoCoordinates'; latitude: number; longitude: number };
  /** Geohash cells of `geo` at each of the feed precisions (4..7). */
  'ctk:geohash'?: string[];
  'ctk:category'?: string;
  'ctk:timeZone': string;
  'ctk:hours': JsonObject;
  openingHoursSpecification: JsonObject[];
  'ctk:paymail'?: string;
  /** The merchant's identity key: a merchant proof verifies with it. */
  'ctk:publicKey'?: string;
};

/** One canonical feed: a merchant's business and catalog, as JSON-LD (schema.org DataFeed), signed by its origin instance. */
export type FeedDocument = {
  '@context': typeof FEED_CONTEXT;
  '@type': 'DataFeed';
  '@id': string;
  identifier: string;
  dateModified: string;
  /** Grows with every publish of the feed: a carrier keeps the highest. */
  'ctk:sequence': number;
  'ctk:origin': { url: string; publicKey: string };
  about: FeedBusiness;
  dataFeedElement: FeedItem[];
  'ctk:rateAt'?: string;
  proof?: FeedProof[];
};
