import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HD } from '@bsv/sdk';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, openChromium } from './browser.js';
import { api, freePort, ROOT, startInstance, stopInstance, wallet, type Instance } from './instance.js';

/** A screenshot of each step, kept after the run (git ignores the folder; e2e/README.md says where). */
const ARTIFACTS = join(ROOT, 'e2e/artifacts/counter-sale');

const hasChromium = chromiumInstalled('counter-sale.test.ts');

/** Minor units of USD as the page shows them (en-US), from a decimal string: no float on the way. */
const usd = (minor: number) => {
  const size = BigInt(Math.abs(minor));
  const decimal = `${minor < 0 ? '-' : ''}${size / 100n}.${String(size % 100n).padStart(2, '0')}`;
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(decimal as unknown as number);
};

describe.skipIf(!hasChromium)('a sale at the counter, in headless Chromium, paid with the developer wallet', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-counter-'));
  let instance: Instance | undefined;
  let browser: BrowserContext | undefined;
  // What the sale leaves for the next step: the signed-in counter page, the problems pages reported.
  let counter: Page | undefined;
  let chainPort = 0;
  const problems: string[] = [];
  let step = 0;
  const shot = async (page: Page, name: string) => {
    step += 1;
    await page.screenshot({ path: join(ARTIFACTS, `${String(step).padStart(2, '0')}-${name}.png`), fullPage: true });
  };
  /** The order reads each page makes (GET /api/pos/orders/:n without /events): polls, when the stream fails. */
  const orderReads = new Map<Page, string[]>();
  const watch = (page: Page, label: string) => {
    orderReads.set(page, []);
    page.on('pageerror', (error) => problems.push(`${label}: ${error.message}`));
    page.on('console', (message) => {
      // A CSP violation, a failed module or an uncaught error shows up here.
      if (message.type() === 'error') problems.push(`${label}: ${message.text()}`);
    });
    page.on('request', (request) => {
      // The cart's quote (POST /api/pos/orders/quote) is no read of an order.
      const path = new URL(request.url()).pathname;
      if (/\/api\/pos\/orders\/\w+$/.test(path) && path !== '/api/pos/orders/quote') orderReads.get(page)!.push(request.url());
    });
  };
  afterAll(async () => {
    await browser?.close();
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs in with a key, sells a latte with a modifier and a tip, shows the QR to the customer, sees the payment arrive on both pages, and prints the receipt', async () => {
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });

    chainPort = await freePort();
    // pos's address watcher is off: the payment to the address below is learned from the clerk's confirm
    // alone (with the watcher on, it could see the payment first, and the test would prove nothing of confirm).
    instance = await startInstance({ port: await freePort(), dataDir: join(dir, 'data'), chainPort, env: { POS_WATCH_INTERVAL_MS: '0' } });
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
    // The saved menu names the counter's tabs (not the items' categories) and the merchant's tip choices.
    const menu = await fetch(`${base}/api/v1/orgs/${handle}/menu`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'if-match': '"0"' },
      body: JSON.stringify({
        sections: [
          { name: 'Coffee', item_ids: [latte.body.id] },
          { name: 'Bakery', item_ids: [croissant.body.id] },
        ],
        tip_basis_points: [1800, 1250, 1500],
      }),
    });
    expect(menu.status, await menu.clone().text()).toBe(200);

    browser = await openChromium(dir, { width: 1024, height: 800 });
    // The counter: sign in with the key; the menu comes up by category.
    counter = browser.pages()[0] ?? (await browser.newPage());
    watch(counter, 'counter');
    await counter.goto(`${base}/pos`);
    await counter.getByLabel('API key').fill(key);
    await shot(counter, 'sign-in');
    // The menu answers slowly here: the sale shows once its menu is drawn, so the keypad below it is never moved
    // from under a tap by the menu arriving.
    const slowMenu = '**/api/v1/orgs/*/menu';
    await counter.route(slowMenu, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.continue();
    });
    await counter.getByLabel('API key').press('Enter');
    await counter.getByRole('button', { name: 'Signing in…' }).waitFor();
    await shot(counter, 'signing-in');
    await counter.getByText('Custom amount (keypad)').waitFor();
    expect(await counter.locator('#item-grid button').allTextContents()).toEqual([
      expect.stringContaining('Oat milk latte'),
      expect.stringContaining('Croissant'),
    ]);
    await counter.unroute(slowMenu);
    await counter.getByRole('button', { name: /Oat milk latte/ }).waitFor();
    expect(await counter.evaluate(() => sessionStorage.getItem('ctk.apiKey'))).toBe(key);
    expect(await counter.evaluate(() => localStorage.length + document.cookie.length)).toBe(0);
    await expect(counter.getByRole('group', { name: 'Categories' }).getByRole('button').allTextContents()).resolves.toEqual([
      'All',
      'Coffee',
      'Bakery',
    ]);
    await shot(counter, 'menu');

    // Search narrows the grid; a category tab too.
    await counter.getByLabel('Search the menu').fill('crois');
    expect(await counter.locator('#item-grid button').count()).toBe(1);
    await counter.getByLabel('Search the menu').fill('');
    await counter.getByRole('button', { name: 'Coffee', exact: true }).click();
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
    // The tip choices are the merchant's, ascending, between None and Custom.
    await expect(
      counter
        .getByRole('group', { name: 'Tip' })
        .getByRole('radio')
        .evaluateAll((radios) => radios.map((r) => r.parentElement?.textContent?.trim())),
    ).resolves.toEqual(['None', '12.5%', '15%', '18%', 'Custom']);
    await counter.getByLabel('15%').check();
    const lineTotal = 575 + 75 + 100 + 2 * 425;
    // 15% of the lines before tax, rounded half up, in integers (decision 0023); pos prices the cart as it changes.
    const tip = Number((BigInt(lineTotal) * 1500n + 5000n) / 10000n);
    await expect.poll(() => counter!.locator('#sum-subtotal').textContent()).toBe(usd(lineTotal));
    await expect.poll(() => counter!.locator('#sum-tip').textContent()).toBe(usd(tip));
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
    expect(order.tip_minor).toBe(tip);
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

    // The status came over Server-Sent Events: neither page had to poll (the customer's page read the order once).
    expect(orderReads.get(counter)).toEqual([]);
    expect(orderReads.get(customer)).toHaveLength(1);
    await counter.emulateMedia({ media: 'screen' });
    await customer.close();
    expect(problems).toEqual([]);
  });

  it('cancels an open order (an item and a keypad line) at the counter, and the customer page says so at once', async () => {
    if (!counter || !instance) throw new Error('the sale above did not get as far as the receipt');
    await counter.getByRole('button', { name: 'New sale' }).click();
    await counter.getByLabel('Search the menu').fill('croissant');
    await counter.getByLabel('Search the menu').press('Enter');
    // A keypad line beside it: 2.00 typed on the keypad's buttons.
    await counter.getByText('Custom amount (keypad)').click();
    await counter.getByLabel('Name', { exact: true }).fill('Corkage');
    for (const key of ['2', '.', '0', '0'])
      await counter
        .getByRole('group', { name: 'Keypad' })
        .getByRole('button', { name: key === '.' ? 'Decimal point' : key, exact: true })
        .click();
    await counter.getByRole('button', { name: 'Add amount' }).click();
    await expect.poll(() => counter!.locator('#sum-subtotal').textContent()).toBe(usd(425 + 200));
    await counter.getByRole('button', { name: 'Create order' }).click();
    await counter.locator('#order-status').filter({ hasText: 'Waiting for payment' }).waitFor();
    const orderNumber = ((await counter.locator('#order-title').textContent()) ?? '').replace('Order ', '');
    const created = (await api(instance.base, 'GET', `/api/pos/orders/${orderNumber}`)).body;
    expect(created.lines.map((line: { name: string; unit_price_minor: number }) => [line.name, line.unit_price_minor])).toEqual([
      ['Croissant', 425],
      ['Corkage', 200],
    ]);

    const customer = await browser!.newPage();
    watch(customer, 'customer');
    await customer.setViewportSize({ width: 375, height: 740 });
    await customer.goto(`${instance.base}/pay/${orderNumber}`);
    await customer.locator('#status').filter({ hasText: 'Waiting for payment' }).waitFor();

    counter.once('dialog', (dialog) => dialog.accept());
    await counter.getByRole('button', { name: 'Cancel order' }).click();
    await counter.locator('#order-status').filter({ hasText: 'Cancelled' }).waitFor();
    await customer.locator('#status').filter({ hasText: 'Cancelled' }).waitFor({ timeout: 30_000 });
    expect(await customer.locator('#qr').isVisible()).toBe(false);
    await shot(counter, 'counter-cancelled');
    await shot(customer, 'customer-cancelled');
    const read = await api(instance.base, 'GET', `/api/pos/orders/${orderNumber}`);
    expect((read.body.order ?? read.body).status).toBe('cancelled');
    expect(problems).toEqual([]);
  });

  it('takes a payment to the address of the bitcoin: URI for a discounted order, confirmed by the clerk with its txid', async () => {
    if (!counter || !instance) throw new Error('the sale above did not get as far as the receipt');
    await counter.getByRole('button', { name: 'New sale' }).click();
    await counter.getByLabel('Search the menu').fill('croissant');
    await counter.getByLabel('Search the menu').press('Enter');
    // 0.25 off, as an amount.
    await counter.getByLabel('Discount kind').selectOption('amount');
    await counter.getByLabel('Discount value').fill('0.25');
    await expect.poll(() => counter!.locator('#sum-discount').textContent()).toBe(usd(-25));
    await counter.getByRole('button', { name: 'Create order' }).click();
    await counter.locator('#order-status').filter({ hasText: 'Waiting for payment' }).waitFor();
    const orderNumber = ((await counter.locator('#order-title').textContent()) ?? '').replace('Order ', '');
    const order = (await api(instance.base, 'GET', `/api/pos/orders/${orderNumber}`)).body;
    expect([order.discount_minor, order.tip_minor, order.total_minor]).toEqual([25, 0, 400]);
    await expect(counter.locator('#order-total').textContent()).resolves.toBe(usd(400));

    // A wallet that knows BIP21 only pays the address; the clerk types the txid the customer shows.
    const payer = join(dir, 'address-payer.json');
    await wallet(chainPort, payer, 'create');
    await wallet(chainPort, payer, 'faucet', String(Number(order.satoshis) + 100_000));
    const paid = await wallet(chainPort, payer, 'pay', order.bip21_uri);
    await counter.getByLabel('Confirm by transaction id').fill(String(paid.txid));
    const confirmed = counter.waitForResponse((response) => response.url().endsWith(`/api/pos/orders/${orderNumber}/confirm`));
    await counter.getByRole('button', { name: 'Confirm', exact: true }).click();
    expect((await confirmed).status()).toBe(200);
    await counter.locator('#order-status').filter({ hasText: /^Paid/ }).waitFor();
    await shot(counter, 'counter-confirmed');
    await counter.getByRole('button', { name: 'Receipt' }).click();
    expect(await counter.locator('#receipt-text').textContent()).toContain(String(paid.txid).slice(0, 42));
    expect(problems).toEqual([]);
  });
});
