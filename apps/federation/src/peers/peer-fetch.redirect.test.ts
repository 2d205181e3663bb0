import { AppError } from '@ctk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PeerFetchOptions, peerFetch } from './peer-fetch.js';
import { type TestPeer, startTestPeer, testResolver } from './test-peer-server.js';

/** A peer whose paths say what to answer: /to/<status>?<location> redirects, /hop/<n> redirects n more times. */
let peer: TestPeer;
beforeAll(async () => {
  peer = await startTestPeer((req, res) => {
    const url = new URL(req.path, 'http://peer');
    const redirect = /^\/to\/(\d+)$/.exec(url.pathname);
    const hop = /^\/hop\/(\d+)$/.exec(url.pathname);
    if (redirect) res.writeHead(Number(redirect[1]), { location: decodeURIComponent(url.search.slice(1)) }).end('moved');
    else if (hop) res.writeHead(302, { location: Number(hop[1]) > 0 ? `/hop/${Number(hop[1]) - 1}` : '/done' }).end();
    else if (url.pathname === '/no-location') res.writeHead(302).end();
    else res.writeHead(200).end(JSON.stringify({ method: req.method, body: req.body }));
  });
});
afterAll(() => peer.close());

const options: PeerFetchOptions = { allowPrivate: true, timeoutMs: 2000, maxBytes: 1 << 16 };
const to = (status: number, location: string) => `${peer.origin}/to/${status}?${encodeURIComponent(location)}`;

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => expect.fail('expected a refusal'),
    (e: unknown) => e,
  );
  if (!AppError.is(error)) throw error;
  return error;
}

describe('peerFetch follows redirects itself', () => {
  it('follows a relative Location against the current URL and reports the final URL', async () => {
    const response = await peerFetch(to(301, '/done?x=1'), {}, options);
    expect(response).toMatchObject({ status: 200, url: `${peer.origin}/done?x=1` });
  });

  it('follows up to maxRedirects hops', async () => {
    const response = await peerFetch(`${peer.origin}/hop/2`, {}, { ...options, maxRedirects: 3 });
    expect(response).toMatchObject({ status: 200, url: `${peer.origin}/done` });
  });

  it('refuses a chain longer than maxRedirects (default 3), naming the URL and the limit', async () => {
    const before = peer.received.length;
    const error = await refusal(peerFetch(`${peer.origin}/hop/3`, {}, options));
    expect(error.code).toBe('unavailable');
    expect(error.message).toBe(
      `Peer ${peer.origin}/hop/3 redirected more than maxRedirects (3) times; the next Location was ${peer.origin}/done.`,
    );
    expect(peer.received.length - before).toBe(4);
    await expect(peerFetch(`${peer.origin}/hop/0`, {}, { ...options, maxRedirects: 0 })).rejects.toThrow(/maxRedirects \(0\)/);
  });

  it('returns a redirect status without a Location as it is', async () => {
    expect((await peerFetch(`${peer.origin}/no-location`, {}, options)).status).toBe(302);
  });
});

describe('peerFetch checks every hop', () => {
  it.each([
    'http://169.254.169.254/latest/meta-data',
    'http://[fe80::1]/',
    'http://[::ffff:169.254.169.254]/',
    'http://0.0.0.0:PORT/done',
    'http://metadata.test/computeMetadata/v1/',
  ])('refuses a redirect to %s though the first hop was allowed', async (target) => {
    const { lookup } = testResolver({ 'metadata.test': ['169.254.169.254'] });
    const start = to(302, target.replace('PORT', String(peer.port)));
    const error = await refusal(peerFetch(start, {}, { ...options, lookup, field: 'peer_url' }));
    expect(error.code).toBe('validation_failed');
    expect(error.details).toMatchObject({ field: 'peer_url' });
    expect(error.message).toContain(`(a redirect from ${start})`);
    expect(error.message).toMatch(/not public\. Such addresses are never allowed, not even with FEDERATION_ALLOW_PRIVATE_PEERS/);
    expect(error.message).not.toContain('moved');
  });

  it.each(['file:///etc/passwd', 'ftp://peer.example/', 'http://user:pw@peer.example/'])('refuses a redirect to %s', async (target) => {
    const error = await refusal(peerFetch(to(307, target), {}, options));
    expect(error.code).toBe('validation_failed');
    expect(error.message).toMatch(/^Peer URL .* \(a redirect from .*\) refused: a peer URL must/);
  });
});

describe('peerFetch and the method across redirects', () => {
  it('turns a POST into a GET without body on 303', async () => {
    const response = await peerFetch(to(303, '/done'), { json: { peers: ['a'] } }, options);
    expect(JSON.parse(response.body.toString())).toEqual({ method: 'GET', body: '' });
    expect(peer.received.at(-2)).toMatchObject({ method: 'POST', body: '{"peers":["a"]}' });
    expect(peer.received.at(-1)?.headers['content-type']).toBeUndefined();
  });

  it.each([307, 308])('keeps the POST and its body on %s', async (status) => {
    const response = await peerFetch(to(status, '/done'), { method: 'POST', json: { peers: ['a'] } }, options);
    expect(JSON.parse(response.body.toString())).toEqual({ method: 'POST', body: '{"peers":["a"]}' });
    expect(peer.received.at(-1)?.headers['content-type']).toBe('application/json');
  });

  it('drops credentials in headers when a redirect leaves the origin, and keeps them within it', async () => {
    const { lookup } = testResolver({ 'other.test': ['127.0.0.1'] });
    const headers = { Authorization: 'Bearer secret', 'X-Peer': 'me' };
    await peerFetch(to(302, '/done'), { headers }, { ...options, lookup });
    expect(peer.received.at(-1)?.headers).toMatchObject({ authorization: 'Bearer secret', 'x-peer': 'me' });
    await peerFetch(to(302, `http://other.test:${peer.port}/done`), { headers }, { ...options, lookup });
    expect(peer.received.at(-2)?.headers.authorization).toBe('Bearer secret');
    expect(peer.received.at(-1)?.headers.authorization).toBeUndefined();
    expect(peer.received.at(-1)?.headers).toMatchObject({ host: `other.test:${peer.port}`, 'x-peer': 'me' });
  });
});
