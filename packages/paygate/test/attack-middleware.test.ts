import { createHmac, randomUUID } from 'node:crypto';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KeyDeriver, PrivateKey, type WalletProtocol } from '@bsv/sdk';
import { eventually } from '@ctk/shared/testing';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPaygate, paygateExpress, type PaygateDecision } from '../src/server/index.js';
import { newSigningKey, startFakeGate, type FakeGate, type FakeResource } from '../src/testing/index.js';
import { fastifyApp, signedPayment } from './support.js';

/*
 * An attacker's pass over the middleware, as a client of the merchant's API: spellings of a priced path the
 * router serves, a Host header that moves the path, HEAD for GET, payee keys of the client's choosing,
 * credentials of another account, resource or key, forged, expired, withdrawn, or used past their calls,
 * and odd bytes in every payment header. A priced route's handler runs only for a paid request.
 */

let gate: FakeGate;
let weather: FakeResource;
let news: FakeResource;
let fastify: Awaited<ReturnType<typeof fastifyApp>>;
let expressBase: string;
let expressServer: Server;
/** How many times a priced handler ran, per app: what an attacker wants without paying. */
const served = { express: 0 };

beforeEach(async () => {
  gate = await startFakeGate({
    maxAgeSeconds: 1,
    resources: [
      { method: 'GET', path: '/weather/*', price_satoshis: 5, grant: { kind: 'calls', calls: 3 } },
      { method: 'GET', path: '/news', price_satoshis: 9, grant: { kind: 'window', seconds: 60 } },
      { method: 'GET', path: '/weather/premium', price_satoshis: 500, grant: { kind: 'window', seconds: 60 } },
    ],
  });
  [weather, news] = gate.resources as [FakeResource, FakeResource];
  fastify = await fastifyApp(gate);
  const app = express();
  const gated = paygateExpress({ gateUrl: gate.url, key: gate.key, account: gate.account, onError: () => undefined });
  const serve = (_request: unknown, response: express.Response) => {
    served.express++;
    response.json({ secret: 'paid content' });
  };
  app.get('/weather/:day', gated, serve);
  app.get('/news', gated, serve);
  served.express = 0;
  expressServer = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => expressServer.once('listening', resolve));
  expressBase = `http://127.0.0.1:${(expressServer.address() as AddressInfo).port}`;
  await gated.paygate.ready();
});
afterEach(async () => {
  await fastify.app.close();
  await new Promise((resolve) => expressServer.close(resolve));
  await gate.close().catch(() => undefined);
});

type Raw = { status: number; body: string; headers: Record<string, string | string[] | undefined> };

/** A request sent as written, path and Host included: `fetch` would resolve dot segments and set Host itself. */
function raw(base: string, path: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<Raw> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode!, body, headers: response.headers }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The paid content was not served: a 402 (or another refusal), never the handler's answer. */
function expectNotServed(label: string, answer: Raw, status?: number) {
  expect({
    label,
    served: answer.body.includes('forecast') || answer.body.includes('paid content') || answer.body.includes('"news"'),
  }).toEqual({
    label,
    served: false,
  });
  expect({ label, status: answer.status >= 400 && answer.status < 500 }).toEqual({ label, status: true });
  if (status) expect({ label, status: answer.status }).toEqual({ label, status });
}

