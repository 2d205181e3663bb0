import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

/** Below Linux's ephemeral ports (32768 and up), which outgoing connections are given. */
const FIRST = 20_000;
const LAST = 32_000;
/** Ports this process has handed out: not bound yet, perhaps, but promised. */
const given = new Set<number>();

/**
 * A TCP port on 127.0.0.1 that nothing listens on, for a process started next. It is drawn at random below
 * the ephemeral range: a port the kernel picks (listening on port 0) is one an outgoing connection can be
 * given before that process binds it, and the bind then fails with EADDRINUSE. Each port is handed out once
 * per process.
 */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 50; tries += 1) {
    const port = randomInt(FIRST, LAST + 1);
    if (given.has(port) || !(await canListen(port))) continue;
    given.add(port);
    return port;
  }
  throw new Error(`no free port found between ${FIRST} and ${LAST} in 50 tries`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
