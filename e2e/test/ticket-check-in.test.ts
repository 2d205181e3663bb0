import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HD } from '@bsv/sdk';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, openChromium } from './browser.js';
import { api, freePort, ROOT, startInstance, stopInstance, wallet, type Instance } from './instance.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const ARTIFACTS = join(ROOT, 'e2e/artifacts/ticket-check-in');

const hasChromium = chromiumInstalled('ticket-check-in.test.ts');

const sleep = (ms: number) => new Promise((later) => setTimeout(later, ms));

/*
 * Tickets end to end in the embedded start (decision 0020): an admin puts a jazz night on sale, a buyer's
 * browser checks out two tickets with the commerce key and pays with the developer wallet, the checkout's
 * status answers the two codes, and staff check them in on the counter screen: once each.
 */
describe.skipIf(!hasChromium)('tickets bought online and checked in at the door on the counter screen, in headless Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-tickets-'));
  let instance: Instance;
  let browser: BrowserContext | undefined;
  let counter: Page;
  const problems: string[] = [];

  afterAll(async () => {
    await browser?.close();
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  it('sells two tickets, answers their codes once paid, and admits each once', async () => {
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    const chainPort = await freePort();
    instance = await startInstance({ port: await freePort(), dataDir: join(dir, 'data'), chainPort });
    const base = instance.base;

    const xpub = HD.fromRandom().derive("m/44'/236'/0'").toPublic().toString();
    const onboarded = await api(base, 'POST', '/api/v1/onboard', undefined, { name: 'Blue Bottle Cafe', wallet_xpub: xpub });
    expect(onboarded.status).toBe(201);
    const key = onboarded.body.api_key.key as string;
    const handle = onboarded.body.organization.handle as string;
    const staff = await api(base, 'POST', `/api/v1/orgs/${handle}/members`, key, { name: 'Door staff', role: 'staff' });
    expect(staff.status).toBe(201);
    const year = new Date().getFullYear() + 1;
    const catalog = await api(base, 'PUT', `/api/v1/orgs/${handle}/tickets/catalog`, key, {
      events: [
        {
          name: 'Jazz night',
          starts_at: `${year}-06-12T19:00:00Z`,
          ends_at: `${year}-06-12T23:00:00Z`,
          venue: 'Blue Bottle Cafe, back room',
          ticket_types: [{ name: 'Standing', price_minor: 2500, currency: 'USD', capacity: 80 }],
        },
      ],
    });
    expect(catalog.status, JSON.stringify(catalog.body)).toBe(200);
    const standing = catalog.body.events[0].ticket_types[0].id as string;

    // The buyer's browser, with the merchant's commerce key.
    const commerceKey = (await api(base, 'POST', `/api/v1/orgs/${handle}/commerce-key`, key)).body.commerce_public_key as string;
    const shop = (path: string, body?: unknown) =>
      fetch(`${base}/api/v1/commerce/${handle}${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { 'x-commerce-key': commerceKey, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as Json }));
    const checkout = await shop('/tickets/checkout', { lines: [{ ticket_type_id: standing, quantity: 2 }] });
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(201);
    expect(checkout.body).toMatchObject({ total_minor: 5000, status: 'pending' });
    expect((await shop('/tickets')).body.events[0].ticket_types[0]).toMatchObject({ available: 78 });

    const buyerWallet = join(dir, 'buyer.json');
    await wallet(chainPort, buyerWallet, 'create');
    for (let coin = 0; coin < 2; coin++) await wallet(chainPort, buyerWallet, 'faucet', '100000000');
    const paid = await wallet(chainPort, buyerWallet, 'pay', checkout.body.pay_uri);
    expect(paid.txid).toMatch(/^[0-9a-f]{64}$/);

    let status: Json = {};
    for (let i = 0; i < 120 && !(status.tickets?.length > 0); i++) {
      status = (await shop(`/checkout/${checkout.body.public_token}/status`)).body;
      if (!(status.tickets?.length > 0)) await sleep(250);
    }
    // Paid, or confirmed already if the local chain mined a block meanwhile.
    expect(['paid', 'confirmed']).toContain(status.status);
    expect(status.tickets).toHaveLength(2);
    const [first, second] = status.tickets as Json[];
    const qr = await fetch(first!.qr_url.replace(/^https?:\/\/[^/]+/, base));
    expect(qr.status).toBe(200);
    expect(qr.headers.get('content-type')).toMatch(/^image\/svg\+xml/);

    // At the door: staff on the counter screen.
    browser = await openChromium(dir, { width: 1024, height: 900 });
    counter = browser.pages()[0] ?? (await browser.newPage());
    counter.on('pageerror', (error) => problems.push(error.message));
    counter.on('console', (message) => {
      // A refused check-in (404, 409) is an answer the screen shows in words and Chromium logs.
      const handled = message.location().url.includes('/tickets/check-in') && /status of 40[49]/.test(message.text());
      if (message.type() === 'error' && !handled) problems.push(`${message.text()} ${message.location().url}`);
    });
    await counter.goto(`${base}/pos`);
    await counter.getByLabel('API key').fill(staff.body.api_key.key);
    await counter.getByLabel('API key').press('Enter');
    // The menu loads above the panel and moves it down: open the panel once the menu is in place.
    await counter.locator('#item-grid > *, #menu-empty:not([hidden])').first().waitFor();
    await counter.getByText('Check in a ticket').click();
    await counter.getByLabel('Ticket code').waitFor();
    const checkIn = async (code: string) => {
      await counter.getByLabel('Ticket code').fill(code);
      await counter.getByRole('button', { name: 'Check in' }).click();
    };
    const result = counter.locator('#ticket-result');

    await checkIn(first!.code.toLowerCase());
    await result.filter({ hasText: `Admitted: Jazz night, Standing (${first!.code})` }).waitFor();
    await counter.screenshot({ path: join(ARTIFACTS, '01-admitted.png'), fullPage: true });
    await checkIn(first!.code);
    await result.filter({ hasText: 'Already checked in' }).waitFor();
    await counter.screenshot({ path: join(ARTIFACTS, '02-already-checked-in.png'), fullPage: true });
    await checkIn('K7QM2X9D4RTV8W1HZP3C');
    await result.filter({ hasText: 'No ticket of this shop has this code.' }).waitFor();
    await checkIn(second!.code);
    await result.filter({ hasText: `Admitted: Jazz night, Standing (${second!.code})` }).waitFor();

    const orders = await api(base, 'GET', `/api/v1/orgs/${handle}/tickets/orders`, key);
    // The list shows the checkout as its order last changed (decision 0046): confirmed once a block mined its payment.
    expect(['paid', 'confirmed']).toContain(orders.body.data[0].status);
    expect(orders.body.data[0].hold).toBe('sold');
    expect(orders.body.data[0].tickets.every((ticket: Json) => ticket.checked_in_at)).toBe(true);
    expect(problems).toEqual([]);
  });
});
