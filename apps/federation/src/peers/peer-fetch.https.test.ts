import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { type Server, createServer } from 'node:tls';
import { AppError } from '@ctk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peerFetch } from './peer-fetch.js';
import { testResolver } from './test-peer-server.js';

/** A TLS server that records the SNI name each handshake asks for, then ends it (it has no certificate to offer). */
const serverNames: (string | undefined)[] = [];
let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer({
    SNICallback: (servername, callback) => {
      serverNames.push(servername);
      callback(new Error('no certificate in this test'));
    },
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('peerFetch over https', () => {
  it('connects to the checked address and asks TLS for the host name (SNI)', async () => {
    const { lookup, calls } = testResolver({ 'peer.test': ['127.0.0.1'] });
    const error = await peerFetch(
      `https://peer.test:${port}/feed`,
      {},
      { allowPrivate: true, timeoutMs: 2000, maxBytes: 1000, lookup },
    ).catch((e: unknown) => e);
    expect(serverNames).toEqual(['peer.test']);
    expect(calls).toEqual(['peer.test']);
    expect(AppError.is(error) && error.code).toBe('unavailable');
    expect(AppError.is(error) && error.message).toMatch(new RegExp(`^Peer https://peer\\.test:${port}/feed could not be reached \\(`));
  });

  it('refuses a loopback https URL without the allowance, before any handshake', async () => {
    const before = serverNames.length;
    await expect(peerFetch(`https://127.0.0.1:${port}/`, {}, { allowPrivate: false, timeoutMs: 2000, maxBytes: 1000 })).rejects.toThrow(
      /FEDERATION_ALLOW_PRIVATE_PEERS/,
    );
    expect(serverNames.length).toBe(before);
  });
});

describe('peerFetch and a peer that accepts but never speaks TLS', () => {
  it('hits the timeout', async () => {
    const silent = createTcpServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as AddressInfo).port;
    const options = { allowPrivate: true, timeoutMs: 300, maxBytes: 1000 };
    await expect(peerFetch(`https://127.0.0.1:${silentPort}/`, {}, options)).rejects.toThrow(/did not finish within timeoutMs \(300 ms/);
    silent.close();
  });
});
