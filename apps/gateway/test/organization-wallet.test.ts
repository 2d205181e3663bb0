import { HD, PrivateKey } from '@bsv/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, onboard, type Gateway } from './harness.js';
import { startOwnersStack } from './owners-harness.js';
import { expectError, uniqueName } from './support.js';

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startOwnersStack();
});
afterAll(() => gateway.close());

describe('an organisation registers the public side of its wallet', () => {
  const patch = (handle: string, key: string, payload: object) =>
    gateway.app.inject({ method: 'PATCH', url: `/api/v1/organizations/${handle}`, headers: bearer(key), payload });

  it('stores an xpub, an identity public key and an avatar, and shows them back', async () => {
    const owner = await onboard(gateway, uniqueName('Wallet Cafe'));
    const xpub = HD.fromRandom().derive("m/44'/236'/0'").toPublic().toString();
    const identity = PrivateKey.fromRandom().toPublicKey().toString();
    const response = await patch(owner.handle, owner.key, {
      wallet_xpub: xpub,
      identity_public_key: identity.toUpperCase(),
      avatar_url: 'https://img.example/a.png',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ wallet_xpub: xpub, identity_public_key: identity, avatar_url: 'https://img.example/a.png' });
  });

  it('refuses an extended private key, something that is not a key, a bad identity key and a non-web avatar, writing nothing', async () => {
    const owner = await onboard(gateway, uniqueName('Wallet Cafe'));
    const xprv = HD.fromRandom().toString();
    expect(xprv.startsWith('xprv')).toBe(true);
    for (const payload of [
      { wallet_xpub: xprv },
      { wallet_xpub: 'xpub-not-really' },
      { identity_public_key: '04abcd' },
      { avatar_url: 'javascript:alert(1)' },
    ]) {
      const response = await patch(owner.handle, owner.key, payload);
      expectError(response, 422, 'validation_failed');
      expect(response.body).not.toContain(xprv);
    }
    const org = await gateway.app.inject({ method: 'GET', url: `/api/v1/organizations/${owner.handle}`, headers: bearer(owner.key) });
    expect(org.json()).toMatchObject({ wallet_xpub: null, identity_public_key: null, avatar_url: null });
  });
});

describe("an organisation's time zone, which its books and pages show days and hours in", () => {
  const patch = (handle: string, key: string, payload: object) =>
    gateway.app.inject({ method: 'PATCH', url: `/api/v1/organizations/${handle}`, headers: bearer(key), payload });

  it('is UTC until chosen, is taken at onboarding and changed, in its IANA spelling, and refuses what is no time zone, writing nothing', async () => {
    const owner = await onboard(gateway, uniqueName('Zone Cafe'));
    const read = async () =>
      (await gateway.app.inject({ method: 'GET', url: `/api/v1/organizations/${owner.handle}`, headers: bearer(owner.key) })).json();
    expect((await read()).time_zone).toBe('UTC');
    const changed = await patch(owner.handle, owner.key, { time_zone: 'america/los_angeles' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().time_zone).toBe('America/Los_Angeles');
    for (const time_zone of ['Mars/Olympus_Mons', 'Europe/Paris\u0000', '', 'x'.repeat(65)]) {
      const response = await patch(owner.handle, owner.key, { time_zone });
      expectError(response, 422, 'validation_failed');
      expect(JSON.stringify(response.json().error.details)).toContain('time_zone');
    }
    expect((await read()).time_zone).toBe('America/Los_Angeles');
    const onboarded = await onboard(gateway, uniqueName('Berlin Cafe'), { time_zone: 'Europe/Berlin' });
    const berlin = await gateway.app.inject({
      method: 'GET',
      url: `/api/v1/organizations/${onboarded.handle}`,
      headers: bearer(onboarded.key),
    });
    expect(berlin.json().time_zone).toBe('Europe/Berlin');
  });
});
