import { PrivateKey, Utils } from '@bsv/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { didKeyFromPublicKey } from './did-key.js';
import { bearer, startTestGateway, type Gateway } from './harness.js';
import { expectError, SERVICES_DOWN, tableCounts } from './support.js';

const PUBLIC_URL = 'https://pay.example.org';

let gateway: Gateway;

beforeAll(async () => {
  gateway = await startTestGateway({ ...SERVICES_DOWN, CTK_PUBLIC_URL: PUBLIC_URL });
});
afterAll(async () => {
  await gateway?.close();
});

type Challenge = { did: string; nonce: string; message: string; expires_at: string };

function newIdentity() {
  const privateKey = PrivateKey.fromRandom();
  return { privateKey, did: didKeyFromPublicKey(privateKey.toPublicKey()) };
}

function sign(privateKey: PrivateKey, message: string): string {
  return privateKey.sign(message, 'utf8').toDER('hex') as string;
}

async function challenge(did: string): Promise<Challenge> {
  const response = await gateway.app.inject({ method: 'POST', url: '/api/auth/challenge', payload: { did } });
  expect(response.statusCode).toBe(201);
  return response.json();
}

function verify(nonce: string, signature: string) {
  return gateway.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { nonce, signature } });
}

async function signIn(identity: ReturnType<typeof newIdentity>) {
  const { nonce, message } = await challenge(identity.did);
  const response = await verify(nonce, sign(identity.privateKey, message));
  expect(response.statusCode).toBe(201);
  return response.json() as { user: { id: string; did: string }; api_key: { id: string; key: string; expires_at: string } };
}

