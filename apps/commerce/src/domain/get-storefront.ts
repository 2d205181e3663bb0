import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import type { CatalogReader } from '../catalog/catalog-reader.js';
import { getCatalog } from './get-catalog.js';

/** What a buyer needs before a checkout: the currencies the catalog is priced in (in catalog order) and its size. */
export async function getStorefront(catalogs: CatalogReader, orgRef: OrgRef | undefined) {
  const catalog = await getCatalog(catalogs, orgRef);
  return { currencies: [...new Set(catalog.items.map((item) => item.currency))], itemsForSale: catalog.items.length };
}
