import type { CatalogReader } from '../catalog/catalog-reader.js';
import type { CheckoutRepository } from '../data/checkout-repository.js';
import type { PosClient } from '../pos-client.js';

/** What the checkout use cases are given. */
export type CheckoutContext = {
  pos: PosClient;
  catalogs: CatalogReader;
  checkouts: CheckoutRepository;
  now: () => Date;
};
