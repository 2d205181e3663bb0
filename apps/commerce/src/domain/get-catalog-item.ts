import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { AppError } from '@ctk/shared';
import type { CatalogItem } from '../catalog/catalog.js';
import type { CatalogReader } from '../catalog/catalog-reader.js';
import { getCatalog } from './get-catalog.js';

/** One item of the catalog: not found when it is not for sale, whether unknown, unavailable, off the menu or another organisation's. */
export async function getCatalogItem(catalogs: CatalogReader, orgRef: OrgRef | undefined, id: string): Promise<CatalogItem> {
  const item = (await getCatalog(catalogs, orgRef)).items.find((candidate) => candidate.id === id);
  if (!item) throw new AppError('not_found', `No item ${id} is for sale in this shop`);
  return item;
}