describe('key-based sign-in with a did:key', () => {
  it('returns an API key that works on GET /api/v1/me, which shows the did', async () => {
    const identity = newIdentity();
    const signedIn = await signIn(identity);
    expect(signedIn.user.did).toBe(identity.did);
    expect(signedIn.api_key.key).toMatch(/^ctk_sk_/);

    const me = await gateway.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(signedIn.api_key.key) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: signedIn.user.id, did: identity.did, organizations: [] });
  });

  it('signs the same did in as the same user the second time, with a new key', async () => {
    const identity = newIdentity();
    const first = await signIn(identity);
    const second = await signIn(identity);
    expect(second.user.id).toBe(first.user.id);
    expect(second.api_key.key).not.toBe(first.api_key.key);
    expect(await gateway.deps.prisma.user.count({ where: { did: identity.did } })).toBe(1);
  });

  it('answers a session: the key works for CTK_SIGN_IN_KEY_HOURS (12), says until when, and not after', async () => {
    const started = Date.now();
    const signedIn = await signIn(newIdentity());
    const expires = Date.parse(signedIn.api_key.expires_at);
    expect(expires - started).toBeGreaterThanOrEqual(12 * 3_600_000 - 1_000);
    expect(expires - started).toBeLessThanOrEqual(12 * 3_600_000 + 60_000);
    const listed = await gateway.app.inject({ method: 'GET', url: '/api/v1/me/api-keys', headers: bearer(signedIn.api_key.key) });
    expect(listed.json().data).toEqual([expect.objectContaining({ id: signedIn.api_key.id, expires_at: signedIn.api_key.expires_at })]);

    // Past its expiry, even while the gateway still holds the key in memory, it is refused.
    await gateway.deps.prisma.apiKey.update({ where: { id: signedIn.api_key.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    gateway.deps.credentials.forget();
    const me = await gateway.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(signedIn.api_key.key) });
    expectError(me, 401, 'invalid_api_key');
    expect(me.json().error.message).toMatch(/expired/);
  });

  it('refuses a session key once its expiry passes, though the gateway still holds it in memory', async () => {
    const signedIn = await signIn(newIdentity());
    const me = () => gateway.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(signedIn.api_key.key) });
    await gateway.deps.prisma.apiKey.update({ where: { id: signedIn.api_key.id }, data: { expiresAt: new Date(Date.now() + 1_500) } });
    gateway.deps.credentials.forget();
    // Read now, the key is held in memory (CTK_AUTH_CACHE_SECONDS, 10 s) with its expiry, checked at each use.
    expect((await me()).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expectError(await me(), 401, 'invalid_api_key');
  });

  it('spends the nonce: verifying the same answer again is 401 invalid_signature', async () => {
    const identity = newIdentity();
    const { nonce, message } = await challenge(identity.did);
    const signature = sign(identity.privateKey, message);
    expect((await verify(nonce, signature)).statusCode).toBe(201);
    expectError(await verify(nonce, signature), 401, 'invalid_signature');
  });

  it('answers 401 invalid_signature to a signature by another key, and issues no key', async () => {
    const identity = newIdentity();
    const { nonce, message } = await challenge(identity.did);
    const before = await tableCounts(gateway);
    const response = await verify(nonce, sign(PrivateKey.fromRandom(), message));
    expectError(response, 401, 'invalid_signature');
    const after = await tableCounts(gateway);
    expect({ users: after.users, apiKeys: after.apiKeys }).toEqual({ users: before.users, apiKeys: before.apiKeys });
  });

  it('answers 401 to the right key signing something other than the challenge message', async () => {
    const identity = newIdentity();
    const { nonce } = await challenge(identity.did);
    expectError(await verify(nonce, sign(identity.privateKey, `Nonce: ${nonce}`)), 401, 'invalid_signature');
  });

  it('spends the nonce on a wrong attempt, so a right signature after it is refused too', async () => {
    const identity = newIdentity();
    const { nonce, message } = await challenge(identity.did);
    expectError(await verify(nonce, sign(PrivateKey.fromRandom(), message)), 401, 'invalid_signature');
    expectError(await verify(nonce, sign(identity.privateKey, message)), 401, 'invalid_signature');
  });

  it('answers 401 to an expired challenge', async () => {
    const identity = newIdentity();
    const { nonce, message } = await challenge(identity.did);
    await gateway.deps.prisma.signInChallenge.update({ where: { nonce }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectError(await verify(nonce, sign(identity.privateKey, message)), 401, 'invalid_signature');
  });

  it('answers 401 to a nonce it never issued', async () => {
    const identity = newIdentity();
    expectError(await verify('0123456789abcdef0123456789abcdef', sign(identity.privateKey, 'anything')), 401, 'invalid_signature');
  });

  it("binds the message to the instance's domain and the nonce, and states when it expires", async () => {
    const identity = newIdentity();
    const issued = await challenge(identity.did);
    expect(issued.did).toBe(identity.did);
    expect(issued.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(issued.message).toContain('pay.example.org');
    expect(issued.message).toContain(`URI: ${PUBLIC_URL}`);
    expect(issued.message).toContain(identity.did);
    expect(issued.message).toContain(`Nonce: ${issued.nonce}`);
    expect(issued.message).toContain(`Expiration Time: ${issued.expires_at}`);
    expect(new Date(issued.expires_at).getTime()).toBeGreaterThan(Date.now());
  });

  it('gives each challenge a new nonce', async () => {
    const identity = newIdentity();
    const [first, second] = [await challenge(identity.did), await challenge(identity.did)];
    expect(first.nonce).not.toBe(second.nonce);
  });

  describe('refuses a did it cannot use with 422 validation_failed', () => {
    const ed25519 = `did:key:z${Utils.toBase58([0xed, 0x01, ...new Array<number>(32).fill(7)])}`;
    const validPrefixWrongLength = `did:key:z${Utils.toBase58([0xe7, 0x01, 0x02, 0x03])}`;
    it.each([
      ['an Ed25519 key (not secp256k1)', ed25519],
      ['the published Ed25519 example', 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK'],
      ['characters outside base58 (0, O, I, l)', 'did:key:z0OIl0OIl'],
      ['a did that is not did:key', 'did:web:example.com'],
      ['a did:key without the base58btc multibase prefix', 'did:key:f0123abcd'],
      ['a secp256k1 prefix with a truncated key', validPrefixWrongLength],
    ])('%s', async (_label, did) => {
      const before = await tableCounts(gateway);
      const response = await gateway.app.inject({ method: 'POST', url: '/api/auth/challenge', payload: { did } });
      expectError(response, 422, 'validation_failed');
      expect(response.json().error.details.field).toBe('did');
      expect((await tableCounts(gateway)).signInChallenges).toBe(before.signInChallenges);
    });
  });
});
