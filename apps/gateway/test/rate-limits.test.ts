import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, onboard, startTestGateway, type Gateway } from './harness.js';
import { expectError, SERVICES_DOWN, uniqueName } from './support.js';

const LIMIT = 5;

/** A gateway allowing five requests a minute per allowance, onboarding unbounded (so tests can make users). */
async function limitedGateway(env: Record<string, string> = {}) {
  return startTestGateway({ ...SERVICES_DOWN, CTK_RATE_LIMIT_PER_MINUTE: String(LIMIT), ...env });
}

type Call = { method?: 'GET' | 'POST'; url: string; headers?: Record<string, string>; remoteAddress?: string };

async function statuses(gateway: Gateway, calls: Call[]): Promise<number[]> {
  const answers: number[] = [];
  for (const call of calls)
    answers.push(
      (
        await gateway.app.inject({
          method: call.method ?? 'GET',
          url: call.url,
          headers: call.headers ?? {},
          remoteAddress: call.remoteAddress,
        })
      ).statusCode,
    );
  return answers;
}

describe('one allowance per key, however the header spells it', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await limitedGateway();
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('"Bearer", "bearer", extra spaces and a tab share the one allowance of the key', async () => {
    const owner = await onboard(gateway, uniqueName('Spelled'), {}, '192.0.2.10');
    const spellings = [
      `Bearer ${owner.key}`,
      `bearer ${owner.key}`,
      `Bearer   ${owner.key}`,
      `Bearer\t${owner.key}`,
      `BEARER ${owner.key} `,
    ];
    const answers = await statuses(
      gateway,
      [...spellings, `Bearer ${owner.key}`].map((authorization) => ({ url: '/api/v1/me', headers: { authorization } })),
    );
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it("another key keeps its own allowance, and so does the address's anonymous traffic", async () => {
    const busy = await onboard(gateway, uniqueName('Busy'), {}, '192.0.2.11');
    const quiet = await onboard(gateway, uniqueName('Quiet'), {}, '192.0.2.11');
    await statuses(
      gateway,
      Array.from({ length: LIMIT + 1 }, () => ({ url: '/api/v1/me', headers: bearer(busy.key), remoteAddress: '192.0.2.11' })),
    );
    expect(await statuses(gateway, [{ url: '/api/v1/me', headers: bearer(quiet.key), remoteAddress: '192.0.2.11' }])).toEqual([200]);
    expect(await statuses(gateway, [{ url: '/api/v1/capabilities', remoteAddress: '192.0.2.11' }])).toEqual([200]);
  });

  it('answers 429 with retry-after and the error body', async () => {
    const owner = await onboard(gateway, uniqueName('Retry'), {}, '192.0.2.12');
    let last;
    for (let i = 0; i <= LIMIT; i++) last = await gateway.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(owner.key) });
    expectError(last!, 429, 'rate_limited');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('junk credentials buy no allowance', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await limitedGateway();
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('a different junk bearer value on each call to a public route shares the address allowance', async () => {
    const calls = Array.from({ length: LIMIT + 1 }, (_, i) => ({
      url: '/api/v1/capabilities',
      headers: { authorization: `Bearer junk-${i}` },
      remoteAddress: '192.0.2.20',
    }));
    expect(await statuses(gateway, calls)).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('random keys on a bearer route are 401 until the address allowance runs out, then 429 without a database lookup', async () => {
    const calls = Array.from({ length: LIMIT + 3 }, (_, i) => ({
      url: '/api/v1/me',
      headers: bearer(`ctk_sk_random${i}`),
      remoteAddress: '192.0.2.21',
    }));
    const lookups = vi.spyOn(gateway.deps.credentials, 'userKey');
    const findUnique = vi.spyOn(gateway.deps.prisma.apiKey, 'findUnique');
    try {
      expect(await statuses(gateway, calls)).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
      expect(findUnique.mock.calls.length).toBeLessThanOrEqual(LIMIT);
      expect(lookups).toHaveBeenCalled();
    } finally {
      lookups.mockRestore();
      findUnique.mockRestore();
    }
  });

  it('malformed Authorization headers count against the address too', async () => {
    const calls = Array.from({ length: LIMIT + 1 }, (_, i) => ({
      url: '/api/v1/me',
      headers: { authorization: `Basic ${i}` },
      remoteAddress: '192.0.2.22',
    }));
    expect(await statuses(gateway, calls)).toEqual([401, 401, 401, 401, 401, 429]);
  });
});

describe('client addresses behind a proxy', () => {
  it('trusts X-Forwarded-For only from CTK_TRUSTED_PROXIES', async () => {
    const gateway = await limitedGateway({ CTK_TRUSTED_PROXIES: '10.0.0.1, 10.1.0.0/16' });
    try {
      const viaProxy = (client: string, proxy = '10.0.0.1') => ({
        url: '/api/v1/capabilities',
        remoteAddress: proxy,
        headers: { 'x-forwarded-for': client },
      });
      // Two clients behind the proxy: an allowance each.
      expect(
        await statuses(
          gateway,
          Array.from({ length: LIMIT }, () => viaProxy('203.0.113.1')),
        ),
      ).toEqual([200, 200, 200, 200, 200]);
      expect(await statuses(gateway, [viaProxy('203.0.113.2', '10.1.2.3'), viaProxy('203.0.113.1', '10.1.2.3')])).toEqual([200, 429]);
      // An untrusted sender cannot choose its address by the header.
      const spoofed = Array.from({ length: LIMIT + 1 }, (_, i) => viaProxy(`203.0.113.${100 + i}`, '192.0.2.30'));
      expect(await statuses(gateway, spoofed)).toEqual([200, 200, 200, 200, 200, 429]);
    } finally {
      await gateway.close();
    }
  });

  it('trusts no proxy when CTK_TRUSTED_PROXIES is unset', async () => {
    const gateway = await limitedGateway();
    try {
      const spoofed = Array.from({ length: LIMIT + 1 }, (_, i) => ({
        url: '/api/v1/capabilities',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
      }));
      expect(await statuses(gateway, spoofed)).toEqual([200, 200, 200, 200, 200, 429]);
    } finally {
      await gateway.close();
    }
  });

  it.each([['not-an-address'], ['10.0.0.1/33'], ['10.0.0.256']])('refuses CTK_TRUSTED_PROXIES=%s at start', async (value) => {
    await expect(limitedGateway({ CTK_TRUSTED_PROXIES: value })).rejects.toThrow(/CTK_TRUSTED_PROXIES/);
  });
});

describe('commerce keys (decision 0018)', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    // Addresses get plenty; a shop's key gets five a minute, and each address two checkouts.
    gateway = await startTestGateway({
      ...SERVICES_DOWN,
      CTK_COMMERCE_KEY_RATE_LIMIT_PER_MINUTE: String(LIMIT),
      CTK_CHECKOUT_RATE_LIMIT_PER_MINUTE: '2',
    });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  const shopKey = async (label: string) => {
    const owner = await onboard(gateway, uniqueName(label));
    const key = await gateway.app.inject({ method: 'POST', url: `/api/v1/orgs/${owner.handle}/commerce-key`, headers: bearer(owner.key) });
    return { handle: owner.handle, headers: { 'x-commerce-key': key.json().commerce_public_key as string } };
  };

  it("spend the shop's allowance from every address together; another shop's key keeps its own", async () => {
    const busy = await shopKey('Busy Shop');
    const quiet = await shopKey('Quiet Shop');
    // commerce is down here (503), but each request is counted all the same.
    const fromAddresses = (shop: typeof busy, count: number) =>
      Array.from({ length: count }, (_, i) => ({
        url: `/api/v1/commerce/${shop.handle}/catalog`,
        headers: shop.headers,
        remoteAddress: `198.51.100.${i + 1}`,
      }));
    expect(await statuses(gateway, fromAddresses(busy, LIMIT + 1))).toEqual([503, 503, 503, 503, 503, 429]);
    expect(await statuses(gateway, fromAddresses(quiet, 1))).toEqual([503]);
  });

  it('checkouts are also limited per client address, before the key is read', async () => {
    const shop = await shopKey('Checkout Shop');
    const checkout = (remoteAddress: string) => ({
      method: 'POST' as const,
      url: `/api/v1/commerce/${shop.handle}/checkout`,
      headers: shop.headers,
      remoteAddress,
    });
    // No body: 422 for the first two, then the address has used its checkouts; another address has its own.
    expect(await statuses(gateway, [checkout('203.0.113.50'), checkout('203.0.113.50'), checkout('203.0.113.50')])).toEqual([
      422, 422, 429,
    ]);
    expect(await statuses(gateway, [checkout('203.0.113.51')])).toEqual([422]);
  });
});

describe('stablecoin intents (decision 0036)', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ ...SERVICES_DOWN, CTK_STABLECOIN_RATE_LIMIT_PER_MINUTE: '2' });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('opening and settling are limited per client address: each holds an address or reads the chain', async () => {
    const open = (remoteAddress: string) => ({
      method: 'POST' as const,
      url: '/api/v1/stablecoin/intents',
      remoteAddress,
    });
    // Without a body: 422, counted all the same; another address has its own allowance.
    expect(await statuses(gateway, [open('203.0.113.60'), open('203.0.113.60'), open('203.0.113.60')])).toEqual([422, 422, 429]);
    expect(await statuses(gateway, [open('203.0.113.61')])).toEqual([422]);
    const settle = (remoteAddress: string) => ({
      method: 'POST' as const,
      url: `/api/v1/stablecoin/intents/spi_${'A'.repeat(32)}/settle`,
      remoteAddress,
    });
    // A settle with nothing reaches commerce, which is down here (503): counted the same.
    expect(await statuses(gateway, [settle('203.0.113.62'), settle('203.0.113.62'), settle('203.0.113.62')])).toEqual([503, 503, 429]);
  });
});

