import { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as a test peer received it. */
export type ReceivedRequest = { method: string; path: string; headers: IncomingHttpHeaders; body: string };

/** A real HTTP server on 127.0.0.1 and a free port, recording what it receives (for the fetcher's tests only). */
export type TestPeer = { port: number; origin: string; received: ReceivedRequest[]; close: () => Promise<void> };

/** Starts a test peer; the handler answers each request once its body has arrived (or never, to test timeouts). */
export async function startTestPeer(handler: (req: ReceivedRequest, res: ServerResponse) => void): Promise<TestPeer> {
  const received: ReceivedRequest[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() };
      received.push(request);
      handler(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A resolver for tests: names map to fixed addresses; any other name is not found. */
export function testResolver(names: Record<string, string[]>) {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    const addresses = names[hostname];
    if (addresses === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { lookup, calls };
}
