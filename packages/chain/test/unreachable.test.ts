import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PrivateKey } from '@bsv/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createChainClient } from '../src/index.js';
import { rejection } from './support.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A real HTTP server that answers every request with `respond`; it counts the requests. */
async function serve(respond: Parameters<typeof createServer>[1]): Promise<{ url: string; requests: () => number }> {
  let count = 0;
  const server = createServer((req, res) => {
    count++;
    respond!(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => count };
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the chain client when the chain cannot be used', () => {
  it('gives chain_unavailable naming the host, quickly, when nothing listens', async () => {
    const port = await closedPort();
    const client = createChainClient({ network: 'local', localUrl: `http://127.0.0.1:${port}`, retries: 2, retryBaseMs: 10 });
    const started = Date.now();
    const lookup = await rejection(client.getStatus('ab'.repeat(32)));
    expect(lookup).toMatchObject({ code: 'chain_unavailable', details: { service: 'ARC', host: `127.0.0.1:${port}`, attempts: 3 } });
    expect(lookup.message).toBe(`ARC at 127.0.0.1:${port} is unreachable (ECONNREFUSED) after 3 attempts`);
    expect((await rejection(client.listUnspent('mfWxJ45yp2SFn7UciZyNpvDKrzbhyfKrY8'))).message).toContain(
      `WhatsOnChain at 127.0.0.1:${port} is unreachable`,
    );
    expect((await rejection(client.broadcast('00'))).code).toBe('chain_unavailable');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('retries a 503 and succeeds when the service recovers', async () => {
    const txid = 'cd'.repeat(32);
    let failures = 2;
    const arc = await serve((_req, res) => {
      if (failures-- > 0) return res.writeHead(503).end('busy');
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ txid, txStatus: 'SEEN_ON_NETWORK', blockHash: '', blockHeight: 0, merklePath: '' }));
    });
    const client = createChainClient({ network: 'main', arcUrl: arc.url, wocUrl: arc.url, retries: 3, retryBaseMs: 10 });
    expect(await client.getStatus(txid)).toMatchObject({ txid, state: 'seen' });
    expect(arc.requests()).toBe(3);
  });

  it('gives up after its retries on a service that keeps failing, and times out one that never answers', async () => {
    const failing = await serve((_req, res) => res.writeHead(500).end());
    const client = createChainClient({ network: 'test', arcUrl: failing.url, wocUrl: failing.url, retries: 1, retryBaseMs: 10 });
    expect(await rejection(client.chainInfo())).toMatchObject({
      code: 'chain_unavailable',
      message: expect.stringContaining('answered 500 after 2 attempts'),
    });
    expect(failing.requests()).toBe(2);

    const silent = await serve(() => {});
    const slow = createChainClient({
      network: 'test',
      arcUrl: silent.url,
      wocUrl: silent.url,
      retries: 1,
      retryBaseMs: 10,
      timeoutMs: 200,
    });
    const started = Date.now();
    expect((await rejection(slow.chainInfo())).message).toContain('is unreachable (no answer within 200 ms) after 2 attempts');
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('does not follow a redirect, and does not retry a refusal', async () => {
    const redirecting = await serve((_req, res) => res.writeHead(301, { location: 'https://example.invalid/' }).end());
    const client = createChainClient({ network: 'main', arcUrl: redirecting.url, wocUrl: redirecting.url, retries: 3, retryBaseMs: 10 });
    expect((await rejection(client.chainInfo())).message).toContain('answered with a redirect (301), which is not followed');
    expect(redirecting.requests()).toBe(1);
  });

  it('sends the ARC API key as a bearer token to ARC only', async () => {
    const seen: Array<string | undefined> = [];
    const service = await serve((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(404).end();
    });
    const client = createChainClient({
      network: 'main',
      arcUrl: service.url,
      wocUrl: `${service.url}/woc`,
      arcApiKey: 'arc-secret',
      retries: 0,
    });
    await client.getStatus('ab'.repeat(32));
    expect(seen).toEqual(['Bearer arc-secret', undefined]);
  });
  it("reads the tip's median time past from WhatsOnChain's chain info on main and test, and says when it has none", async () => {
    const info = { chain: 'main', blocks: 900_000, bestblockhash: 'ab'.repeat(32), mediantime: 1_780_000_000 };
    let answer: Record<string, unknown> = info;
    const woc = await serve((req, res) => {
      if (req.url !== '/chain/info') return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
    for (const network of ['main', 'test'] as const) {
      const client = createChainClient({ network, arcUrl: woc.url, wocUrl: woc.url, retries: 0 });
      expect(await client.medianTimePast()).toBe(1_780_000_000);
    }
    answer = { chain: 'main', blocks: 900_000, bestblockhash: 'ab'.repeat(32) };
    const client = createChainClient({ network: 'main', arcUrl: woc.url, wocUrl: woc.url, retries: 0 });
    expect(await rejection(client.medianTimePast())).toMatchObject({
      code: 'chain_unavailable',
      message: `WhatsOnChain at ${new URL(woc.url).host} answered /chain/info without a median time (mediantime)`,
    });
  });
});

describe('the chain client reading histories in bulk', () => {
  it('reads an address the bulk answer pages, fails or leaves out on its own', async () => {
    const [paged, failed, left, plain] = [11, 12, 13, 14].map((n) => new PrivateKey(n).toAddress('testnet') as string) as [
      string,
      string,
      string,
      string,
    ];
    const tx = (n: number) => n.toString(16).padStart(64, '0');
    const asked: string[] = [];
    const api = await serve((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.method === 'GET') return res.end(JSON.stringify([{ tx_hash: tx(9), height: 5 }]));
      const part = (result: unknown[], more: Record<string, string> = {}) => ({ result, error: '', ...more });
      res.end(
        JSON.stringify([
          { address: paged, confirmed: part([{ tx_hash: tx(1), height: 3 }], { nextPageToken: 'abc' }), unconfirmed: part([]) },
          { address: failed, confirmed: part([]), unconfirmed: { result: [], error: 'busy' } },
          { address: plain, confirmed: part([{ tx_hash: tx(2), height: 4 }]), unconfirmed: part([{ tx_hash: tx(2) }, { tx_hash: tx(3) }]) },
          { address: 'someone-else', confirmed: part([]), unconfirmed: part([]) },
        ]),
      );
    });
    const client = createChainClient({ network: 'test', wocUrl: api.url, arcUrl: api.url, retries: 0 });
    expect(await client.histories([paged, failed, left, plain])).toEqual(
      new Map([
        [paged, [{ txid: tx(9), height: 5 }]],
        [failed, [{ txid: tx(9), height: 5 }]],
        [left, [{ txid: tx(9), height: 5 }]],
        [
          plain,
          [
            { txid: tx(2), height: 4 },
            { txid: tx(3), height: undefined },
          ],
        ],
      ]),
    );
    expect(asked).toEqual([
      'POST /addresses/history/all',
      `GET /address/${paged}/history`,
      `GET /address/${failed}/history`,
      `GET /address/${left}/history`,
    ]);
  });

  it('gives chain_unavailable for an answer that is not histories', async () => {
    const api = await serve((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"oops":1}'));
    const client = createChainClient({ network: 'test', wocUrl: api.url, arcUrl: api.url, retries: 0 });
    expect(await rejection(client.histories([new PrivateKey(3).toAddress('testnet') as string]))).toMatchObject({
      code: 'chain_unavailable',
    });
  });
});
