import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { P2PKH, Transaction } from '@bsv/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { ChainClock } from '../src/local/clock.js';
import { advanceClock, chainClock, MAX_CLOCK_ADVANCE_SECONDS, mineBlocks } from '../src/local/index.js';
import { fundedWallet, newWallet, rejection, startTestChain, type TestChain } from './support.js';

const DAY = 24 * 60 * 60;
const NON_FINAL = 0xfffffffe;

let chain: TestChain | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await chain?.close();
  chain = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

/** A refund-style transaction signed with @bsv/sdk: the whole coin less a fee to a new address, with this lock time and sequence. */
async function timeLocked(test: TestChain, lockTime: number, sequence = NON_FINAL): Promise<Transaction> {
  const payer = await fundedWallet(test, 50_000);
  const tx = new Transaction();
  tx.addInput({
    sourceTransaction: payer.source,
    sourceOutputIndex: payer.vout,
    unlockingScriptTemplate: new P2PKH().unlock(payer.key),
    sequence,
  });
  tx.addOutput({ lockingScript: new P2PKH().lock(newWallet().address), satoshis: 49_000 });
  tx.lockTime = lockTime;
  await tx.sign();
  return tx;
}

/** ARC's `POST /v1/tx` with the transaction in Extended Format, as JSON: the HTTP status and body. */
async function arcBroadcast(test: TestChain, tx: Transaction): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${test.running.url}/v1/tx`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rawTx: tx.toHexEF() }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const postClock = (test: TestChain, body: string) =>
  fetch(`${test.running.url}/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('time locks on the local chain, against the median time past of a clock a test moves', () => {
  it('refuses a refund locked a day ahead until blocks past its time are mined, then accepts and mines it', async () => {
    chain = await startTestChain();
    // Eleven blocks and more, so the median time past is the median of a full eleven as on a real chain.
    await mineBlocks(chain.running.url, 10);
    const start = await chainClock(chain.running.url);
    expect(start.height).toBe(11);
    const lockTime = start.now + DAY;
    const refund = await timeLocked(chain, lockTime);

    const refused = await arcBroadcast(chain, refund);
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ txid: refund.id('hex'), txStatus: 'REJECTED', extraInfo: expect.stringMatching(/^non-final/) });
    expect(refused.body.extraInfo).toContain(`nLockTime ${lockTime}`);
    expect(refused.body.extraInfo).toContain('median time past of the last 11 blocks is after');
    expect(refused.body.extraInfo).toContain(`${new Date(lockTime * 1000).toISOString().replace('.000Z', 'Z')}`);
    expect(refused.body.extraInfo).toContain(`the tip's median time past is `);
    expect((await rejection(chain.client.broadcast(refund))).details).toMatchObject({
      arc_status: 200,
      tx_status: 'REJECTED',
      detail: expect.stringMatching(/^non-final/),
    });

    // The clock past the lock time is not enough: the median time past of the blocks is what counts.
    const moved = await advanceClock(chain.running.url, 2 * DAY);
    expect(moved.now).toBeGreaterThanOrEqual(start.now + 2 * DAY);
    expect(moved.median_time_past).toBe(start.median_time_past);
    expect((await arcBroadcast(chain, refund)).body).toMatchObject({ txStatus: 'REJECTED' });

    // Five blocks at the new time leave six of the last eleven before it: the median is still behind.
    const fiveBlocks = await mineBlocks(chain.running.url, 5);
    expect(fiveBlocks.blocks[0]!.tx_count).toBe(2); // the coinbase and the refund's funding
    expect((await chainClock(chain.running.url)).median_time_past).toBeLessThan(lockTime);
    expect((await arcBroadcast(chain, refund)).body).toMatchObject({ txStatus: 'REJECTED' });

    await mineBlocks(chain.running.url, 1);
    const after = await chainClock(chain.running.url);
    expect(after.median_time_past).toBeGreaterThan(lockTime);
    expect(after.median_time_past).toBeGreaterThanOrEqual(moved.now);
    expect(await chain.client.medianTimePast()).toBe(after.median_time_past);

    const accepted = await arcBroadcast(chain, refund);
    expect(accepted).toMatchObject({ status: 200, body: { txid: refund.id('hex'), txStatus: 'SEEN_ON_NETWORK' } });
    const mined = await mineBlocks(chain.running.url);
    expect(mined.blocks[0]!.tx_count).toBe(2);
    expect(await chain.client.getStatus(refund.id('hex'))).toMatchObject({ state: 'mined', blockHeight: after.height + 1 });
  });

  it('refuses a lock of a height until the block before it is the tip, whatever the clock says', async () => {
    chain = await startTestChain();
    const height = chain.running.chain.state.height;
    const refund = await timeLocked(chain, height + 3);
    const refused = await arcBroadcast(chain, refund);
    expect(refused.body).toMatchObject({ txStatus: 'REJECTED' });
    expect(refused.body.extraInfo).toBe(
      `non-final: nLockTime ${height + 3} lets it into block ${height + 4} at the earliest (the next block is ${height + 1}), and an input's sequence is not final`,
    );

    await advanceClock(chain.running.url, MAX_CLOCK_ADVANCE_SECONDS);
    await mineBlocks(chain.running.url, 2);
    expect((await arcBroadcast(chain, refund)).body).toMatchObject({ txStatus: 'REJECTED' });
    await mineBlocks(chain.running.url);
    expect((await chain.client.broadcast(refund)).state).toBe('seen');
  });

  it('ignores the lock time when every input is final', async () => {
    chain = await startTestChain();
    const now = (await chainClock(chain.running.url)).now;
    const byTime = await timeLocked(chain, now + 365 * DAY, 0xffffffff);
    expect((await chain.client.broadcast(byTime)).state).toBe('seen');
    const byHeight = await timeLocked(chain, 499_999_999, 0xffffffff);
    expect((await chain.client.broadcast(byHeight)).state).toBe('seen');
    await mineBlocks(chain.running.url);
    expect(await chain.client.getStatus(byTime.id('hex'))).toMatchObject({ state: 'mined' });
    expect(await chain.client.getStatus(byHeight.id('hex'))).toMatchObject({ state: 'mined' });
  });

  it('accepts a time lock just below the median time past and refuses one at it', async () => {
    chain = await startTestChain();
    const mtp = chain.running.chain.state.medianTimePast();
    expect((await chain.client.broadcast(await timeLocked(chain, mtp - 1))).state).toBe('seen');
    expect((await arcBroadcast(chain, await timeLocked(chain, mtp))).body).toMatchObject({ txStatus: 'REJECTED' });
  });

  it('times blocks by the clock, each above the median time past of the eleven before it', async () => {
    chain = await startTestChain();
    const moved = await advanceClock(chain.running.url, 30 * DAY);
    const { blocks } = await mineBlocks(chain.running.url, 40);
    const state = chain.running.chain.state;
    expect(state.block(blocks[0]!.height)!.time).toBeGreaterThanOrEqual(moved.now);
    for (let height = 1; height <= state.height; height++) {
      expect(state.block(height)!.time).toBeGreaterThan(state.medianTimePast(height - 1));
      expect(state.block(height)!.time).toBeGreaterThanOrEqual(state.block(height - 1)!.time);
    }
    // Forty blocks in the same second run ahead of the clock, a second every six blocks: seven at most.
    expect(state.tip!.time - (await chainClock(chain.running.url)).now).toBeLessThanOrEqual(7);

    const woc = chain.running.wocUrl;
    const info = (await (await fetch(`${woc}/chain/info`)).json()) as { mediantime: number };
    expect(info.mediantime).toBe(state.medianTimePast());
    expect(info.mediantime).toBe((await chainClock(chain.running.url)).median_time_past);
    const header = (await (await fetch(`${woc}/block/5/header`)).json()) as { time: number; mediantime: number };
    const times = state.blocks
      .slice(0, 6)
      .map((block) => block.time)
      .sort((a, b) => a - b);
    expect(header).toMatchObject({ time: state.block(5)!.time, mediantime: times[3] });
  });

  it('answers bad clock input with a 4xx and never moves the clock back', async () => {
    chain = await startTestChain();
    const before = await chainClock(chain.running.url);
    for (const advance of [0, -60, 1.5, '60', null, MAX_CLOCK_ADVANCE_SECONDS + 1]) {
      const response = await postClock(chain, JSON.stringify({ advance_seconds: advance }));
      expect({ advance, status: response.status }).toEqual({ advance, status: 422 });
      expect(await response.json()).toEqual({
        error: {
          code: 'validation_failed',
          message: `advance_seconds must be an integer from 1 to ${MAX_CLOCK_ADVANCE_SECONDS} (ten years); the clock only goes forward`,
        },
      });
    }
    expect((await postClock(chain, '{}')).status).toBe(422);
    expect((await postClock(chain, '[1]')).status).toBe(400);
    expect((await postClock(chain, 'soon')).status).toBe(400);
    expect(await rejection(advanceClock(chain.running.url, -1))).toMatchObject({ code: 'chain_rejected', details: { status: 422 } });
    const after = await chainClock(chain.running.url);
    expect(after.now - before.now).toBeLessThan(5);
    expect(after.now).toBeGreaterThanOrEqual(before.now);

    // Forward as far as a block header's 32-bit time allows, and no further.
    let reading = after;
    let refusal: { code: string; message: string } | undefined;
    while (!refusal) {
      try {
        reading = await advanceClock(chain.running.url, MAX_CLOCK_ADVANCE_SECONDS);
      } catch (error) {
        refusal = error as { code: string; message: string };
      }
    }
    expect(refusal.message).toMatch(/past which a block header cannot hold the time/);
    const last = await chainClock(chain.running.url);
    expect(last.now - reading.now).toBeLessThan(5);
    expect(last.now).toBeLessThanOrEqual(0xffffffff);
    const { blocks } = await mineBlocks(chain.running.url, 3);
    expect(chain.running.chain.state.block(blocks[2]!.height)!.time).toBeGreaterThanOrEqual(last.now);
  });

  it('keeps the clock across a restart of a chain in a data directory', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'ctk-chain-clock-'));
    chain = await startTestChain({ dataDir });
    await advanceClock(chain.running.url, 30 * DAY);
    await mineBlocks(chain.running.url, 6);
    const before = await chainClock(chain.running.url);
    expect(JSON.parse(readFileSync(join(dataDir, 'chain', 'clock.json'), 'utf8'))).toEqual({ offset_seconds: 30 * DAY });
    await chain.close();

    chain = await startTestChain({ dataDir });
    const after = await chainClock(chain.running.url);
    expect(after).toMatchObject({ height: before.height, median_time_past: before.median_time_past });
    expect(after.now).toBeGreaterThanOrEqual(before.now);
    expect(after.now - Math.floor(Date.now() / 1000)).toBeGreaterThanOrEqual(30 * DAY);
    const { blocks } = await mineBlocks(chain.running.url);
    expect(chain.running.chain.state.block(blocks[0]!.height)!.time).toBeGreaterThanOrEqual(after.now);
  });
});

describe('the chain clock', () => {
  it('runs with real time plus its offset, and holds still when real time goes back', () => {
    let real = 1_800_000_000_500;
    const clock = new ChainClock(0, () => real);
    expect(clock.now()).toBe(1_800_000_000);
    expect(clock.advance(3_600)).toBe(1_800_003_600);
    expect(clock.offsetSeconds).toBe(3_600);
    real -= 60_000;
    expect(clock.now()).toBe(1_800_003_600);
    expect(clock.nowMs()).toBeGreaterThanOrEqual(1_800_003_600_000);
    real += 120_000;
    expect(clock.now()).toBe(1_800_003_660);
    expect(() => clock.advance(0)).toThrow(/advance_seconds must be an integer/);
    expect(new ChainClock(600, () => real).now()).toBe(1_800_000_660);
  });
});
