import { addressOfScript, type ChainNetwork } from '@ctk/chain';
import type { AllocateDestinationRequest, AllocateDestinationResponse } from '@ctk/proto/ctk/p2p/v1/p2p';
import { AppError, orgOf, type Sql } from '@ctk/shared';
import type { HoldAllocatedDestination } from '../data/hold-allocated-destination.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { deriveOutput, type AddressWindow } from '../paymail/derive-output.js';

export type AllocateDeps = {
  prisma: PrismaClient;
  sql: Sql;
  holdDestination: HoldAllocatedDestination;
  window: AddressWindow;
  network: ChainNetwork;
};

/** A destination is held at most this long: longer holds would let a few open orders fill the gap window for days. */
const MAX_HOLD_MS = 7 * 86_400_000;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * A receiving output of the organisation's wallet for something another service sells (an order, a pay
 * link): a child of its xpub chosen under the gap limit exactly as a paymail destination is
 * (paymail/derive-output.ts), held until `expires_at`, else its single receiving address. A child is
 * recorded by its script so that the settlement paying it moves the gap window (settle-payment.ts).
 */
export async function allocateDestination(deps: AllocateDeps, request: AllocateDestinationRequest): Promise<AllocateDestinationResponse> {
  const org = orgOf(request.org);
  const expiresAt = holdUntil(request.expiresAt);
  const rules = {
    ...deps.window,
    holdUntil: expiresAt,
    purpose: purposeOf(request.purpose),
    anonymous: !request.staff,
    client: request.staff ? '' : clientOf(request.clientAddress),
  };
  // Every checkout and counter order takes one: two statements, each its own transaction (decision 0052): the
  // wallet with the child taken, then its destination. The child is held as the first commits; were p2p to stop
  // before the second, no one would have been handed it, and it would be free again when its hold ends.
  const derived = await deriveOutput(deps.sql, org, rules);
  if (derived.xpub !== null && derived.derivationIndex !== null) {
    const child = { organizationId: org.id, script: derived.script, xpub: derived.xpub, derivationIndex: derived.derivationIndex };
    await deps.holdDestination(child, expiresAt);
  }
  return {
    address: addressOfScript(derived.script, deps.network)!,
    script: derived.script,
    derivationIndex: derived.derivationIndex ?? undefined,
  };
}

const PURPOSE = /^[a-z][a-z0-9_]{0,31}(\.[a-z][a-z0-9_]{0,31}){0,3}$/;

/** What the hold is for, as the caller names it ("pos.order"); "destination" when not named. */
export function purposeOf(purpose: string): string {
  if (!purpose) return 'destination';
  if (!PURPOSE.test(purpose))
    throw new AppError('validation_failed', `purpose ${JSON.stringify(purpose.slice(0, 40))} must name what is paid, e.g. "pos.order".`, {
      field: 'purpose',
    });
  return purpose;
}

/** The anonymous payer's client address, as the gateway gave it (an IP address, at most 100 characters). */
export function clientOf(address: string): string {
  if (address.length > 100 || /[^0-9A-Za-z.:_-]/.test(address))
    throw new AppError('validation_failed', 'client_address must be a network address as the gateway saw it (at most 100 characters).', {
      field: 'client_address',
    });
  return address;
}

/** `expires_at` as a date: RFC 3339, in the future, at most 7 days ahead. */
function holdUntil(expiresAt: string): Date {
  const at = RFC3339.test(expiresAt) ? new Date(expiresAt) : null;
  if (!at || Number.isNaN(at.getTime()))
    throw new AppError(
      'validation_failed',
      `expires_at must be an RFC 3339 date-time such as 2026-11-23T16:15:00Z; got ${JSON.stringify(expiresAt.slice(0, 40))}.`,
      {
        field: 'expires_at',
      },
    );
  const now = Date.now();
  if (at.getTime() <= now)
    throw new AppError('validation_failed', `expires_at (${at.toISOString()}) is in the past.`, { field: 'expires_at' });
  if (at.getTime() > now + MAX_HOLD_MS)
    throw new AppError(
      'validation_failed',
      `expires_at (${at.toISOString()}) is more than 7 days ahead; a destination is held at most 7 days.`,
      {
        field: 'expires_at',
      },
    );
  return at;
}
