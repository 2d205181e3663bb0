import { randomUUID } from 'node:crypto';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { failure, fundedCustomer, merchantWallet, payOutputs, startStack, type TestStack } from './support.js';

// Decision 0022: one address, one purpose. Every receiving output of an xpub (paymail and P2P destinations,
// the 402 gate's payment requests, orders) comes from one allocator, which never hands out a child still held
// for something that could be paid; anonymous opens may hold at most the gap limit less the staff reserve;
// and each output of a transaction pays at most one claim.

const GAP_LIMIT = 20;
const RESERVED = 5;
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ P2P_GAP_LIMIT: String(GAP_LIMIT), P2P_STAFF_RESERVED_ADDRESSES: String(RESERVED) });
  // A stack starting beside other test runs on a loaded machine takes longer than a hook's default 30 s.
}, 120_000);
afterAll(() => stack?.close());
afterEach(() => {
  vi.useRealTimers();
});

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const target = (org: OrgRef) => ({ org, paymail: 'cafe@shop.example' });
// A hundred at once wait their turn for the xpub's lock: longer than one call's default deadline on a loaded machine.
const patient = { timeoutMs: 60_000 };
const staffOrder = (org: OrgRef, minutes = 75) =>
  stack.client.allocateDestination({ org, expiresAt: inMinutes(minutes), staff: true, purpose: 'pos.order' }, patient);
const onlineOrder = (org: OrgRef, minutes = 75) =>
  stack.client.allocateDestination({ org, expiresAt: inMinutes(minutes), staff: false, purpose: 'pos.order' }, patient);
const p2pDestination = (org: OrgRef) => stack.client.createP2pDestination({ target: target(org), satoshis: 1_000n }, patient);

describe('one address, one purpose: a child held for something payable is never handed out again', () => {
  it(
    '100 allocations at once, anonymous and staff, never share a child: the anonymous ones past the cap and the staff ones past the window are refused',
    { tags: ['concurrency'], timeout: 90_000 },
    async () => {
      const org = await stack.orgRef(merchantWallet());
      const settled = await Promise.allSettled(
        Array.from({ length: 100 }, (_, i) =>
          i % 4 === 0
            ? staffOrder(org).then((answer) => ({ who: 'staff', index: answer.derivationIndex!, script: answer.script }))
            : i % 4 === 1
              ? p2pDestination(org).then((answer) => ({ who: 'anonymous', script: answer.outputs[0]!.script }))
              : onlineOrder(org).then((answer) => ({ who: 'anonymous', index: answer.derivationIndex!, script: answer.script })),
        ),
      );
      type Given = { who: string; script: string; index?: number };
      const given: Given[] = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value as Given] : []));
      const scripts = given.map((value) => value.script);
      const indexes = given.flatMap((value) => (value.index === undefined ? [] : [value.index]));
      // Nothing shared, nothing past the gap limit.
      expect(new Set(scripts).size).toBe(scripts.length);
      expect(new Set(indexes).size).toBe(indexes.length);
      expect(Math.max(...indexes)).toBeLessThan(GAP_LIMIT);
      expect(given.length).toBeLessThanOrEqual(GAP_LIMIT);
      expect(given.filter((value) => value.who === 'anonymous').length).toBeLessThanOrEqual(GAP_LIMIT - RESERVED);
      // Every refusal is one of the two clear answers, never a shared address or a 500.
      for (const result of settled)
        if (result.status === 'rejected')
          expect(['unavailable', 'failed_precondition'], result.reason.message).toContain(result.reason.code);
      // The staff reserve holds: all 25 staff orders asked for at least 5 children.
      expect(given.filter((value) => value.who === 'staff').length).toBeGreaterThanOrEqual(RESERVED);
    },
  );

  it('refuses anonymous opens past the cap with 503 unavailable naming when a hold ends, while staff still get the reserved children; then 409 when none is free', async () => {
    const org = await stack.orgRef(merchantWallet());
    const anonymous: string[] = [];
    for (let i = 0; i < GAP_LIMIT - RESERVED; i++) anonymous.push((await p2pDestination(org)).outputs[0]!.script);
    expect(new Set(anonymous).size).toBe(GAP_LIMIT - RESERVED);

    for (const refused of [
      await failure(p2pDestination(org)),
      await failure(onlineOrder(org)),
      await failure(stack.client.getPaymentDestination({ target: target(org) })),
    ]) {
      expect(refused.code).toBe('unavailable');
      expect(refused.message).toMatch(/addresses .* held for payments anyone may open/);
      expect(refused.details).toMatchObject({ retry_after_seconds: expect.any(Number), retry_at: expect.any(String) });
    }

    const staff = [];
    for (let i = 0; i < RESERVED; i++) staff.push(await staffOrder(org));
    const staffScripts = staff.map((answer) => answer.script);
    expect(new Set([...anonymous, ...staffScripts]).size).toBe(GAP_LIMIT);
    const full = await failure(staffOrder(org));
    expect(full.code).toBe('failed_precondition');
    expect(full.message).toMatch(/All 20 receiving addresses .* awaiting a payment/);
  });

  it('hands out a child again only once its hold has ended, a fresh one first, and never past the gap limit', async () => {
    const org = await stack.orgRef(merchantWallet());
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    const first = [];
    // 15 anonymous orders held 15 minutes, 5 staff orders held 75.
    for (let i = 0; i < GAP_LIMIT - RESERVED; i++) first.push((await onlineOrder(org, 15)).derivationIndex!);
    for (let i = 0; i < RESERVED; i++) first.push((await staffOrder(org, 75)).derivationIndex!);
    expect(first).toEqual(Array.from({ length: GAP_LIMIT }, (_, i) => i));
    expect((await failure(staffOrder(org))).code).toBe('failed_precondition');
    // Past the 15 minutes, the anonymous holds have ended: their children are handed out again, the staff ones are not.
    vi.setSystemTime(start + 16 * 60_000);
    const again = [];
    for (let i = 0; i < GAP_LIMIT - RESERVED; i++) again.push((await staffOrder(org, 30)).derivationIndex!);
    expect(again.sort((a, b) => a - b)).toEqual(Array.from({ length: GAP_LIMIT - RESERVED }, (_, i) => i));
    expect((await failure(onlineOrder(org))).code).toBe('unavailable');
  });
});

