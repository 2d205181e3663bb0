import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HD, P2PKH } from '@bsv/sdk';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { createTestDatabase } from '@ctk/shared/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fundedCustomer, merchantWallet, orgRef, payOutputs, startStack, type TestStack } from './support.js';

// What an anonymous caller can make a merchant's wallet lose: a wallet restored from its seed scans the
// xpub's addresses in order and stops after 20 unused ones in a row (BIP44's gap limit). These tests ask
// for destinations as anyone can, and check every address handed out stays within 20 of the highest paid.

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
  it('answers a hundred requests at once on one paymail, every one, from the first 20 addresses only', async () => {
    const wallet = merchantWallet();
    const org = orgRef(wallet);
    const indexOf = indexer(wallet.xpub);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        i % 2
          ? p2p(org).then((d) => ({ script: d.outputs[0]!.script, reference: d.reference }))
          : basic(org).then((d) => ({ script: d.output, reference: '' })),
      ),
    );
    const indexes = answers.map((answer) => indexOf(answer.script));
    expect(Math.max(...indexes)).toBeLessThan(20);
    // Fresh addresses first: all 20 are handed out before any is shared.
    expect(new Set(indexes)).toEqual(new Set(Array.from({ length: 20 }, (_, i) => i)));
    // Each P2P destination still has its own reference, which tells its payment apart.
    const references = answers.map((answer) => answer.reference).filter(Boolean);
    expect(new Set(references).size).toBe(50);
  });

  it('shares the oldest unpaid address past the limit, and a payment moves the window: fresh addresses again up to 20 past it', async () => {
    const wallet = merchantWallet();
    const org = orgRef(wallet);
    const indexOf = indexer(wallet.xpub);
    const first: Awaited<ReturnType<typeof p2p>>[] = [];
    for (let i = 0; i < 20; i++) first.push(await p2p(org));
    expect(first.map((d) => indexOf(d.outputs[0]!.script))).toEqual(Array.from({ length: 20 }, (_, i) => i));
    // The 21st shares the address issued first (0/0), under a reference of its own.
    const shared = await p2p(org);
    expect(indexOf(shared.outputs[0]!.script)).toBe(0);
    expect(shared.reference).not.toBe(first[0]!.reference);

    // Both destinations of the shared address are paid, each by its own transaction, each once.
    for (const destination of [first[0]!, shared]) {
      const tx = await payOutputs(await fundedCustomer(stack.chain), destination.outputs);
      expect(
        await stack.client.receiveP2pTransaction({ target: target(org), reference: destination.reference, hex: tx.toHex() }),
      ).toMatchObject({
        txid: tx.id('hex'),
      });
    }
    // 0/5 paid: a restored wallet finds it (5 unused before it), and then looks 20 further, up to 0/25.
    const fifth = first[5]!;
    const tx = await payOutputs(await fundedCustomer(stack.chain), fifth.outputs);
    await stack.client.receiveP2pTransaction({ target: target(org), reference: fifth.reference, hex: tx.toHex() });
    const next: number[] = [];
    for (let i = 0; i < 7; i++) next.push(indexOf((await basic(org)).output));
    // Six fresh ones (20..25), then the oldest unpaid one past the paid 0/5 is shared again.
    expect(next).toEqual([20, 21, 22, 23, 24, 25, 1 + 5]);
  });

  it('frees the slot of an expired unpaid destination: its address goes to the next payer before any still open is shared', async () => {
    const wallet = merchantWallet();
    const org = orgRef(wallet);
    const indexOf = indexer(wallet.xpub);
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    for (let i = 0; i < 20; i++) await p2p(org);
    // Ten minutes on, five more share 0/0..0/4, which stay open until 25 minutes from the start.
    vi.setSystemTime(start + 10 * 60_000);
    for (let i = 0; i < 5; i++) expect(indexOf((await p2p(org)).outputs[0]!.script)).toBe(i);
    // Past the 15 minutes the first ones could be paid: 0/5..0/19 are free again, each handed out once
    // and before 0/0..0/4 (still open) are shared; no index past the limit.
    vi.setSystemTime(start + 16 * 60_000);
    const later: number[] = [];
    for (let i = 0; i < 15; i++) later.push(indexOf((await p2p(org)).outputs[0]!.script));
    expect(later).toEqual(Array.from({ length: 15 }, (_, i) => i + 5));
    expect(indexOf((await basic(org)).output)).toBe(0);
  });

  it('takes its limit from P2P_GAP_LIMIT', async () => {
    const small = await startStack({ P2P_GAP_LIMIT: '3' });
    try {
      const wallet = merchantWallet();
      const org = orgRef(wallet);
      const indexOf = indexer(wallet.xpub);
      const indexes: number[] = [];
      for (let i = 0; i < 6; i++) indexes.push(indexOf((await small.client.getPaymentDestination({ target: target(org) })).output));
      expect(indexes).toEqual([0, 1, 2, 0, 1, 2]);
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
    const org = orgRef(wallet);
    const indexOf = indexer(wallet.xpub);
    try {
      const before = await startStack(database);
      try {
        for (let i = 0; i < 10; i++) await before.client.getPaymentDestination({ target: target(org) });
      } finally {
        await before.close();
      }
      const after = await startStack({ ...database, P2P_GAP_LIMIT: '3' });
      try {
        const indexes: number[] = [];
        for (let i = 0; i < 4; i++) indexes.push(indexOf((await after.client.getPaymentDestination({ target: target(org) })).output));
        expect(indexes).toEqual([0, 1, 2, 0]);
      } finally {
        await after.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
