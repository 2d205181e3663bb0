import type { ServerResponse } from 'node:http';
import { AppError } from '@ctk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PeerFetchOptions, peerFetch } from './peer-fetch.js';
import { type TestPeer, startTestPeer } from './test-peer-server.js';

const SECRET = 'SECRET-BODY-TEXT';
let streamClosed = false;

/** Writes chunks without a Content-Length until the client goes away. */
function streamForever(res: ServerResponse) {
  res.writeHead(200, { 'content-type': 'application/json' });
  const timer = setInterval(() => res.write(SECRET.repeat(32)), 2);
  res.on('close', () => {
    clearInterval(timer);
    streamClosed = true;
  });
}

let peer: TestPeer;
beforeAll(async () => {
  peer = await startTestPeer((req, res) => {
    if (req.path === '/big') res.writeHead(200, { 'content-length': '2000' }).end(SECRET.repeat(125));
    else if (req.path === '/exact') res.writeHead(200).end('x'.repeat(1000));
    else if (req.path === '/stream') streamForever(res);
    else if (req.path === '/silent') return;
    else if (req.path === '/stall') res.writeHead(200, { 'content-length': '100' }).write('{"partial":');
    else if (req.path === '/missing') res.writeHead(404).end('{"error":"not_found"}');
    else res.writeHead(200).end(JSON.stringify({ method: req.method, headers: req.headers, body: req.body }));
  });
});
afterAll(() => peer.close());

const options: PeerFetchOptions = { allowPrivate: true, timeoutMs: 2000, maxBytes: 1000 };

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => expect.fail('expected a failure'),
    (e: unknown) => e,
  );
  if (!AppError.is(error)) throw error;
  return error;
}

describe('peerFetch and the body size', () => {
  it('refuses a body whose Content-Length passes maxBytes, without putting the body in the message', async () => {
    const error = await failure(peerFetch(`${peer.origin}/big`, {}, options));
    expect(error.code).toBe('unavailable');
    expect(error.httpStatus).toBe(503);
    expect(error.message).toBe(
      `Peer ${peer.origin}/big sent a body larger than maxBytes (1000 bytes): Content-Length is 2000; the request was aborted.`,
    );
    expect(error.message).not.toContain(SECRET);
  });

  it('aborts a chunked body without length once it passes maxBytes', async () => {
    streamClosed = false;
    const error = await failure(peerFetch(`${peer.origin}/stream`, {}, options));
    expect(error.code).toBe('unavailable');
    expect(error.message).toMatch(/larger than maxBytes \(1000 bytes\): more than 1000 bytes arrived; the request was aborted/);
    expect(error.message).not.toContain(SECRET);
    await expect.poll(() => streamClosed).toBe(true);
  });

  it('reads a body of exactly maxBytes', async () => {
    expect((await peerFetch(`${peer.origin}/exact`, {}, options)).body).toHaveLength(1000);
  });

  it('returns an error status as an answer, not an error', async () => {
    const response = await peerFetch(`${peer.origin}/missing`, {}, options);
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body.toString())).toEqual({ error: 'not_found' });
  });
});

describe('peerFetch and time', () => {
  it.each(['/silent', '/stall'])('gives up on %s when the whole exchange passes timeoutMs', async (path) => {
    const started = Date.now();
    const error = await failure(peerFetch(`${peer.origin}${path}`, {}, { ...options, timeoutMs: 300 }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error.code).toBe('unavailable');
    expect(error.message).toBe(
      `Peer ${peer.origin}${path} did not finish within timeoutMs (300 ms for DNS, connecting, redirects and the body).`,
    );
  });

  it('counts DNS in the time', async () => {
    const never = () => new Promise<never>(() => undefined);
    const error = await failure(peerFetch('https://slow-dns.test/', {}, { ...options, timeoutMs: 300, lookup: never }));
    expect(error.message).toMatch(/did not finish within timeoutMs \(300 ms/);
  });
});

describe('peerFetch and JSON', () => {
  it('POSTs a JSON body with its type and length', async () => {
    const response = await peerFetch(`${peer.origin}/peers`, { method: 'POST', json: { peers: ['https://a.example/'] } }, options);
    const seen = JSON.parse(response.body.toString());
    expect(seen).toMatchObject({ method: 'POST', body: '{"peers":["https://a.example/"]}' });
    expect(seen.headers).toMatchObject({
      'content-type': 'application/json',
      'content-length': '32',
      accept: 'application/json',
      'user-agent': 'commerce-toolkit-federation/1',
    });
  });

  it('POSTs when given JSON without a method, and GETs without either', async () => {
    expect(JSON.parse((await peerFetch(`${peer.origin}/`, { json: [] }, options)).body.toString()).method).toBe('POST');
    expect(JSON.parse((await peerFetch(`${peer.origin}/`, {}, options)).body.toString()).method).toBe('GET');
  });

  it("keeps its own User-Agent, Host and length, and takes the caller's other headers", async () => {
    const headers = { 'Content-Length': '999', Host: 'evil.example', 'User-Agent': 'curl/8', Accept: 'application/x-ndjson' };
    const seen = JSON.parse((await peerFetch(`${peer.origin}/`, { headers }, options)).body.toString());
    expect(seen.headers).toMatchObject({
      host: `127.0.0.1:${peer.port}`,
      'user-agent': 'commerce-toolkit-federation/1',
      accept: 'application/x-ndjson',
    });
    expect(seen.headers['content-length']).toBeUndefined();
  });
});
