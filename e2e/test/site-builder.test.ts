import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HD } from '@bsv/sdk';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, openChromium } from './browser.js';
import { api, freePort, ROOT, startInstance, stopInstance, wallet, type Instance } from './instance.js';
import { serveStatic, stopStatic, type StaticSite } from './static-site.js';

const ARTIFACTS = join(ROOT, 'e2e/artifacts/site-builder');
const hasChromium = chromiumInstalled('site-builder.test.ts');
const PHONE = { width: 390, height: 844 };
const WHOLE_WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => ({ day, opens: '00:00', closes: '24:00' }));

/**
 * Script errors, console errors (a CSP violation, an SRI mismatch) and answers of 400 or more, by URL; a
 * request the page failed on is one too, except the order's event stream, which the dialog closes once paid.
 */
function watch(page: Page) {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.url()}: ${response.status()}`);
  });
  page.on('requestfailed', (request) => {
    if (!/\/api\/pos\/orders\/\w+\/events$/.test(request.url())) problems.push(`${request.url()}: ${request.failure()?.errorText}`);
  });
  return problems;
}

describe.skipIf(!hasChromium)('a published site on its own origin sells with the Buy button, in headless Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-site-builder-'));
  let instance: Instance | undefined;
  let site: StaticSite | undefined;
  let browser: BrowserContext | undefined;
  let chainPort = 0;
  let step = 0;
  const shot = async (page: Page, name: string) => {
    step += 1;
    await page.screenshot({ path: join(ARTIFACTS, `${String(step).padStart(2, '0')}-${name}.png`), fullPage: true });
  };

  beforeAll(async () => {
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    chainPort = await freePort();
    instance = await startInstance({ port: await freePort(), dataDir: join(dir, 'data'), chainPort });
    browser = await openChromium(dir, PHONE);
  });
  afterAll(async () => {
    await browser?.close();
    await stopStatic(site);
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  it('publishes the shop to a folder, serves it elsewhere, and a customer buys from an item page paid with the wallet', async () => {
    const base = instance!.base;
    // A merchant with a place, a paymail, hours, two items and a commerce key.
    const onboarded = await api(base, 'POST', '/api/v1/onboard', undefined, {
      name: 'Blue Bottle Cafe',
      jurisdiction: 'US-CA',
      wallet_xpub: HD.fromRandom().derive("m/44'/236'/0'").toPublic().toString(),
      paymail_alias: 'cafe',
      category: 'Cafe',
      latitude: 37.7765,
      longitude: -122.4172,
      time_zone: 'America/Los_Angeles',
    });
    expect(onboarded.status, JSON.stringify(onboarded.body)).toBe(201);
    const key = onboarded.body.api_key.key as string;
    const handle = onboarded.body.organization.handle as string;
    const latte = await api(base, 'POST', `/api/v1/orgs/${handle}/items`, key, {
      name: 'Oat milk latte',
      description: 'Double shot, steamed oat milk',
      price_cents: 575,
      category: 'Coffee',
    });
    expect(latte.status).toBe(201);
    await api(base, 'POST', `/api/v1/orgs/${handle}/items`, key, { name: 'Almond croissant', price_cents: 425, category: 'Bakery' });
    expect((await api(base, 'PUT', `/api/v1/orgs/${handle}/hours`, key, { regular: WHOLE_WEEK })).status).toBe(200);
    expect((await api(base, 'POST', `/api/v1/orgs/${handle}/commerce-key`, key)).status).toBe(201);

    // The site: settings as an admin saves them, then published to the instance's folder.
    const read = await fetch(`${base}/api/v1/orgs/${handle}/site`, { headers: { authorization: `Bearer ${key}` } });
    expect(read.headers.get('etag')).toBe('"0"');
    const saved = await api(
      base,
      'PUT',
      `/api/v1/orgs/${handle}/site`,
      key,
      {
        sections: ['hero', 'about', 'menu', 'hours', 'location', 'contact'],
        colors: { background: '#fffaf3', text: '#2b2118', accent: '#8a3b12', accent_text: '#ffffff' },
        title: '',
        tagline: 'Coffee roasted on Mission Street',
        about: 'We roast every morning, two streets from the counter.\n\nOat milk at no extra cost.',
        target: { kind: 'folder' },
      },
      { 'if-match': '"0"' },
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const published = await api(base, 'POST', `/api/v1/orgs/${handle}/site/publish`, key);
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body).toMatchObject({ target: 'folder', files_uploaded: 4, files_unchanged: 0 });
    const index = fileURLToPath(published.body.site_url as string);
    expect(index).toBe(join(dir, 'data', 'sites', handle, 'index.html'));
    expect(readFileSync(index, 'utf8')).toContain('"@type":"LocalBusiness"');

    // Any static host serves the folder, on another origin than the gateway's.
    site = await serveStatic(join(dir, 'data', 'sites', handle));
    expect(new URL(site.url).origin).not.toBe(new URL(base).origin);
    const page = browser!.pages()[0] ?? (await browser!.newPage());
    const problems = watch(page);
    await page.goto(site.url);
    await page.getByRole('heading', { level: 1, name: 'Blue Bottle Cafe' }).waitFor();
    await page.getByRole('heading', { name: 'Menu' }).waitFor();
    // The open sign's badge, live from the gateway.
    const sign = page.locator('img.sign');
    await sign.evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0) || new Promise((done) => (img.onload = done)));
    expect(await sign.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shot(page, 'home-phone');

    // The item's page, from the menu.
    await page.getByRole('link', { name: 'Oat milk latte' }).click();
    await page.waitForURL(/items\/oat-milk-latte\.html$/);
    await page.getByRole('heading', { level: 1, name: 'Oat milk latte' }).waitFor();
    const product = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
    expect(product).toMatchObject({ '@type': 'Product', offers: { price: '5.75', priceCurrency: 'USD' } });
    const buy = page.locator('ctk-buy-button').getByRole('button', { name: 'Buy now' });
    await buy.waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await shot(page, 'item-phone');

    // Buy: the checkout's dialog, paid with the customer's wallet.
    const customer = join(dir, 'customer.json');
    await wallet(chainPort, customer, 'create');
    await wallet(chainPort, customer, 'faucet', '50000000');
    await buy.click();
    const dialog = page.getByRole('dialog', { name: 'Pay Blue Bottle Cafe' });
    await dialog.getByText('Waiting for payment').waitFor();
    const payUri = (await dialog.getByRole('link', { name: /pay: link/ }).getAttribute('href')) ?? '';
    expect(payUri).toMatch(/^pay:\?r=/);
    await shot(page, 'dialog-phone');
    const paid = await wallet(chainPort, customer, 'pay', payUri);
    expect(paid.txid).toMatch(/^[0-9a-f]{64}$/);
    await dialog.getByText('Paid. Thank you!').waitFor({ timeout: 30_000 });
    await shot(page, 'paid-phone');
    // The Content-Security-Policy the page carries let the script, the badge, the QR code and the API in; nothing failed.
    expect(problems).toEqual([]);

    // Published again with nothing changed: nothing written.
    const again = await api(base, 'POST', `/api/v1/orgs/${handle}/site/publish`, key);
    expect(again.body).toMatchObject({ manifest_digest: published.body.manifest_digest, files_uploaded: 0, files_unchanged: 4 });
  });
});
