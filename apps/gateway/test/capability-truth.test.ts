import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, onboard, type Onboarded } from './harness.js';
import { startLedgerStack } from './ledger-harness.js';
import { concreteUrl, uniqueName } from './support.js';

/**
 * The capability descriptors tell the truth, derived here from what the routes answer
 * rather than from a list. A capability is built when one of its endpoints answers something other than
 * 501; one whose every endpoint answers 501, or that has no endpoint at all, says in its note that it is not
 * built, unless its note names routes of this API that answer (how it is used without an endpoint of its own).
 * No note or next step promises "a later release" for a capability that is built.
 */

type Entry = { method: string; path: string };
type Capability = { id: string; maturity: string; endpoints: Entry[]; note?: string; next_step?: string | null; set_up?: boolean | null };
type Descriptor = { rungs: Array<{ capabilities: Capability[] }> };

const NOT_BUILT = /not built/i;
const LATER = /later release/i;

let stack: Awaited<ReturnType<typeof startLedgerStack>>;
let owner: Onboarded;

beforeAll(async () => {
  // Books answers the organisation's set-up of its capabilities (receipts among them); other services are down.
  stack = await startLedgerStack();
  owner = await onboard(stack.gateway, uniqueName('Truthful Cafe'));
});
afterAll(async () => {
  await stack?.close();
});

/** Whether a route answers at all on this instance: anything but 501 (and 404, no such route). */
async function answers(method: string, path: string): Promise<boolean> {
  const response = await stack.gateway.app.inject({ method: method as 'GET', url: concreteUrl(path, owner.handle) });
  return response.statusCode !== 501 && response.statusCode !== 404;
}

const capabilitiesOf = (descriptor: Descriptor) => descriptor.rungs.flatMap((rung) => rung.capabilities);

/** What is untrue in one capability's note (and next step), judged by what its endpoints answer. */
async function untruths(capability: Capability): Promise<string[]> {
  const found: string[] = [];
  const said = `${capability.note ?? ''} ${capability.next_step ?? ''}`;
  const answering = [];
  for (const endpoint of capability.endpoints) if (await answers(endpoint.method, endpoint.path)) answering.push(endpoint);
  if (answering.length > 0) {
    if (LATER.test(said)) found.push(`${capability.id}: ${answering.length} endpoints answer, yet it says "${said.trim()}"`);
    if (answering.length === capability.endpoints.length && capability.note)
      found.push(`${capability.id}: every endpoint answers, yet its note says "${capability.note}"`);
    return found;
  }
  if (capability.endpoints.length > 0) {
    if (!NOT_BUILT.test(capability.note ?? ''))
      found.push(`${capability.id}: every endpoint answers 501, its note says "${capability.note}"`);
    return found;
  }
  // No endpoint of its own: either the note says it is not built, or it names routes of this API that answer.
  if (NOT_BUILT.test(capability.note ?? '')) return found;
  const named = [...(capability.note ?? '').matchAll(/\b(GET|POST|PUT|PATCH|DELETE) (\/[\w/:.-]+)/g)];
  if (named.length === 0) found.push(`${capability.id}: no endpoint, and its note neither says it is not built nor names a route`);
  for (const [, method, path] of named)
    if (!(await answers(method!, path!))) found.push(`${capability.id}: its note names ${method} ${path}, which does not answer`);
  return found;
}

describe('GET /api/v1/capabilities', () => {
  it('says in a note that a capability is not built when none of it answers, and nothing untrue of one that does', async () => {
    const descriptor = (await stack.gateway.app.inject({ method: 'GET', url: '/api/v1/capabilities' })).json() as Descriptor;
    const capabilities = capabilitiesOf(descriptor);
    expect(capabilities).toHaveLength(24);
    const found: string[] = [];
    for (const capability of capabilities) found.push(...(await untruths(capability)));
    expect(found).toEqual([]);
    // Every capability of the contracts rung is built: it keeps the spec's maturity, has endpoints, and no note says otherwise.
    for (const [id, maturity] of [
      ['escrow', 'testnet'],
      ['timelocked_refund', 'testnet'],
      ['referral_covenant', 'preview'],
      ['psbt', 'testnet'],
    ] as const) {
      const capability = capabilities.find((c) => c.id === id);
      expect(capability).toMatchObject({ maturity, endpoints: expect.arrayContaining([expect.anything()]) });
      expect([id, capability?.note ?? '']).not.toEqual([id, expect.stringMatching(NOT_BUILT)]);
    }
  });
});

describe('GET /api/v1/orgs/:handle/capabilities', () => {
  it('tells an organisation the same truth, and promises no later release of what works (receipts)', async () => {
    const response = await stack.gateway.app.inject({
      method: 'GET',
      url: `/api/v1/orgs/${owner.handle}/capabilities`,
      headers: bearer(owner.key),
    });
    expect(response.statusCode).toBe(200);
    const capabilities = capabilitiesOf(response.json() as Descriptor);
    const found: string[] = [];
    for (const capability of capabilities) found.push(...(await untruths(capability)));
    expect(found).toEqual([]);
    const receipts = capabilities.find((c) => c.id === 'receipts');
    expect(receipts?.set_up).toBe(false);
    expect(receipts?.next_step).toMatch(/receipts/);
  });
});