describe('spellings of a priced path', () => {
  it('fastify: an escaped letter, a dot segment in any spelling or HEAD does not pass unpaid', async () => {
    for (const path of ['/%77eather/today', '/weath%65r/today', '/%6Eews', '/n%65ws?x=1'])
      expectNotServed(path, await raw(fastify.base, path), 402);
    for (const path of ['/weather/..', '/weather/%2e%2e', '/weather/%2E', '/weather/.', '/weather/.%2e'])
      expectNotServed(path, await raw(fastify.base, path), 400);
    const head = await raw(fastify.base, '/weather/today', { method: 'HEAD' });
    expect(head.status).toBe(402);
    expect(gate.checks.map((check) => new URL(check.url).pathname)).not.toContain('/');
  });

  it('Express: another case, a trailing slash, HEAD or a target in absolute form does not pass unpaid', async () => {
    for (const path of ['/WEATHER/today', '/Weather/today', '/NEWS', '/news/', '/News/?x=1'])
      expectNotServed(path, await raw(expressBase, path), 402);
    expect((await raw(expressBase, '/news', { method: 'HEAD' })).status).toBe(402);
    expectNotServed('absolute form', await raw(expressBase, 'http://evil.example/news'), 400);
    expectNotServed('dot segment', await raw(expressBase, '/weather/..'), 400);
    expect(served.express).toBe(0);
  });

  it('a Host header cannot move the path the gate is asked about', async () => {
    for (const host of ['evil.example/free?x=', 'evil.example/weather/../free#', 'evil.example?', 'a b', '127.0.0.1:1@evil.example']) {
      expectNotServed(host, await raw(fastify.base, '/news', { headers: { host } }), 402);
      expectNotServed(host, await raw(expressBase, '/news', { headers: { host } }), 402);
    }
    for (const check of gate.checks) expect(new URL(check.url).pathname).toBe('/news');
    expect(gate.checks[0]!.url).toBe('http://localhost/news');
  });
});

describe('payee keys of the client', () => {
  const BRC29: WalletProtocol = [2, '3241645161d8'];
  const chosen = PrivateKey.fromRandom().toPublicKey().toString();
  const clientHeaders = {
    payee_key: chosen,
    'payee-key': chosen,
    'x-payee-key': chosen,
    'x-bsv-payee-key': chosen,
    'x-ctk-payee-key': chosen,
  };

  async function brc121Headers() {
    const paid = await signedPayment(`76a914${'00'.repeat(20)}88ac`, 5);
    return {
      'x-bsv-beef': Buffer.from(paid.beef).toString('base64'),
      'x-bsv-sender': paid.sender,
      'x-bsv-nonce': 'bm9uY2U=',
      'x-bsv-time': String(Date.now()),
      'x-bsv-vout': '0',
    };
  }

  it('are never forwarded: without an identity key no payee_key goes to the gate', async () => {
    const headers = { ...(await brc121Headers()), ...clientHeaders };
    expectNotServed('payee headers', await raw(`${fastify.base}`, `/weather/today?payee_key=${chosen}`, { headers }), 402);
    expect(gate.checks).toHaveLength(1);
    expect(gate.checks[0]).not.toHaveProperty('payee_key');
    expect(Object.keys(gate.checks[0]!.headers).sort()).toEqual(['x-bsv-beef', 'x-bsv-nonce', 'x-bsv-sender', 'x-bsv-time', 'x-bsv-vout']);
  });

  it('with an identity key, the payee_key is the one derived from the payer’s headers, whatever the client names', async () => {
    const identity = PrivateKey.fromRandom();
    const core = createPaygate({
      gateUrl: gate.url,
      key: gate.key,
      account: gate.account,
      identityKey: identity.toHex(),
      onError: () => undefined,
    });
    try {
      const headers = await brc121Headers();
      await core.check({ method: 'GET', url: '/weather/today', headers: { ...headers, ...clientHeaders } });
      const keyId = `${headers['x-bsv-nonce']} ${Buffer.from(headers['x-bsv-time']).toString('base64')}`;
      const derived = new KeyDeriver(identity).derivePublicKey(BRC29, keyId, headers['x-bsv-sender'], true).toString();
      expect(gate.checks[0]!.payee_key).toBe(derived);
      expect(gate.checks[0]!.payee_key).not.toBe(chosen);
    } finally {
      core.close();
    }
  });
});

