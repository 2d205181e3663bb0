import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { freePort } from '../src/testing/free-port.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/free-ports.ts', import.meta.url));
const COUNT = 200;

describe('freePort', () => {
  // Drawn at random from 12,001 ports, two processes' 200 each would share about three; a process that starts
  // another (the distributed start a test spawns) must not be handed a port the first promised and has not bound.
  it('never hands two processes the same port', async () => {
    const other = promisify(execFile)(process.execPath, ['--import', 'tsx', FIXTURE, String(COUNT)], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
    });
    const mine: number[] = [];
    for (let index = 0; index < COUNT; index += 1) mine.push(await freePort());
    const theirs = (await other).stdout.split('\n').filter(Boolean).map(Number);
    expect(theirs).toHaveLength(COUNT);
    expect(new Set([...mine, ...theirs]).size).toBe(2 * COUNT);
  });
});
