import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (
  request: { method: string; path: string; body: unknown },
  base: string,
) => { status?: number; body: unknown } | Promise<{ status?: number; body: unknown }>;

/** A tiny JSON server on 127.0.0.1:0 standing in for a merchant (payment requests, paymail): real HTTP, its own logic. */
export async function startJsonServer(handler: Handler): Promise<{ base: string; host: string; close(): Promise<void> }> {
  let base = '';
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        const answer = await handler(
          { method: request.method ?? 'GET', path: decodeURIComponent(request.url ?? '/'), body: text ? JSON.parse(text) : undefined },
          base,
        );
        response.writeHead(answer.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
      } catch (error) {
        response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: (error as Error).message }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  return { base, host: `127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