describe('contracts anyone with an id may act on (decisions 0037 to 0040)', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ ...SERVICES_DOWN, CTK_CONTRACTS_RATE_LIMIT_PER_MINUTE: '2' });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('signatures, fundings and settlements are limited per client address: each reads the chain or builds a transaction', async () => {
    const post = (url: string, remoteAddress: string) => ({ method: 'POST' as const, url, remoteAddress });
    const id = 'A'.repeat(24);
    for (const [url, address] of [
      [`/api/v1/joint-transactions/jtx_${id}/signatures`, '203.0.113.70'],
      [`/api/v1/escrows/esc_${id}/funding`, '203.0.113.71'],
      [`/api/v1/escrows/esc_${id}/settlement`, '203.0.113.72'],
      [`/api/v1/timelocked-refunds/tlr_${id}/funding`, '203.0.113.73'],
      [`/api/v1/timelocked-refunds/tlr_${id}/settlement`, '203.0.113.74'],
    ] as const) {
      // Without a body: 422, counted all the same.
      expect([url, await statuses(gateway, [post(url, address), post(url, address), post(url, address)])]).toEqual([url, [422, 422, 429]]);
    }
    expect(await statuses(gateway, [post(`/api/v1/joint-transactions/jtx_${id}/signatures`, '203.0.113.75')])).toEqual([422]);
  });

  it('checkouts through a referral link are limited per client address: each opens an order holding a receiving address', async () => {
    const open = { method: 'POST' as const, url: `/api/v1/referral-links/ref_${'A'.repeat(24)}/checkouts`, remoteAddress: '203.0.113.76' };
    // contracts is down here (503), but each request is counted all the same.
    expect(await statuses(gateway, [open, open, open])).toEqual([503, 503, 429]);
  });
});

