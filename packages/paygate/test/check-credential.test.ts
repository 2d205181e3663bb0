import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPaygate, type PaygateCore, type PaygateDecision } from '../src/server/index.js';
import { newSigningKey, startFakeGate, type FakeGate, type FakeResource } from '../src/testing/index.js';
import { eventually } from '@ctk/shared/testing';

let gate: FakeGate;
let core: PaygateCore;
let weather: FakeResource;
let reports: FakeResource;
let readReports: FakeResource;

beforeEach(async () => {
  gate = await startFakeGate({
    resources: [
      { method: 'GET', path: '/weather/*', price_satoshis: 5, grant: { kind: 'window', seconds: 3600 } },
      { method: 'POST', path: '/reports', price_satoshis: 20, grant: { kind: 'calls', calls: 3 } },
      { method: 'GET', path: '/reports', price_satoshis: 2, grant: { kind: 'window', seconds: 60 } },
      { method: 'GET', path: '/maps/*', price_satoshis: 7, grant: { kind: 'window', seconds: 60 } },
    ],
  });
  [weather, reports, readReports] = gate.resources as [FakeResource, FakeResource, FakeResource];
  core = createPaygate({ gateUrl: gate.url, key: gate.key, account: gate.account, onError: () => undefined });
  await core.ready();
});
afterEach(async () => {
  core.close();
  await gate.close();
});

const withCredential = (token: string, method = 'GET', url = '/weather/today?units=metric') =>
  core.check({ method, url, headers: { 'x-ctk-credential': token, cookie: 'session=secret' } });

/** A refused credential: the gate is asked for a payment request, without the credential, and the 402 says why. */
async function expectRefused(decision: PaygateDecision | Promise<PaygateDecision>, why: string) {
  const settled = await decision;
  expect(settled).toMatchObject({ pass: false, status: 402 });
  expect((settled as { body: { error: string } }).body.error).toContain(why);
  expect(gate.requests.check).toBe(1);
  expect(gate.checks[0]!.headers).toEqual({});
}

describe('the local credential check', () => {
  it('passes a valid credential synchronously, without asking the gate', async () => {
    const decision = withCredential(gate.issue(weather));
    expect(decision).toEqual({ pass: true, headers: {} });
    expect(await withCredential(gate.issue(weather), 'GET', '/weather')).toMatchObject({ pass: true });
    expect(gate.requests.check).toBe(0);
  });

  it('passes a credential without iss, as the gate of decision 0021 signs them, and refuses one naming another issuer', async () => {
    expect(withCredential(gate.issue(weather, { iss: undefined }))).toEqual({ pass: true, headers: {} });
    await expectRefused(withCredential(gate.issue(weather, { iss: 'https://another.example' })), 'another gate issued it');
  });

  it('refuses an expired credential', async () => {
    await expectRefused(withCredential(gate.issue(weather, { exp: Math.floor(Date.now() / 1000) - 1 })), 'it has expired');
  });

  it('refuses a credential for another path', async () => {
    await expectRefused(withCredential(gate.issue(weather), 'GET', '/maps/paris'), 'does not cover this path');
  });

  it('refuses a credential for another method', async () => {
    expect(readReports.method).toBe('GET');
    await expectRefused(withCredential(gate.issue(reports), 'GET', '/reports'), 'does not cover this method');
  });

  it('refuses a credential whose signature does not verify', async () => {
    const forged = gate.issue(weather, {}, newSigningKey(gate.kid));
    await expectRefused(withCredential(forged), 'signature does not verify');
    const [header, payload] = gate.issue(weather).split('.');
    const otherClaims = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), pth: '/*' })).toString(
      'base64url',
    );
    const tampered = `${header}.${otherClaims}.${gate.issue(weather).split('.')[2]}`;
    expect(await withCredential(tampered)).toMatchObject({ pass: false, status: 402 });
  });

  it('refuses a credential bought from another account of the same gate', async () => {
    await expectRefused(withCredential(gate.issue(weather, { sub: 'another-account' })), 'bought from another account');
  });

  it('hands a credential of an unknown kid to the gate, and fetches the published keys again', async () => {
    const documents = gate.requests.document;
    const decision = await withCredential(gate.issue(weather, {}, newSigningKey('a-kid-nobody-published')));
    expect(decision).toMatchObject({ pass: false, status: 402 });
    expect(gate.checks[0]!.headers).toHaveProperty('x-ctk-credential');
    expect((decision as { body: { error: string } }).body.error).toContain('The credential was refused');
    expect(gate.requests.document).toBe(documents + 1);
  });

  it('accepts a key published after start once the gate names it (rotation)', async () => {
    gate.rotateKey();
    const token = gate.issue(weather);
    expect(await withCredential(token)).toMatchObject({ pass: true, headers: {} });
    expect(gate.requests.check).toBe(1); // the gate judged it while the new key was unknown here
    // The unknown kid made the core fetch the published document again: once it has, the key is known here.
    await eventually(() => expect(gate.requests.document).toBe(2));
    await new Promise((resolve) => setTimeout(resolve, 200)); // the answer read and applied
    expect(withCredential(token)).toEqual({ pass: true, headers: {} });
    expect(gate.requests.check).toBe(1);
  });

  it('refuses a credential of a withdrawn resource or a revoked credential, from the next published document', async () => {
    const token = gate.issue(weather);
    const revokedJti = JSON.parse(Buffer.from(gate.issue(reports).split('.')[1]!, 'base64url').toString()).jti;
    // The resource is withdrawn and the path priced again: the old credential buys nothing.
    gate.revokeResource(weather.id);
    gate.resources.push({ ...weather, id: 'weather-again', price_satoshis: 50 });
    gate.revokeCredential(revokedJti);
    core.close();
    core = createPaygate({ gateUrl: gate.url, key: gate.key, account: gate.account, onError: () => undefined });
    await core.ready();
    await expectRefused(withCredential(token), 'its resource was withdrawn');
    const revoked = gate.issue(reports, { jti: revokedJti });
    expect(await withCredential(revoked, 'POST', '/reports')).toMatchObject({
      pass: false,
      body: { error: expect.stringContaining('it was revoked') },
    });
  });

  it('counts the uses of a calls grant in this process and refuses the one past them', async () => {
    const token = gate.issue(reports);
    for (let use = 1; use <= 3; use++) expect(withCredential(token, 'POST', '/reports')).toEqual({ pass: true, headers: {} });
    await expectRefused(withCredential(token, 'POST', '/reports'), 'every call it paid for is used');
    expect(gate.checks[0]!.headers).not.toHaveProperty('x-ctk-credential');
  });

  it('forwards only the payment headers to the gate, with the paygate key', async () => {
    await core.check({
      method: 'GET',
      url: '/weather/today',
      headers: { cookie: 'session=secret', authorization: 'Bearer user-key', 'x-bsv-sender': '02ab', 'x-bsv-time': '1' },
    });
    expect(gate.checks[0]!.headers).toEqual({ 'x-bsv-sender': '02ab', 'x-bsv-time': '1' });
  });
});

