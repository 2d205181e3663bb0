import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { orgOf } from '@ctk/shared';
import type { Catalog } from '../catalog/catalog.js';
import type { CatalogReader } from '../catalog/catalog-reader.js';

/** What the organisation sells online (decision 0018). */
export function getCatalog(catalogs: CatalogReader, orgRef: OrgRef | undefined): Promise<Catalog> {
  orgOf(orgRef);
  return catalogs.read(orgRef as OrgRef);
}
