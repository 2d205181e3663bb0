import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, freePort, startInstance, stopInstance, type Instance } from './instance.js';

describe('the embedded default, started as the README says', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ctk-e2e-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serves a newcomer end to end, stops cleanly, and keeps their data across a restart', async () => {
    const options = { port: await freePort(), dataDir, chainPort: await freePort() };
    let running: Instance = await startInstance(options);
    const base = running.base;
    // The apps' code came from the bundle pnpm build made (scripts/bundle-start.mjs), not module by module.
    expect(running.output.join('\n')).not.toContain("loading the apps' modules one by one");
    const onboarded = await api(base, 'POST', '/api/v1/onboard', undefined, { name: 'Harbour Coffee', user: { name: 'Ann' } });
    expect(onboarded.status).toBe(201);
    const key = onboarded.body.api_key.key as string;
    const handle = onboarded.body.organization.handle as string;

    const me = await api(base, 'GET', '/api/v1/me', key);
    expect(me.status).toBe(200);
    expect(me.body.organizations).toEqual([{ handle, name: 'Harbour Coffee', role: 'owner' }]);

    expect((await api(base, 'POST', `/api/v1/orgs/${handle}/items`, key, { name: 'Long black', price_cents: 420 })).status).toBe(201);
    const capabilities = await api(base, 'GET', `/api/v1/orgs/${handle}/capabilities`, key);
    const all = capabilities.body.rungs.flatMap(
      (rung: { capabilities: Array<{ id: string; set_up: boolean | null }> }) => rung.capabilities,
    );
    expect(all.find((c: { id: string }) => c.id === 'pos').set_up).toBe(true);
    // Every capability is marked: every service answered GetSetup over gRPC.
    expect(all.filter((c: { set_up: boolean | null }) => typeof c.set_up !== 'boolean')).toEqual([]);
    expect((await fetch(`${base}/docs`)).status).toBe(200);

    // An order at the counter: pos reaches p2p (the payment output) and books (the tax rate) in the embedded start.
    const address = 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn';
    expect((await api(base, 'PATCH', `/api/v1/organizations/${handle}`, key, { receiving_address: address })).status).toBe(200);
    const order = await api(base, 'POST', '/api/pos/orders', key, {
      org_handle: handle,
      lines: [{ name: 'Long black', unit_price_minor: 420 }],
    });
    expect(order.status).toBe(201);
    expect(order.body).toMatchObject({ status: 'open', address, total_minor: 420, merchant_handle: handle });
    expect((await api(base, 'GET', `/api/pos/orders/${order.body.order_number}`)).body.bip21_uri).toMatch(
      new RegExp(`^bitcoin:${address}\\?sv&amount=`),
    );

    // A checkout through the commerce key: commerce reaches pos (the catalog, the order) in the embedded start.
    const commerceKey = (await api(base, 'POST', `/api/v1/orgs/${handle}/commerce-key`, key)).body.commerce_public_key as string;
    const shop = (path: string, body?: unknown) =>
      fetch(`${base}/api/v1/commerce/${handle}${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { 'x-commerce-key': commerceKey, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }).then(async (response) => ({ status: response.status, body: await response.json() }));
    const [longBlack] = (await shop('/catalog')).body.items;
    const checkout = await shop('/checkout', { lines: [{ item_id: longBlack.id, quantity: 2 }] });
    expect(checkout.status).toBe(201);
    expect(checkout.body).toMatchObject({ status: 'pending', address, total_minor: 840 });
    expect((await shop(`/checkout/${checkout.body.public_token}/status`)).body.status).toBe('pending');

    expect(await stopInstance(running)).toBe(0);

    running = await startInstance(options);
    try {
      const again = await api(base, 'GET', `/api/v1/orgs/${handle}/items`, key);
      expect(again.status).toBe(200);
      expect(again.body.data.map((item: { name: string }) => item.name)).toEqual(['Long black']);
    } finally {
      expect(await stopInstance(running)).toBe(0);
    }
  });
});
