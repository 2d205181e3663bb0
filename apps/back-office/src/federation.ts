import type { SignState } from './sign-words.js';

/** What federation answers of feeds, peers and discovery (`proto/ctk/federation/v1/federation.proto`). */
export type FeedSummary = {
  id: string;
  handle: string;
  name: string;
  origin_url: string;
  local: boolean;
  sequence: number;
  item_count: number;
  digest: string;
  merchant_signed: boolean;
  published_at: string;
  feed_url: string;
};

export type Merchant = {
  id: string;
  handle: string;
  name: string;
  category: string | null;
  latitude: number | null;
  longitude: number | null;
  origin_url: string;
  local: boolean;
  paymail: string | null;
  sign: SignState;
  item_count: number;
  updated_at: string;
};

export type FoundItem = {
  id: string;
  name: string;
  description: string;
  category: string | null;
  price_minor: number;
  currency: string;
  satoshis: number | null;
  available: boolean;
  merchant_id: string;
  merchant_name: string;
  origin_url: string;
};

export type MerchantDetail = { merchant: Merchant; items: FoundItem[]; feed_url: string };

export type Peer = { url: string; public_key: string; last_seen_at: string | null; feeds: number };
export type Peers = { self: { url: string; public_key: string }; peers: Peer[] };
