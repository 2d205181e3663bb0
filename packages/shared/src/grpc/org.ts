import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { z } from 'zod';
import { AppError } from '../errors.js';

/**
 * The organisation a call acts for, as the gateway resolved it from the request path: who it is, and
 * nothing of its settings (each service keeps its own: p2p the wallet, books the tax settings).
 */
export type Org = { id: string; handle: string };

const orgSchema = z.object({ id: z.guid(), handle: z.string() });

/** The organisation in a service call; a call without one is the gateway's bug, not the user's. */
export function orgOf(org: OrgRef | undefined): Org {
  const parsed = orgSchema.safeParse(org);
  if (!parsed.success) throw new AppError('bad_request', 'The call must name an organisation by its UUID', { field: 'org.id' });
  return { id: parsed.data.id, handle: parsed.data.handle };
}
