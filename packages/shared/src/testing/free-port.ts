import { randomInt } from 'node:crypto';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Below Linux's ephemeral ports (32768 and up), which outgoing connections are given. */
const FIRST = 20_000;
const LAST = 32_000;
/**
 * Ports handed out on this machine, one file each: a port is promised before the process it is for binds it,
 * and another process (a test file beside this one, or the distributed start a test spawned) must not hand it
 * out meanwhile. A claim older than this is stale: by then the port is bound or was never used.
 */
const CLAIMS = join(tmpdir(), 'ctk-free-ports');
const CLAIM_MS = 10 * 60_000;

/**
 * A TCP port on 127.0.0.1 that nothing listens on, for a process started next. It is drawn at random below
 * the ephemeral range: a port the kernel picks (listening on port 0) is one an outgoing connection can be
 * given before that process binds it, and the bind then fails with EADDRINUSE. Each port is handed out once
 * in ten minutes on the machine, by any process.
 */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 50; tries += 1) {
    const port = randomInt(FIRST, LAST + 1);
    if (!claim(port)) continue;
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port found between ${FIRST} and ${LAST} in 50 tries`);
}

/** True when this process now holds the port's claim: there was none, or only a stale one. */
function claim(port: number): boolean {
  mkdirSync(CLAIMS, { recursive: true });
  const file = join(CLAIMS, String(port));
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const claimedAt = statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (Date.now() - claimedAt < CLAIM_MS) return false;
  writeFileSync(file, String(process.pid));
  return true;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