/** A credential's three parts, to forge from. */
function parts(token: string) {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  return { header, payload, signature, claims: JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown> };
}
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('credentials an attacker holds', () => {
  it('forged, expired, for another resource, account or key: refused at the fastify plugin and at Express', async () => {
    const real = gate.issue(weather);
    const { header, payload, signature, claims } = parts(real);
    const document = (await (await fetch(`${gate.url}/.well-known/ctk-paygate.json`)).json()) as {
      keys: Array<{ kid: string; x: string }>;
    };
    const published = document.keys[0]!;
    const hs256Header = b64({ alg: 'HS256', kid: published.kid, typ: 'ctk402' });
    const hs256 = (secret: Buffer | string) =>
      `${hs256Header}.${payload}.${createHmac('sha256', secret).update(`${hs256Header}.${payload}`).digest('base64url')}`;
    const forged: Array<[string, string]> = [
      ['alg none', `${b64({ alg: 'none', kid: published.kid, typ: 'ctk402' })}.${payload}.`],
      ['alg none, no signature part', `${b64({ alg: 'none', typ: 'ctk402' })}.${payload}`],
      ['another kid, its own key', gate.issue(weather, {}, newSigningKey('attacker-kid'))],
      ['the gate’s kid, another key', gate.issue(weather, {}, newSigningKey(published.kid))],
      ['more calls, the old signature', `${header}.${b64({ ...claims, calls: 1_000_000 })}.${signature}`],
      ['a longer expiry, the old signature', `${header}.${b64({ ...claims, exp: 4_102_444_800 })}.${signature}`],
      ['every path, the old signature', `${header}.${b64({ ...claims, pth: '/*', mth: '*' })}.${signature}`],
      ['HS256 with the public key as secret (text)', hs256(published.x)],
      ['HS256 with the public key as secret (bytes)', hs256(Buffer.from(published.x, 'base64url'))],
      ['expired', gate.issue(weather, { exp: Math.floor(Date.now() / 1000) - 1 })],
      ['another account', gate.issue(weather, { sub: randomUUID() })],
      ['another resource of the account', gate.issue(news)],
      ['a truncated signature', real.slice(0, -3)],
      ['the token twice', `${real}, ${real}`],
      ['as a bearer token', `Bearer ${real}`],
      ['5,000 characters', `${real}${'A'.repeat(5000)}`],
    ];
    for (const [label, token] of forged) {
      expectNotServed(`fastify: ${label}`, await raw(fastify.base, '/weather/today', { headers: { 'x-ctk-credential': token } }), 402);
      expectNotServed(`express: ${label}`, await raw(expressBase, '/weather/today', { headers: { 'x-ctk-credential': token } }), 402);
    }
    expect(served.express).toBe(0);
    // The real one passes, so the refusals above are the forgeries'.
    expect((await raw(expressBase, '/weather/today', { headers: { 'x-ctk-credential': real } })).status).toBe(200);
  });

  it("of this account, presented to another account's middleware on the same gate: refused there, without a call", async () => {
    const other = createPaygate({ gateUrl: gate.url, key: gate.key, account: randomUUID(), onError: () => undefined });
    try {
      await other.ready();
      const decision = await other.check({ method: 'GET', url: '/news', headers: { 'x-ctk-credential': gate.issue(news) } });
      expect(decision).toMatchObject({ pass: false, status: 402, body: { error: expect.stringContaining('another account') } });
      expect(gate.checks[0]!.headers).not.toHaveProperty('x-ctk-credential');
    } finally {
      other.close();
    }
  });

  it('bought for a prefix, does not pay for a path a more specific price covers, nor one priced after it was bought', async () => {
    const token = gate.issue(weather);
    // Fastify matches case; Express does not, so there "/Weather/Premium/" is the premium route too.
    for (const [base, path] of [
      [fastify.base, '/weather/premium'],
      [expressBase, '/weather/premium'],
      [expressBase, '/Weather/Premium/'],
    ] as const)
      expectNotServed(`${base}${path}`, await raw(base, path, { headers: { 'x-ctk-credential': token } }), 402);
    expect((await raw(expressBase, '/weather/today', { headers: { 'x-ctk-credential': token } })).status).toBe(200);
    // A price put on /weather/storm now: within the refresh window (max_age_seconds, 1 here) the credential stops paying for it.
    const window = gate.issue(news);
    gate.resources.push({ ...weather, id: randomUUID(), path: '/weather/storm', price_satoshis: 900 });
    await eventually(
      async () => expect((await raw(expressBase, '/weather/storm', { headers: { 'x-ctk-credential': token } })).status).toBe(402),
      3_000,
    );
    expect((await raw(expressBase, '/news', { headers: { 'x-ctk-credential': window } })).status).toBe(200);
  });

  it('a calls credential used 100 times at once passes exactly `calls` times', { tags: ['concurrency'] }, async () => {
    const token = gate.issue(weather);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => raw(fastify.base, `/weather/day-${i}`, { headers: { 'x-ctk-credential': token } })),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(3);
    expect(answers.filter((answer) => answer.status === 402)).toHaveLength(97);
  });

  it('of a withdrawn resource, or revoked: refused within the refresh window (max_age_seconds)', async () => {
    const window = gate.issue(news);
    const calls = gate.issue(weather);
    const jti = parts(calls).claims.jti as string;
    const core = createPaygate({ gateUrl: gate.url, key: gate.key, account: gate.account, onError: () => undefined });
    try {
      await core.ready();
      const use = (token: string, url: string) => core.check({ method: 'GET', url, headers: { 'x-ctk-credential': token } });
      expect(use(window, '/news')).toEqual({ pass: true, headers: {} });
      expect(use(calls, '/weather/today')).toEqual({ pass: true, headers: {} });
      // Withdrawn, the path is free; priced again, the old credential buys nothing.
      gate.revokeResource(news.id);
      gate.resources.push({ ...news, id: randomUUID(), price_satoshis: 90 });
      gate.revokeCredential(jti);
      const started = Date.now();
      await eventually(async () => {
        expect(await use(window, '/news')).toMatchObject({ pass: false, status: 402 });
        expect(await use(calls, '/weather/today')).toMatchObject({ pass: false, status: 402 });
      }, 3_000);
      // max_age_seconds is 1 here: the next refresh, not the credential's expiry, ended it.
      expect(Date.now() - started).toBeLessThan(2_500);
    } finally {
      core.close();
    }
  });
});

