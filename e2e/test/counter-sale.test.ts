import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HD } from '@bsv/sdk';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { api, freePort, ROOT, startInstance, stopInstance, wallet, type Instance } from './instance.js';

// Debian's chromium, driven by playwright-core (no browser download). CI installs it (.ci/run).
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** A screenshot of each step, kept after the run (git ignores the folder; e2e/README.md says where). */
const ARTIFACTS = join(ROOT, 'e2e/artifacts/counter-sale');

const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`counter-sale.test.ts skipped: ${CHROMIUM} is not installed (apt-get install chromium).`);

/** Minor units of USD as the page shows them (en-US), from a decimal string: no float on the way. */
const usd = (minor: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(
    `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, '0')}` as unknown as number,
  );

describe.skipIf(!hasChromium)('a sale at the counter, in headless Chromium, paid with the developer wallet', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-counter-'));
  let instance: Instance | undefined;
  let browser: BrowserContext | undefined;
  afterAll(async () => {
    await browser?.close();
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs in with a key, sells a latte with a modifier and a tip, shows the QR to the customer, sees the payment arrive on both pages, and prints the receipt', async () => {
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    let step = 0;
    const shot = async (page: Page, name: string) => {
      step += 1;
      await page.screenshot({ path: join(ARTIFACTS, `${String(step).padStart(2, '0')}-${name}.png`), fullPage: true });
    };

    const chainPort = await freePort();
    instance = await startInstance({ port: await freePort(), dataDir: join(dir, 'data'), chainPort });
    const base = instance.base;

    // The cafe registers the public side of its wallet: each order is paid to a fresh child address.
    const xpub = HD.fromRandom().derive("m/44'/236'/0'").toPublic().toString();
    const onboarded = await api(base, 'POST', '/api/v1/onboard', undefined, { name: 'Blue Bottle Cafe', wallet_xpub: xpub });
    expect(onboarded.status).toBe(201);
    const key = onboarded.body.api_key.key as string;
    const handle = onboarded.body.organization.handle as string;
    const latte = await api(base, 'POST', `/api/v1/orgs/${handle}/items`, key, {
      name: 'Oat milk latte',
      price_cents: 575,
      category: 'coffee',
      modifiers: [
        { name: 'Regular', price_cents: 0, group: 'Size' },
        { name: 'Large', price_cents: 75, group: 'Size' },
        { name: 'Extra shot', price_cents: 100 },
      ],
    });
    expect(latte.status, JSON.stringify(latte.body)).toBe(201);
    const croissant = await api(base, 'POST', `/api/v1/orgs/${handle}/items`, key, {
      name: 'Croissant',
      price_cents: 425,
      category: 'bakery',
    });
    expect(croissant.status).toBe(201);

    browser = await chromium.launchPersistentContext(join(dir, 'chromium-profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      locale: 'en-US',
      viewport: { width: 1024, height: 800 },
    });
    const problems: string[] = [];
    const watch = (page: Page, label: string) => {
      page.on('pageerror', (error) => problems.push(`${label}: ${error.message}`));
      page.on('console', (message) => {
        // A CSP violation, a failed module or an uncaught error shows up here.
        if (message.type() === 'error') problems.push(`${label}: ${message.text()}`);
      });
    };

    // The counter: sign in with the key; the menu comes up by category.
    const counter = browser.pages()[0] ?? (await browser.newPage());
    watch(counter, 'counter');
    await counter.goto(`${base}/pos`);
    await counter.getByLabel('API key').fill(key);
    await shot(counter, 'sign-in');
    await counter.getByLabel('API key').press('Enter');
    await counter.getByRole('button', { name: /Oat milk latte/ }).waitFor();
    expect(await counter.evaluate(() => sessionStorage.getItem('ctk.apiKey'))).toBe(key);
    expect(await counter.evaluate(() => localStorage.length + document.cookie.length)).toBe(0);
    await expect(counter.getByRole('group', { name: 'Categories' }).getByRole('button').allTextContents()).resolves.toEqual([
      'All',
      'coffee',
      'bakery',
    ]);
    await shot(counter, 'menu');

    // Search narrows the grid; a category tab too.
    await counter.getByLabel('Search the menu').fill('crois');
    expect(await counter.locator('#item-grid button').count()).toBe(1);
    await counter.getByLabel('Search the menu').fill('');
    await counter.getByRole('button', { name: 'coffee' }).click();
    expect(await counter.locator('#item-grid button').allTextContents()).toEqual([expect.stringContaining('Oat milk latte')]);
    await counter.getByRole('button', { name: 'All' }).click();

    // The latte with its options: the size from its group, an extra shot.
    await counter.getByRole('button', { name: /Oat milk latte/ }).click();
    const dialog = counter.getByRole('dialog', { name: 'Oat milk latte' });
    await dialog.getByLabel('Large').check();
    await dialog.getByLabel('Extra shot').check();
    await shot(counter, 'modifiers');
    await dialog.getByRole('button', { name: 'Add to cart' }).click();
    // Two croissants: one from the keyboard (search, Enter), one more with the + of its line; then a 15% tip.
    await counter.getByLabel('Search the menu').fill('croissant');
    await counter.getByLabel('Search the menu').press('Enter');
    await counter.getByLabel('Search the menu').fill('');
    await counter.getByRole('button', { name: 'One more Croissant' }).click();
    await counter.getByLabel('15%').check();
    const lineTotal = 575 + 75 + 100 + 2 * 425;
    await expect(counter.locator('#sum-subtotal').textContent()).resolves.toBe(usd(lineTotal));
    await expect(counter.locator('#sum-tip').textContent()).resolves.toBe(usd(Math.round((lineTotal * 15) / 100)));
    await shot(counter, 'cart');

    // The order: pos prices it; the QR of its payment request is on the screen.
    await counter.getByRole('button', { name: 'Create order' }).click();
    await counter.locator('#order-view').waitFor();
    const orderNumber = ((await counter.locator('#order-title').textContent()) ?? '').replace('Order ', '');
    expect(orderNumber).toMatch(/^[0-9A-Z]{10}$/);
    const created = await api(base, 'GET', `/api/pos/orders/${orderNumber}`);
    expect(created.status).toBe(200);
    const order = created.body.order ?? created.body;
    expect(order.status).toBe('open');
    expect(order.tip_minor).toBe(Math.round((lineTotal * 15) / 100));
    expect(
      order.lines.find((line: { name: string }) => line.name === 'Oat milk latte').modifiers.map((m: { name: string }) => m.name),
    ).toEqual(['Large', 'Extra shot']);
    await expect(counter.locator('#order-total').textContent()).resolves.toBe(usd(order.total_minor));
    await counter.locator('#order-status').filter({ hasText: 'Waiting for payment' }).waitFor();
    await counter.waitForFunction(() => (document.getElementById('order-qr') as HTMLImageElement).naturalWidth > 0);
    await shot(counter, 'order-qr');

    // The customer's page, on a phone.
    const customer = await browser.newPage();
    watch(customer, 'customer');
    await customer.setViewportSize({ width: 375, height: 740 });
    await customer.goto(`${base}/pay/${orderNumber}`);
    await customer.locator('#status').filter({ hasText: 'Waiting for payment' }).waitFor();
    await customer.waitForFunction(() => (document.getElementById('qr') as HTMLImageElement).naturalWidth > 0);
    expect(await customer.getByRole('link', { name: 'Open in wallet' }).getAttribute('href')).toBe(order.bip21_uri);
    expect(await customer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(customer, 'customer-page');

    // The customer pays the payment request with the developer wallet.
    const customerWallet = join(dir, 'customer.json');
    await wallet(chainPort, customerWallet, 'create');
    // Enough for the order at the demo rate (POS_FIXED_RATES) and the fee.
    await wallet(chainPort, customerWallet, 'faucet', String(Number(order.satoshis) + 100_000));
    const paid = await wallet(chainPort, customerWallet, 'pay', order.pay_uri);
    expect(paid.txid).toMatch(/^[0-9a-f]{64}$/);

    // Both pages turn paid on their own.
    await counter.locator('#order-status').filter({ hasText: /^Paid/ }).waitFor({ timeout: 30_000 });
    await customer.locator('#status').filter({ hasText: /Paid/ }).waitFor({ timeout: 30_000 });
    await shot(counter, 'counter-paid');
    await shot(customer, 'customer-paid');

    // The receipt: 42 columns of text, and a page of 80 mm when printed.
    await counter.getByRole('button', { name: 'Receipt' }).click();
    const text = (await counter.locator('#receipt-text').textContent()) ?? '';
    const lines = text.trimEnd().split('\n');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(42);
    expect(text).toContain(`Order ${orderNumber}`);
    expect(text).toContain('+ Large');
    expect(lines.find((line) => line.startsWith('TOTAL'))).toMatch(new RegExp(`${usd(order.total_minor).replace('$', '\\$')}$`));
    expect(text).toContain(String(paid.txid).slice(0, 30));
    writeFileSync(join(ARTIFACTS, 'receipt.txt'), text);
    await shot(counter, 'receipt');
    await counter.emulateMedia({ media: 'print' });
    await shot(counter, 'receipt-print');
    const pdf = await counter.pdf({ preferCSSPageSize: true });
    writeFileSync(join(ARTIFACTS, 'receipt.pdf'), pdf);
    // 80 mm is 226.77 points: the first page's MediaBox is that wide.
    const mediaBox = /\/MediaBox\s*\[\s*0\s+0\s+([\d.]+)/.exec(pdf.toString('latin1'));
    expect(Number(mediaBox?.[1])).toBeCloseTo(226.77, 0);

    expect(problems).toEqual([]);
  });
});