describe('a hold released when what it was for can only refund a payment', () => {
  const release = (org: OrgRef, derivationIndex: number, expiresAt: string, purpose = 'pos.order') =>
    stack.client.releaseDestination({ org, derivationIndex, expiresAt, purpose });

  it('frees the child for another order at once, after every child free longer, and only the hold it names', async () => {
    const org = await stack.orgRef(merchantWallet());
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    // 20 counter orders fill the window, held 75 minutes (expiry and late window); each is then settled
    // otherwise (a gift card, a provider, a cancel) and releases its hold, and 21 more orders still get a child.
    const expiresAt = inMinutes(75);
    const held = [];
    for (let i = 0; i < GAP_LIMIT; i++)
      held.push((await stack.client.allocateDestination({ org, expiresAt, staff: true, purpose: 'pos.order' }, patient)).derivationIndex!);
    expect((await failure(staffOrder(org))).code).toBe('failed_precondition');
    // A release naming another hold (another end, another purpose) ends nothing.
    expect((await release(org, held[0]!, inMinutes(74))).released).toBe(false);
    expect((await release(org, held[0]!, expiresAt, 'paygate')).released).toBe(false);
    expect((await failure(staffOrder(org))).code).toBe('failed_precondition');
    for (const [n, index] of held.entries()) {
      vi.setSystemTime(start + n * 1000);
      expect((await release(org, index, expiresAt)).released).toBe(true);
    }
    // Again: already released.
    expect((await release(org, held[0]!, expiresAt)).released).toBe(false);
    vi.setSystemTime(start + GAP_LIMIT * 1000);
    // The child released first goes first; one handed out again is not freed by its old order's release.
    const next = await staffOrder(org);
    expect(next.derivationIndex).toBe(held[0]);
    expect((await release(org, held[0]!, expiresAt)).released).toBe(false);
    const rest = [];
    for (let i = 1; i < GAP_LIMIT; i++) rest.push((await staffOrder(org)).derivationIndex!);
    expect(rest).toEqual(held.slice(1));
    expect(Math.max(...rest)).toBeLessThan(GAP_LIMIT);
    // All 20 held again, by open orders: the next is refused, nothing is shared.
    expect((await failure(staffOrder(org))).code).toBe('failed_precondition');
  });
});