describe('odd bytes in every payment header', () => {
  const ODD = ['\u0000', '\u0007', '\u001b[31m', '\u202e', '%00', '%2e%2e%2f', 'x'.repeat(5000), '../../etc/passwd', '{"x402Version":2}'];
  const HEADERS = ['x-bsv-beef', 'x-bsv-sender', 'x-bsv-nonce', 'x-bsv-time', 'x-bsv-vout', 'payment-signature', 'x-ctk-credential'];

  it('are answered 402 or 413, never passed, never a failure of the server', async () => {
    const identity = PrivateKey.fromRandom();
    const core = createPaygate({
      gateUrl: gate.url,
      key: gate.key,
      account: gate.account,
      identityKey: identity.toHex(),
      onError: () => undefined,
    });
    try {
      await core.ready();
      const base = {
        'x-bsv-beef': 'AQC+7w==',
        'x-bsv-sender': identity.toPublicKey().toString(),
        'x-bsv-nonce': 'bm9uY2U=',
        'x-bsv-time': String(Date.now()),
        'x-bsv-vout': '0',
      };
      for (const name of HEADERS)
        for (const value of ODD) {
          const label = `${name}: ${JSON.stringify(value.slice(0, 12))}`;
          const decision: PaygateDecision = await core.check({ method: 'GET', url: '/weather/today', headers: { ...base, [name]: value } });
          expect({ label, pass: decision.pass }).toEqual({ label, pass: false });
          if (!decision.pass) expect({ label, status: [402, 413].includes(decision.status) }).toEqual({ label, status: true });
        }
      // The same in the URL: path and query.
      for (const value of ODD.filter((text) => !/[\u0000-\u001f]/.test(text))) {
        const decision = await core.check({
          method: 'GET',
          url: `/weather/${encodeURIComponent(value)}?q=${encodeURIComponent(value)}`,
          headers: {},
        });
        expect({ value: value.slice(0, 12), decision }).toMatchObject({
          value: value.slice(0, 12),
          decision: { pass: false, status: 402 },
        });
      }
    } finally {
      core.close();
    }
  });

  it('a 4 MB BEEF of junk is 413, without asking the gate', async () => {
    const core = createPaygate({ gateUrl: gate.url, key: gate.key, account: gate.account, onError: () => undefined });
    try {
      const junk = Buffer.alloc(3_000_000, 0xff).toString('base64');
      for (const headers of [{ 'x-bsv-beef': junk, 'x-bsv-vout': '0' }, { 'payment-signature': junk }])
        expect(await core.check({ method: 'GET', url: '/weather/today', headers })).toMatchObject({ pass: false, status: 413 });
      expect(gate.requests.check).toBe(0);
    } finally {
      core.close();
    }
  });
});
