import { AppError } from '@ctk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PeerFetchOptions, peerFetch } from './peer-fetch.js';
import { type TestPeer, startTestPeer, testResolver } from './test-peer-server.js';

let peer: TestPeer;
beforeAll(async () => {
  peer = await startTestPeer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
});
afterAll(() => peer.close());

/** A resolver that fails the test if asked: IP literals must be checked without DNS. */
const noDns = async (hostname: string): Promise<never> => {
  throw new Error(`unexpected DNS lookup of ${hostname}`);
};
const strict: PeerFetchOptions = { allowPrivate: false, timeoutMs: 2000, maxBytes: 1 << 16, lookup: noDns };
const allowing: PeerFetchOptions = { ...strict, allowPrivate: true };

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => expect.fail('expected a refusal'),
    (e: unknown) => e,
  );
  if (!AppError.is(error)) throw error;
  return error;
}

describe('peerFetch and loopback', () => {
  it('refuses a loopback URL without the allowance, naming the setting, before connecting', async () => {
    const before = peer.received.length;
    const error = await refusal(peerFetch(`${peer.origin}/feed`, {}, { ...strict, field: 'peer_url' }));
    expect(error.code).toBe('validation_failed');
    expect(error.details).toMatchObject({ field: 'peer_url', range: 'loopback' });
    expect(error.message).toMatch(/its address is loopback, which is not public/);
    expect(error.message).toMatch(/FEDERATION_ALLOW_PRIVATE_PEERS=true/);
    expect(peer.received.length).toBe(before);
  });

  it('serves it with the allowance, sending Accept and the User-Agent', async () => {
    const response = await peerFetch(`${peer.origin}/feed?x=1`, {}, allowing);
    expect(response).toMatchObject({ status: 200, url: `${peer.origin}/feed?x=1`, headers: { 'content-type': 'application/json' } });
    expect(JSON.parse(response.body.toString())).toEqual({ ok: true });
    expect(peer.received.at(-1)).toMatchObject({ method: 'GET', path: '/feed?x=1' });
    expect(peer.received.at(-1)?.headers).toMatchObject({ accept: 'application/json', 'user-agent': 'commerce-toolkit-federation/1' });
  });
});

describe('peerFetch and IP-literal spellings', () => {
  it.each(['http://2130706433:PORT/', 'http://0x7f.1:PORT/', 'http://[::ffff:127.0.0.1]:PORT/', 'http://[::1]:PORT/'])(
    'refuses %s (loopback) without DNS or a connection',
    async (spelling) => {
      const before = peer.received.length;
      const error = await refusal(peerFetch(spelling.replace('PORT', String(peer.port)), {}, strict));
      expect(error.code).toBe('validation_failed');
      expect(error.message).toMatch(/not public.*FEDERATION_ALLOW_PRIVATE_PEERS=true/);
      expect(peer.received.length).toBe(before);
    },
  );

  it.each(['http://10.0.0.1/', 'http://192.168.1.1/', 'http://100.64.0.1/', 'http://[fc00::1]/', 'http://0xa.1/'])(
    'refuses the private %s',
    async (url) => {
      const error = await refusal(peerFetch(url, {}, strict));
      expect(error.code).toBe('validation_failed');
      expect(error.message).toMatch(/FEDERATION_ALLOW_PRIVATE_PEERS=true/);
    },
  );

  it.each([
    'http://0.0.0.0:PORT/',
    'http://0:PORT/',
    'http://169.254.169.254/latest/meta-data',
    'http://[fe80::1]/',
    'http://[::ffff:a9fe:a9fe]/',
  ])('refuses %s even with the allowance, saying it never allows such addresses', async (spelling) => {
    const before = peer.received.length;
    const error = await refusal(peerFetch(spelling.replace('PORT', String(peer.port)), {}, allowing));
    expect(error.code).toBe('validation_failed');
    expect(error.message).toMatch(/never allowed, not even with FEDERATION_ALLOW_PRIVATE_PEERS/);
    expect(peer.received.length).toBe(before);
  });
});

describe('peerFetch and host names', () => {
  it('refuses a name that resolves to a private address, without naming the address', async () => {
    const { lookup } = testResolver({ 'peer.test': ['10.0.0.7'] });
    const error = await refusal(peerFetch('https://peer.test/feed', {}, { ...strict, lookup }));
    expect(error.code).toBe('validation_failed');
    expect(error.message).toMatch(/its host peer\.test resolves to a private address, which is not public/);
    expect(error.message).toMatch(/FEDERATION_ALLOW_PRIVATE_PEERS/);
    expect(error.message).not.toMatch(/10\.0\.0\.7/);
  });

  it('refuses a name that resolves to a public address and a private one', async () => {
    const { lookup } = testResolver({ 'mixed.test': ['93.184.215.14', '127.0.0.1'] });
    const error = await refusal(peerFetch('https://mixed.test/', {}, { ...strict, lookup }));
    expect(error.code).toBe('validation_failed');
    expect(error.message).toMatch(/mixed\.test resolves to a loopback address/);
  });

  it('connects to the address it checked, asking DNS once, and keeps the name in the Host header', async () => {
    let answers = 0;
    const rebinding = async () => [{ address: answers++ === 0 ? '127.0.0.1' : '169.254.169.254', family: 4 }];
    const response = await peerFetch(`http://peer.test:${peer.port}/feed`, {}, { ...allowing, lookup: rebinding });
    expect(response.status).toBe(200);
    expect(answers).toBe(1);
    expect(peer.received.at(-1)?.headers.host).toBe(`peer.test:${peer.port}`);
  });

  it('says a name could not be resolved (unavailable)', async () => {
    const { lookup } = testResolver({});
    const error = await refusal(peerFetch('https://nowhere.test/', {}, { ...strict, lookup }));
    expect(error.code).toBe('unavailable');
    expect(error.message).toBe('Peer https://nowhere.test/ could not be resolved (ENOTFOUND).');
  });

  it('says a peer could not be reached (unavailable)', async () => {
    const closed = await startTestPeer(() => undefined);
    await closed.close();
    const error = await refusal(peerFetch(`${closed.origin}/feed`, {}, allowing));
    expect(error.code).toBe('unavailable');
    expect(error.message).toBe(`Peer ${closed.origin}/feed could not be reached (ECONNREFUSED).`);
  });
});

describe('peerFetch and URL problems', () => {
  it.each(['file:///etc/passwd', 'ftp://peer.example/feed', 'http://user:pass@peer.example/'])('refuses %s', async (url) => {
    const error = await refusal(peerFetch(url, {}, { ...allowing, field: 'peer_url' }));
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual({ field: 'peer_url' });
    expect(error.message).not.toMatch(/pass@/);
  });
});