describe('payment-gate keys', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    // Five a minute per user key and address; eight per payment-gate key.
    gateway = await limitedGateway({ CTK_PAYGATE_KEY_RATE_LIMIT_PER_MINUTE: '8' });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  const paygateKey = async (label: string, remoteAddress: string) => {
    const owner = await onboard(gateway, uniqueName(label), {}, remoteAddress);
    const created = await gateway.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${owner.handle}/paygate-keys`,
      headers: bearer(owner.key),
      payload: { name: 'gate' },
      remoteAddress,
    });
    return created.json().key as string;
  };

  it("spend the key's own allowance, CTK_PAYGATE_KEY_RATE_LIMIT_PER_MINUTE, from any address; another key keeps its own", async () => {
    const busy = await paygateKey('Busy Gate', '192.0.2.30');
    const quiet = await paygateKey('Quiet Gate', '192.0.2.31');
    // p2p is down here (503), but each request is counted all the same.
    const checks = (key: string, count: number) =>
      Array.from({ length: count }, (_, i) => ({
        url: '/api/v1/402/resources',
        headers: bearer(key),
        remoteAddress: `198.51.100.${i + 1}`,
      }));
    expect(await statuses(gateway, checks(busy, 9))).toEqual([503, 503, 503, 503, 503, 503, 503, 503, 429]);
    expect(await statuses(gateway, checks(quiet, 1))).toEqual([503]);
  });

  it('the published keys are limited per client address, as other public routes', async () => {
    const fetches = Array.from({ length: LIMIT + 1 }, () => ({ url: '/.well-known/ctk-paygate.json', remoteAddress: '192.0.2.32' }));
    expect(await statuses(gateway, fetches)).toEqual([503, 503, 503, 503, 503, 429]);
  });
});