describe('the published document', () => {
  it('is fetched again every max_age_seconds, and a failed fetch keeps the last one', async () => {
    const quick = await startFakeGate({
      maxAgeSeconds: 1,
      resources: [{ method: 'GET', path: '/news', price_satoshis: 1, grant: { kind: 'window', seconds: 60 } }],
    });
    const errors: Error[] = [];
    const local = createPaygate({ gateUrl: quick.url, key: quick.key, account: quick.account, onError: (error) => errors.push(error) });
    try {
      await local.ready();
      const token = quick.issue(quick.resources[0]!);
      const jti = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).jti;
      expect(local.check({ method: 'GET', url: '/news', headers: { 'x-ctk-credential': token } })).toMatchObject({ pass: true });
      quick.revokeCredential(jti);
      await eventually(async () => {
        expect(await local.check({ method: 'GET', url: '/news', headers: { 'x-ctk-credential': token } })).toMatchObject({
          pass: false,
          status: 402,
        });
      });
      // The gate goes away: the last document still judges credentials; asking the gate is a 503.
      const fresh = quick.issue(quick.resources[0]!);
      await quick.close();
      await eventually(() => expect(errors.some((error) => /published document .* unreachable/.test(error.message))).toBe(true), 5_000);
      expect(local.check({ method: 'GET', url: '/news', headers: { 'x-ctk-credential': fresh } })).toMatchObject({ pass: true });
      expect(await local.check({ method: 'GET', url: '/news', headers: {} })).toMatchObject({ pass: false, status: 503 });
    } finally {
      local.close();
    }
  });

  it('sends credentials to the gate until the account is known, then checks them here', async () => {
    const unnamed = createPaygate({ gateUrl: gate.url, key: gate.key, onError: () => undefined });
    try {
      await unnamed.ready();
      const token = gate.issue(weather);
      expect(await unnamed.check({ method: 'GET', url: '/weather/today', headers: { 'x-ctk-credential': token } })).toMatchObject({
        pass: true,
      });
      expect(gate.requests.check).toBe(1);
    } finally {
      unnamed.close();
    }
  });
});
