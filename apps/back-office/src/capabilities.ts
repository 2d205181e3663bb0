import { api } from './api.js';

export type Endpoint = { method: string; path: string; auth: string; role: string | null };
export type Capability = {
  id: string;
  title: string;
  path: string;
  maturity: 'live' | 'testnet' | 'preview';
  for_you: string;
  note?: string;
  endpoints: Endpoint[];
  set_up: boolean | null;
  next_step: string | null;
};
export type Rung = { id: string; title: string; step: number; promise: string; capabilities: Capability[] };
export type CapabilityMap = { organization: string; rungs: Rung[]; next: { capability: string; next_step: string | null } | null };

/** The organisation's capability map: what it has set up and what to do next (staff and above). */
export function capabilityMap(handle: string): Promise<CapabilityMap> {
  return api<CapabilityMap>(`/api/v1/orgs/${encodeURIComponent(handle)}/capabilities`);
}

/** A capability's page for this organisation: its `path` with the handle. */
export function pageOf(capability: Pick<Capability, 'path'>, handle: string): string {
  return capability.path.replace(':handle', handle);
}

/** Whether this instance has not built it: its note says so (the descriptor's words). */
export function notBuilt(capability: Pick<Capability, 'note'>): boolean {
  return capability.note?.startsWith('Not built yet') ?? false;
}

/** Its standing in a few words, for a list or a heading. */
export function standing(capability: Capability): string {
  if (notBuilt(capability)) return 'Not built yet';
  if (capability.set_up === true) return 'Set up';
  if (capability.set_up === false) return 'To set up';
  return 'Ready to use';
}
