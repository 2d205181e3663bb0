import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { AppError } from '@ctk/shared';
import { z } from 'zod';
import type { Org } from '../domain/org.js';

const orgSchema = z.object({ id: z.guid(), handle: z.string() });

/** The organisation the gateway resolved; a call without one is the gateway's bug, not the user's. */
export function orgOf(org: OrgRef | undefined): Org {
  const parsed = orgSchema.safeParse(org);
  if (!parsed.success) throw new AppError('bad_request', 'The call must name an organisation by its UUID', { field: 'org.id' });
  return parsed.data;
}
