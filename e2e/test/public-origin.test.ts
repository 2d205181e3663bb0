import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HD } from '@bsv/sdk';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, openChromium } from './browser.js';
import { startShop, stopShop, type Shop } from './demo-shop.js';
import { api, freePort, ROOT, startInstance, stopInstance, wallet, type Instance } from './instance.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const ARTIFACTS = join(ROOT, 'e2e/artifacts/public-origin');
const hasChromium = chromiumInstalled('public-origin.test.ts');

/** Uncaught errors and console errors (a CSP violation, a refused CORS request) of a page. */
function watch(page: Page, label: string): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`${label}: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${label}: ${message.text()}`);
  });
  return problems;
}

/**
 * The service is started as the README says: CTK_PUBLIC_URL unset, so http://localhost:<port>. Every page
 * here is loaded from http://127.0.0.1:<port>, the same service under another name.
 */
describe.skipIf(!hasChromium)('pages loaded from 127.0.0.1 while CTK_PUBLIC_URL says localhost, in headless Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-public-origin-'));
  let instance: Instance;
  let shop: Shop | undefined;
  let browser: BrowserContext;
  let chainPort = 0;
  let base = '';
  let other = '';
  let cafe: { key: string; handle: string; commerceKey: string };
  let bakery: { key: string; handle: string };
  const customerWallet = join(dir, 'customer.json');

  beforeAll(async () => {
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    chainPort = await freePort();
    const port = await freePort();
    instance = await startInstance({ port, dataDir: join(dir, 'data'), chainPort });
    base = instance.base;
    other = `http://127.0.0.1:${port}`;
    expect(base).toBe(`http://localhost:${port}`);

    const onboard = async (body: Json) => {
      const xpub = HD.fromRandom().derive("m/44'/236'/0'").toPublic().toString();
      const answer = await api(base, 'POST', '/api/v1/onboard', undefined, { ...body, wallet_xpub: xpub });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return { key: answer.body.api_key.key as string, handle: answer.body.organization.handle as string };
    };
    const owner = await onboard({ name: 'Blue Bottle Cafe', jurisdiction: 'US-CA', paymail_alias: 'bluebottle' });
    const item = await api(base, 'POST', `/api/v1/orgs/${owner.handle}/items`, owner.key, { name: 'Oat milk latte', price_cents: 575 });
    expect(item.status).toBe(201);
    const commerceKey = await api(base, 'POST', `/api/v1/orgs/${owner.handle}/commerce-key`, owner.key);
    expect(commerceKey.status).toBe(201);
    cafe = { ...owner, commerceKey: commerceKey.body.commerce_public_key };
    bakery = await onboard({ name: 'Tartine Bakery' });

    await wallet(chainPort, customerWallet, 'create');
    for (let coin = 0; coin < 2; coin++) await wallet(chainPort, customerWallet, 'faucet', '100000000');
    browser = await openChromium(dir, { width: 1024, height: 900 });
    // Starting every service on a shared machine takes its time.
  }, 480_000);
  afterAll(async () => {
    await browser?.close();
    await stopShop(shop);
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  const order = async (org: { key: string; handle: string }, minor: number) => {
    const made = await api(base, 'POST', '/api/pos/orders', org.key, {
      org_handle: org.handle,
      currency: 'USD',
      lines: [{ name: 'Pastry box', unit_price_minor: minor, quantity: 1 }],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return (made.body.order ?? made.body) as Json;
  };

  it('the customer page names the shop and its real paymail, links to this origin, and hears the payment', async () => {
    const { order_number: number } = await order(cafe, 450);
    const page = await browser.newPage();
    const problems = watch(page, 'customer page');
    await page.goto(`${other}/pay/${number}`);
    await page.locator('#status').filter({ hasText: 'Waiting for payment' }).waitFor();
    const merchant = (await page.locator('#merchant').textContent()) ?? '';
    const walletLink = (await page.getByRole('link', { name: 'Open in wallet' }).getAttribute('href')) ?? '';
    await page.screenshot({ path: join(ARTIFACTS, '01-customer-page.png'), fullPage: true });
    expect(merchant).toContain('Blue Bottle Cafe');
    expect(merchant).toContain('bluebottle@localhost');
    expect(merchant).not.toContain(`${cafe.handle}@`);
    // The wallet is sent to the service under the name the customer reached it by.
    expect(decodeURIComponent(walletLink)).toContain(`${other}/api/pos/orders/${number}/payment-request`);
    // The payment arrives through the event stream of this origin.
    const read = (await api(other, 'GET', `/api/pos/orders/${number}`)).body;
    expect(read.pay_uri).toBe(`pay:?r=${encodeURIComponent(`${other}/api/pos/orders/${number}/payment-request`)}`);
    await wallet(chainPort, customerWallet, 'pay', read.pay_uri);
    await page.locator('#status').filter({ hasText: 'Thank you' }).waitFor({ timeout: 30_000 });
    expect(problems).toEqual([]);
    await page.close();

    // A shop without a paymail alias is named without one, rather than with an address that does not resolve.
    const plain = await order(bakery, 300);
    const second = await browser.newPage();
    await second.goto(`${other}/pay/${plain.order_number}`);
    await second.locator('#status').filter({ hasText: 'Waiting for payment' }).waitFor();
    const named = (await second.locator('#merchant').textContent()) ?? '';
    expect(named).toContain('Tartine Bakery');
    expect(named).not.toContain('@');
    await second.close();
  });

  it("the counter's links and its receipt follow the origin and name the real paymail", async () => {
    const page = await browser.newPage();
    const problems = watch(page, 'counter');
    await page.goto(`${other}/pos`);
    await page.getByLabel('API key').fill(cafe.key);
    await page.getByLabel('API key').press('Enter');
    // The menu is drawn above the keypad once it loads: opened before, the keypad may be pushed from under the click.
    await page.getByRole('group', { name: 'Categories' }).getByRole('button', { name: 'All' }).waitFor();
    await page.getByText('Custom amount (keypad)').click();
    await page.getByLabel('Amount', { exact: true }).fill('4.50');
    await page.getByRole('button', { name: 'Add amount' }).click();
    await page.getByRole('button', { name: 'Create order' }).click();
    await page.locator('#order-status').filter({ hasText: 'Waiting for payment' }).waitFor();
    await page.waitForFunction(() => (document.getElementById('order-qr') as HTMLImageElement).naturalWidth > 0);
    const number = ((await page.locator('#order-title').textContent()) ?? '').replace('Order ', '');
    const payUri = (await page.locator('#order-pay-uri').textContent()) ?? '';
    expect(decodeURIComponent(payUri)).toContain(`${other}/api/pos/orders/${number}/payment-request`);
    await wallet(
      chainPort,
      customerWallet,
      'pay',
      payUri.startsWith('pay:') ? payUri : `pay:?r=${encodeURIComponent(`${other}/api/pos/orders/${number}/payment-request`)}`,
    );
    await page.locator('#order-status').filter({ hasText: /^Paid/ }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Receipt' }).click();
    const receipt = (await page.locator('#receipt-text').textContent()) ?? '';
    await page.screenshot({ path: join(ARTIFACTS, '02-receipt.png'), fullPage: true });
    expect(receipt).toContain('Blue Bottle Cafe');
    expect(receipt).toContain('bluebottle@localhost');
    expect(receipt).not.toContain(`${cafe.handle}@`);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('the Buy button on a shop that reaches the service as 127.0.0.1 shows its QR and hears the payment under its CSP', async () => {
    shop = await startShop({ CTK_GATEWAY: other, DEMO_MERCHANT: cafe.handle, DEMO_COMMERCE_KEY: cafe.commerceKey });
    const page = await browser.newPage();
    const problems = watch(page, 'shop');
    await page.goto(shop.url);
    const buy = page.locator('ctk-buy-button').getByRole('button', { name: 'Buy now' });
    await buy.click();
    const dialog = page.getByRole('dialog', { name: 'Pay Blue Bottle Cafe' });
    await dialog.getByText('Waiting for payment').waitFor();
    const qr = dialog.getByRole('img', { name: /QR code to pay/ });
    const loaded = await qr.evaluate(
      (img: HTMLImageElement) =>
        new Promise<boolean>((done) => {
          if (img.complete) return done(img.naturalWidth > 0);
          img.onload = () => done(true);
          img.onerror = () => done(false);
        }),
    );
    const qrSrc = (await qr.getAttribute('src')) ?? '';
    const payUri = (await dialog.getByRole('link', { name: /pay: link/ }).getAttribute('href')) ?? '';
    await page.screenshot({ path: join(ARTIFACTS, '03-buy-button.png'), fullPage: true });
    expect(qrSrc.startsWith(`${other}/api/pos/orders/`)).toBe(true);
    expect(loaded).toBe(true);
    expect(decodeURIComponent(payUri)).toContain(`${other}/api/pos/orders/`);
    await wallet(chainPort, customerWallet, 'pay', payUri);
    await dialog.getByText('Paid. Thank you!').waitFor({ timeout: 30_000 });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('/docs loaded from 127.0.0.1 tries requests out against 127.0.0.1, and from localhost against localhost', async () => {
    for (const origin of [other, base]) {
      const page = await browser.newPage();
      await page.goto(`${origin}/docs`);
      const servers = page.locator('.servers select');
      await servers.waitFor();
      expect(await servers.locator('option').allTextContents()).toEqual([origin]);
      // "Try it out" on a public route, as a visitor does: the answer is the service's, not a network error.
      const operation = page.locator('.opblock').filter({ has: page.locator('[data-path="/api/v1/capabilities"]') });
      await operation.locator('.opblock-summary').first().click();
      await operation.getByRole('button', { name: 'Try it out' }).click();
      await operation.getByRole('button', { name: 'Execute' }).click();
      const answered = operation.locator('.live-responses-table tbody .response-col_status').first().filter({ hasText: /\d{3}/ });
      await answered.waitFor();
      const status = (await answered.textContent())?.trim();
      await page.screenshot({ path: join(ARTIFACTS, `04-docs-${new URL(origin).hostname}.png`) });
      expect(status, `Try it out from ${origin}`).toBe('200');
      await page.close();
    }
    // The document itself, read from either name.
    for (const origin of [other, base]) expect((await api(origin, 'GET', '/api/v1/openapi.json')).body.servers).toEqual([{ url: origin }]);
  });
});
