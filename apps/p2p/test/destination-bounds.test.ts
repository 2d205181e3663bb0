import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HD, P2PKH } from '@bsv/sdk';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { createTestDatabase } from '@ctk/shared/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { failure, fundedCustomer, merchantWallet, payOutputs, startStack, type TestStack } from './support.js';

// What an anonymous caller can make a merchant's wallet lose: a wallet restored from its seed scans the
// xpub's addresses in order and stops after 20 unused ones in a row (BIP44's gap limit). These tests ask
// for destinations as anyone can, and check every address handed out stays within 20 of the highest paid,
// and is held for one destination at a time (decision 0022).

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());
afterEach(() => {
  vi.useRealTimers();
});

const target = (org: OrgRef) => ({ org, paymail: 'cafe@shop.example' });

/** The child index of the xpub a destination's script pays, searched in the first `upTo` children. */
function indexer(xpub: string, upTo = 200): (script: string) => number {
  const account = HD.fromString(xpub);
  const byScript = new Map<string, number>();
  for (let i = 0; i < upTo; i++) byScript.set(new P2PKH().lock(account.derive(`m/0/${i}`).pubKey.toHash() as number[]).toHex(), i);
  return (script) => {
    const index = byScript.get(script);
    if (index === undefined) throw new Error(`script ${script} is not one of the first ${upTo} children of the xpub`);
    return index;
  };
}

const p2p = (org: OrgRef, satoshis = 1_000n) => stack.client.createP2pDestination({ target: target(org), satoshis });
const basic = (org: OrgRef) => stack.client.getPaymentDestination({ target: target(org) });

describe('destinations anyone can ask for stay within the gap limit of the merchant’s wallet', () => {
  it(
    'answers a hundred requests at once on one paymail from the first 20 addresses only, each address once; the rest wait for a hold to end',
    { tags: ['concurrency'], timeout: 90_000 },
    async () => {
      const wallet = merchantWallet();
      const org = await stack.orgRef(wallet);
      const indexOf = indexer(wallet.xpub);
      const patient = { timeoutMs: 60_000 };
      const settled = await Promise.allSettled(
        Array.from({ length: 100 }, (_, i) =>
          i % 2
            ? stack.client
                .createP2pDestination({ target: target(org), satoshis: 1_000n }, patient)
                .then((d) => ({ script: d.outputs[0]!.script, reference: d.reference }))
            : stack.client.getPaymentDestination({ target: target(org) }, patient).then((d) => ({ script: d.output, reference: '' })),
        ),
      );
      const answers = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      const indexes = answers.map((answer) => indexOf(answer.script));
      expect(Math.max(...indexes)).toBeLessThan(20);
      // Decision 0022: anonymous opens hold at most the gap limit less the 5 kept for staff, each its own address.
      expect(indexes.sort((a, b) => a - b)).toEqual(Array.from({ length: 15 }, (_, i) => i));
      for (const result of settled) if (result.status === 'rejected') expect(result.reason.code).toBe('unavailable');
    },
  );

  it('refuses past the anonymous cap rather than share an address, and a payment moves the window: fresh addresses again past it', async () => {
    const wallet = merchantWallet();
    const org = await stack.orgRef(wallet);
    const indexOf = indexer(wallet.xpub);
    const first: Awaited<ReturnType<typeof p2p>>[] = [];
    for (let i = 0; i < 15; i++) first.push(await p2p(org));
    expect(first.map((d) => indexOf(d.outputs[0]!.script))).toEqual(Array.from({ length: 15 }, (_, i) => i));
    const refused = await failure(p2p(org));
    expect(refused.code).toBe('unavailable');
    expect(refused.details).toMatchObject({ retry_after_seconds: expect.any(Number) });

    // 0/5 paid: a restored wallet finds it, and then looks 20 further, up to 0/25; 0/0..0/5 are no longer held in the window.
    const fifth = first[5]!;
    const tx = await payOutputs(await fundedCustomer(stack.chain), fifth.outputs);
    await stack.client.receiveP2pTransaction({ target: target(org), reference: fifth.reference, hex: tx.toHex() });
    const next: number[] = [];
    for (let i = 0; i < 6; i++) next.push(indexOf((await basic(org)).output));
    expect(next).toEqual([15, 16, 17, 18, 19, 20]);
    expect((await failure(basic(org))).code).toBe('unavailable');
  });

  it('frees the address of an expired unpaid destination: handed out again once its hold ended, after the fresh ones', async () => {
    const wallet = merchantWallet();
    const org = await stack.orgRef(wallet);
    const indexOf = indexer(wallet.xpub);
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    for (let i = 0; i < 15; i++) await p2p(org);
    // Ten minutes on, all 15 may still be paid: nothing is shared.
    vi.setSystemTime(start + 10 * 60_000);
    expect((await failure(p2p(org))).code).toBe('unavailable');
    // Past the 15 minutes the first ones could be paid: the 5 fresh children left first, then the ended ones, each once.
    vi.setSystemTime(start + 16 * 60_000);
    const later: number[] = [];
    for (let i = 0; i < 15; i++) later.push(indexOf((await p2p(org)).outputs[0]!.script));
    expect(later).toEqual([15, 16, 17, 18, 19, ...Array.from({ length: 10 }, (_, i) => i)]);
    expect((await failure(basic(org))).code).toBe('unavailable');
  });

  it('takes its limit from P2P_GAP_LIMIT and P2P_STAFF_RESERVED_ADDRESSES', async () => {
    const small = await startStack({ P2P_GAP_LIMIT: '3', P2P_STAFF_RESERVED_ADDRESSES: '1' });
    try {
      const wallet = merchantWallet();
      const org = await small.orgRef(wallet);
      const indexOf = indexer(wallet.xpub);
      const indexes: number[] = [];
      for (let i = 0; i < 2; i++) indexes.push(indexOf((await small.client.getPaymentDestination({ target: target(org) })).output));
      expect(indexes).toEqual([0, 1]);
      expect((await failure(small.client.getPaymentDestination({ target: target(org) }))).code).toBe('unavailable');
      const staff = await small.client.allocateDestination({ org, expiresAt: new Date(Date.now() + 60_000).toISOString(), staff: true });
      expect(staff.derivationIndex).toBe(2);
    } finally {
      await small.close();
    }
  });

  it('keeps to a gap limit lowered since addresses were handed out under a larger one', async () => {
    // One database for both starts: PostgreSQL's when the tests run on it, else a PGlite directory.
    const url = await createTestDatabase('p2p');
    const dir = mkdtempSync(join(tmpdir(), 'ctk-p2p-gap-'));
    const database: Record<string, string> = url ? { DATABASE_URL: url } : { CTK_DATA_DIR: dir };
    const wallet = merchantWallet();
    let org!: OrgRef;
    try {
      const before = await startStack(database);
      try {
        // The wallet is registered in the database both starts share.
        org = await before.orgRef(wallet);
        for (let i = 0; i < 10; i++) await before.client.getPaymentDestination({ target: target(org) });
      } finally {
        await before.close();
      }
      const after = await startStack({ ...database, P2P_GAP_LIMIT: '3', P2P_STAFF_RESERVED_ADDRESSES: '0' });
      try {
        // Ten children 0/0..0/9 are held: nothing within the new limit of 3 is free, and nothing past it is handed out.
        expect((await failure(after.client.getPaymentDestination({ target: target(org) }))).code).toBe('unavailable');
        const staff = await failure(
          after.client.allocateDestination({ org, expiresAt: new Date(Date.now() + 60_000).toISOString(), staff: true }),
        );
        expect(staff.code).toBe('failed_precondition');
      } finally {
        await after.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
