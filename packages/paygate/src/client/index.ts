export { createPaidFetch, type PaidFetch, type PaidFetchOptions, type PayRequest, type PaymentMade } from './create-paid-fetch.js';
export type { PayResult } from './payment-headers.js';
export type { PaymentOffer, X402PaymentRequired } from './read-offer.js';
export {
  memoryCredentialStore,
  findCredential,
  storedCredential,
  type CredentialStore,
  type StoredCredential,
} from './credential-store.js';
