import { describe, expect, it } from 'vitest';
import { groupCommit } from '../src/db/group-commit.js';

/** A write that records each batch it is given and how many batches were being written at once. */
function recordingWrite() {
  const batches: string[][] = [];
  let writing = 0;
  let mostAtOnce = 0;
  const release: (() => void)[] = [];
  const write = async (batch: string[]) => {
    batches.push(batch);
    writing++;
    mostAtOnce = Math.max(mostAtOnce, writing);
    await new Promise<void>((resolve) => release.push(resolve));
    writing--;
    return batch.map((item) => `${item} written`);
  };
  /** Lets the writes in progress finish, until none is left. */
  const finish = async (all: Promise<unknown>) => {
    let done = false;
    void all.finally(() => (done = true));
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      release.splice(0).forEach((resolve) => resolve());
    }
  };
  return { write, batches, finish, mostAtOnce: () => mostAtOnce };
}

describe('groupCommit', () => {
  it('writes a lone item at once, and what arrives while every lane writes in the next batches', async () => {
    const { write, batches, finish, mostAtOnce } = recordingWrite();
    const submit = groupCommit(write, { maxBatch: 3, spanName: 'test.write', lanes: 2 });
    const first = submit('a');
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([['a']]);
    const all = Promise.all([first, ...['b', 'c', 'd', 'e', 'f', 'g'].map(submit)]);
    await finish(all);
    expect(await all).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((item) => `${item} written`));
    // The second lane takes what came next, at most three; the rest waits for a lane.
    expect(batches).toEqual([['a'], ['b', 'c', 'd'], ['e', 'f', 'g']]);
    expect(mostAtOnce()).toBe(2);
  });

  it('never puts two items of one key in a batch, and keeps their order', async () => {
    const { write, batches, finish } = recordingWrite();
    const submit = groupCommit(write, { maxBatch: 10, spanName: 'test.write', keyOf: (item) => item[0]! });
    const all = Promise.all(['a1', 'b1', 'a2', 'c1', 'a3', 'b2'].map(submit));
    await finish(all);
    expect(batches).toEqual([['a1', 'b1', 'c1'], ['a2', 'b2'], ['a3']]);
  });

  it('fails every item of a batch whose write throws, and writes the next batch', async () => {
    let calls = 0;
    const submit = groupCommit(
      async (batch: string[]) => {
        calls++;
        if (batch.includes('bad')) throw new Error('refused');
        return batch;
      },
      { maxBatch: 2, spanName: 'test.write' },
    );
    const results = await Promise.allSettled(['bad', 'good', 'next'].map(submit));
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect(calls).toBe(2);
  });
});