describe('each output pays at most one claim', () => {
  it('a transaction paying two orders’ outputs pays both, each by its own output; the same output for a third claim is 409 txid_already_used', async () => {
    const org = await stack.orgRef(merchantWallet());
    const [one, two] = [await staffOrder(org), await staffOrder(org)];
    const tx = await payOutputs(await fundedCustomer(stack.chain, 50_000), [
      { script: one!.script, satoshis: 1_000 },
      { script: two!.script, satoshis: 2_000 },
    ]);
    const claim = () => ({ purpose: 'pos.order', sourceId: randomUUID() });
    const first = await stack.client.settlePayment({
      org,
      claim: claim(),
      expected: [{ script: one!.script, minSatoshis: 1_000n }],
      transaction: tx.toHex(),
      txid: '',
    });
    expect(first.paidSatoshis).toEqual([1_000n]);
    const second = await stack.client.settlePayment({
      org,
      claim: claim(),
      expected: [{ script: two!.script, minSatoshis: 2_000n }],
      transaction: '',
      txid: tx.id('hex'),
    });
    expect(second).toMatchObject({ txid: tx.id('hex'), paidSatoshis: [2_000n], alreadyRecorded: false });
    const third = await failure(
      stack.client.settlePayment({
        org,
        claim: claim(),
        expected: [{ script: two!.script, minSatoshis: 1n }],
        transaction: '',
        txid: tx.id('hex'),
      }),
    );
    expect(third.code).toBe('txid_already_used');
  });
});

describe('one client holds at most P2P_ANONYMOUS_HOLDS_PER_CLIENT of the addresses anonymous opens may use', () => {
  const PER_CLIENT = 5; // the default
  let client = 0;
  // A client address of its own per test and per repeat (decision 0030), in 198.18.0.0/15.
  const newClient = () => `198.18.7.${++client}`;
  const clientOrder = (org: OrgRef, clientAddress: string) =>
    stack.client.allocateDestination({ org, expiresAt: inMinutes(75), staff: false, purpose: 'pos.order', clientAddress }, patient);
  const clientP2p = (org: OrgRef, clientAddress: string) =>
    stack.client.createP2pDestination({ target: target(org), satoshis: 1_000n, clientAddress }, patient);

  it('refuses a client past its share with 429 rate_limited naming when its earliest hold ends, while other clients and staff still get addresses', async () => {
    const org = await stack.orgRef(merchantWallet());
    const [greedy, other] = [newClient(), newClient()];
    const held = [];
    for (let i = 0; i < PER_CLIENT; i++) held.push((await clientOrder(org, greedy)).script);
    expect(new Set(held).size).toBe(PER_CLIENT);

    const refused = await failure(clientOrder(org, greedy));
    expect(refused.code).toBe('rate_limited');
    expect(refused.message).toMatch(/already holds 5 of the merchant's receiving addresses .*\(at most 5 at once/);
    expect(refused.details).toMatchObject({ held: PER_CLIENT, per_client: PER_CLIENT, retry_after_seconds: expect.any(Number) });
    // Its earliest hold ends 75 minutes from now.
    expect(Number(refused.details!.retry_after_seconds)).toBeGreaterThan(74 * 60);

    const others = [(await clientOrder(org, other)).script, (await staffOrder(org)).script, (await onlineOrder(org)).script];
    expect(new Set([...held, ...others]).size).toBe(held.length + others.length);
  });

  it('a hold that ended no longer counts against its client', async () => {
    const org = await stack.orgRef(merchantWallet());
    const greedy = newClient();
    for (let i = 0; i < PER_CLIENT; i++)
      await stack.client.allocateDestination(
        { org, expiresAt: inMinutes(1), staff: false, purpose: 'pos.order', clientAddress: greedy },
        patient,
      );
    expect((await failure(clientOrder(org, greedy))).code).toBe('rate_limited');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * 60_000 });
    await expect(clientOrder(org, greedy)).resolves.toMatchObject({ script: expect.any(String) });
  });

  it("past its share a client's paymail destinations share one of its own paymail children, each with its own reference; its orders are refused", async () => {
    const org = await stack.orgRef(merchantWallet());
    const [server, stranger] = [newClient(), newClient()];
    const own = [];
    for (let i = 0; i < PER_CLIENT; i++) own.push(await clientP2p(org, server));
    const ownScripts = own.map((destination) => destination.outputs[0]!.script);
    expect(new Set(ownScripts).size).toBe(PER_CLIENT);

    const more = [await clientP2p(org, server), await clientP2p(org, server)];
    for (const destination of more) expect(ownScripts).toContain(destination.outputs[0]!.script);
    expect(new Set([...own, ...more].map((destination) => destination.reference)).size).toBe(PER_CLIENT + 2);
    // A plain paymail destination of that client shares one too; another client's is its own.
    const plain = await stack.client.getPaymentDestination({ target: target(org), clientAddress: server });
    expect(ownScripts).toContain(plain.output);
    const strangers = await clientP2p(org, stranger);
    expect(ownScripts).not.toContain(strangers.outputs[0]!.script);
    // Nothing but paymail shares: an order of that client is refused.
    expect((await failure(clientOrder(org, server))).code).toBe('rate_limited');

    // Each reference is paid by its own transaction to the shared output.
    const shared = more[0]!;
    const payFor = async (destination: typeof shared) => {
      const tx = await payOutputs(
        await fundedCustomer(stack.chain, 50_000),
        destination.outputs.map((output) => ({ script: output.script, satoshis: Number(output.satoshis) })),
      );
      return stack.client.receiveP2pTransaction({ target: target(org), reference: destination.reference, hex: tx.toHex() });
    };
    const sameOutput = own.find((destination) => destination.outputs[0]!.script === shared.outputs[0]!.script)!;
    await expect(payFor(shared)).resolves.toMatchObject({ txid: expect.any(String) });
    await expect(payFor(sameOutput)).resolves.toMatchObject({ txid: expect.any(String) });
  });

  it('when anonymous opens hold every address they may, a client asking for paymail again shares its own child rather than being refused', async () => {
    const org = await stack.orgRef(merchantWallet());
    const server = newClient();
    const first = await clientP2p(org, server);
    // Other clients fill the rest of what anonymous opens may hold.
    for (let i = 1; i < GAP_LIMIT - RESERVED; i++) await clientOrder(org, newClient());
    expect((await failure(clientOrder(org, newClient()))).code).toBe('unavailable');
    expect((await clientP2p(org, server)).outputs[0]!.script).toBe(first.outputs[0]!.script);
  });

  it(
    '20 orders of one client at once: exactly its share get addresses, the rest 429, none shared',
    { tags: ['concurrency'], timeout: 90_000 },
    async () => {
      const org = await stack.orgRef(merchantWallet());
      const greedy = newClient();
      const settled = await Promise.allSettled(Array.from({ length: 20 }, () => clientOrder(org, greedy)));
      const given = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value.script] : []));
      expect(given.length).toBe(PER_CLIENT);
      expect(new Set(given).size).toBe(PER_CLIENT);
      for (const result of settled) if (result.status === 'rejected') expect(result.reason.code).toBe('rate_limited');
    },
  );

  it('refuses a client address that is not a network address', async () => {
    const org = await stack.orgRef(merchantWallet());
    const refused = await failure(clientOrder(org, 'evil\u0000client'));
    expect(refused).toMatchObject({ code: 'validation_failed', details: { field: 'client_address' } });
  });
});
