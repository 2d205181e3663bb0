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

const ARTIFACTS = join(ROOT, 'e2e/artifacts/buy-button');

const hasChromium = chromiumInstalled('buy-button.test.ts');

const sleep = (ms: number) => new Promise((later) => setTimeout(later, ms));

/** Minor units of USD as the dialog shows them (en-US), from a decimal string: no float on the way. */
const usd = (minor: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(
    `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, '0')}` as unknown as number,
  );

/** A merchant that sells online: onboarded with an xpub and a tax jurisdiction, one item, a commerce key. */
async function merchant(base: string) {
  const xpub = HD.fromRandom().derive("m/44'/236'/0'").toPublic().toString();
  const onboarded = await api(base, 'POST', '/api/v1/onboard', undefined, {
    name: 'Blue Bottle Cafe',
    jurisdiction: 'US-CA',
    wallet_xpub: xpub,
  });
  expect(onboarded.status, JSON.stringify(onboarded.body)).toBe(201);
  const key = onboarded.body.api_key.key as string;
  const handle = onboarded.body.organization.handle as string;
  const latte = await api(base, 'POST', `/api/v1/orgs/${handle}/items`, key, {
    name: 'Oat milk latte',
    description: 'Double shot, steamed oat milk',
    price_cents: 575,
    category: 'coffee',
  });
  expect(latte.status, JSON.stringify(latte.body)).toBe(201);
  const commerceKey = await api(base, 'POST', `/api/v1/orgs/${handle}/commerce-key`, key);
  expect(commerceKey.status).toBe(201);
  return { key, handle, item: latte.body as Json, commerceKey: commerceKey.body.commerce_public_key as string };
}

/** Console errors (a CSP violation, a failed script, an SRI mismatch), uncaught errors, and the page's API calls. */
function watch(page: Page, label: string) {
  const problems: string[] = [];
  const calls: string[] = [];
  page.on('pageerror', (error) => problems.push(`${label}: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${label}: ${message.text()}`);
  });
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) calls.push(`${request.method()} ${url.pathname}`);
  });
  return { problems, calls };
}

describe.skipIf(!hasChromium)('the Buy button on a shop of another origin, in headless Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-buy-button-'));
  let instance: Instance | undefined;
  let shop: Shop | undefined;
  let browser: BrowserContext | undefined;
  let chainPort = 0;
  let cafe: Awaited<ReturnType<typeof merchant>>;
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
    cafe = await merchant(instance.base);
    shop = await startShop({ CTK_GATEWAY: instance.base, DEMO_MERCHANT: cafe.handle, DEMO_COMMERCE_KEY: cafe.commerceKey });
    browser = await openChromium(dir, { width: 1024, height: 800 });
  });
  afterAll(async () => {
    await browser?.close();
    await stopShop(shop);
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a customer opens the dialog, the wallet pays its pay: URI, the dialog shows paid, the page hears checkout.paid, the books have the sale', async () => {
    const base = instance!.base;
    const customerWallet = join(dir, 'customer.json');
    await wallet(chainPort, customerWallet, 'create');
    await wallet(chainPort, customerWallet, 'faucet', '50000000');

    const page = browser!.pages()[0] ?? (await browser!.newPage());
    const { problems, calls } = watch(page, 'shop');
    await page.goto(shop!.url);
    expect(new URL(page.url()).origin).not.toBe(new URL(base).origin);
    await page.getByRole('heading', { name: 'Oat milk latte' }).waitFor();
    const buy = page.locator('ctk-buy-button').getByRole('button', { name: 'Buy now' });
    await buy.waitFor();
    // The shop's theme (serif, uppercase, hot pink dashed buttons, hidden dialogs, tiny blurred images) stays outside.
    const look = await buy.evaluate((button) => {
      const style = getComputedStyle(button);
      return { font: style.fontFamily, transform: style.textTransform, background: style.backgroundColor, border: style.borderStyle };
    });
    expect(look.font).not.toContain('Georgia');
    expect(look.transform).toBe('none');
    expect(look.background).not.toBe('rgb(255, 105, 180)');
    expect(look.border).not.toBe('dashed');
    await shot(page, 'shop');

    await buy.click();
    const dialog = page.getByRole('dialog', { name: 'Pay Blue Bottle Cafe' });
    await dialog.waitFor();
    await dialog.getByText('Waiting for payment').waitFor();
    // Focus moved into the dialog; the page behind it is inert (a modal <dialog>).
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('CTK-BUY-BUTTON');
    expect(await dialog.evaluate((element) => element.contains((element.getRootNode() as ShadowRoot).activeElement))).toBe(true);

    // The lines, the total with California's 7.25% (575 -> 41.69 -> 42), and the satoshis.
    await expect(dialog.getByRole('row').allTextContents()).resolves.toEqual([
      `1 × Oat milk latte${usd(575)}`,
      `Subtotal${usd(575)}`,
      `Tax${usd(42)}`,
      `Total${usd(617)}`,
    ]);
    const qr = dialog.getByRole('img', { name: /QR code to pay/ });
    await qr.evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0) || new Promise((done) => (img.onload = done)));
    expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    const payUri = (await dialog.getByRole('link', { name: /pay: link/ }).getAttribute('href')) ?? '';
    const bip21 = (await dialog.getByRole('link', { name: 'Open in wallet' }).getAttribute('href')) ?? '';
    expect(payUri).toMatch(/^pay:\?r=/);
    expect(bip21).toMatch(/^bitcoin:/);
    const orderNumber = /Order%20(\w+)/.exec(bip21)?.[1] ?? '';
    const order = (await api(base, 'GET', `/api/pos/orders/${orderNumber}`)).body;
    expect(order).toMatchObject({ status: 'open', total_minor: 617, tax_minor: 42, pay_uri: payUri });
    expect(await qr.getAttribute('src')).toBe(`${base}/api/pos/orders/${orderNumber}/qr`);
    await dialog.getByText(`${new Intl.NumberFormat('en-US').format(order.satoshis)} satoshis`, { exact: true }).waitFor();
    await shot(page, 'dialog');

    // Escape closes it; the Buy button has the focus again; opening again shows the same checkout, not a new one.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await buy.evaluate((button) => (button.getRootNode() as ShadowRoot).activeElement === button)).toBe(true);
    await buy.click();
    await dialog.getByText('Waiting for payment').waitFor();
    expect((await dialog.getByRole('link', { name: /pay: link/ }).getAttribute('href')) ?? '').toBe(payUri);
    expect(calls.filter((call) => call.endsWith('/checkout'))).toEqual([`POST /api/v1/commerce/${cafe.handle}/checkout`]);

    // The customer's wallet pays the request the QR names.
    const paid = await wallet(chainPort, customerWallet, 'pay', payUri);
    const txid = paid.txid as string;
    expect(txid).toMatch(/^[0-9a-f]{64}$/);
    await dialog.getByText('Paid. Thank you!').waitFor({ timeout: 30_000 });
    await expect(dialog.getByText(`Order ${orderNumber}:`).textContent()).resolves.toContain(usd(617));
    await shot(page, 'dialog-paid');

    // The host page heard it: the event (bubbling out of the element) and the callback the attribute names.
    const heard = page.locator('#events li[data-type="checkout.paid"]');
    await heard.waitFor();
    const detail = JSON.parse((await heard.getAttribute('data-detail')) ?? '{}');
    expect(detail).toMatchObject({
      order_number: orderNumber,
      merchant: cafe.handle,
      status: 'paid',
      currency: 'USD',
      total_minor: 617,
      tax_minor: 42,
      satoshis: order.satoshis,
      paid_satoshis: order.satoshis,
    });
    expect(detail.public_token).toMatch(/^cko_/);
    expect(await page.evaluate(() => (window as unknown as { demoShopCallbacks: Json[] }).demoShopCallbacks)).toEqual([
      { type: 'checkout.paid', detail },
    ]);
    await expect(page.locator('#thanks').textContent()).resolves.toContain(`Order ${orderNumber} is paid`);

    // Done closes the dialog without leaving the page.
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(page.url()).toBe(shop!.url);
    await shot(page, 'shop-paid');

    // The checkout says paid; it was followed over the stream (one status read when it ended, no polling).
    const status = await fetch(`${base}/api/v1/commerce/${cafe.handle}/checkout/${detail.public_token}/status`, {
      headers: { 'x-commerce-key': cafe.commerceKey },
    }).then((response) => response.json() as Promise<Json>);
    expect(['paid', 'confirmed']).toContain(status.status);
    expect(calls.filter((call) => call.endsWith('/status'))).toHaveLength(1);
    expect(calls.some((call) => call === `GET /api/pos/orders/${orderNumber}/events`)).toBe(true);

    // The books: money in, revenue and sales tax, from the payment's event.
    let entry: Json | undefined;
    for (let i = 0; i < 150 && !entry; i++) {
      const ledger = await api(base, 'GET', `/api/v1/orgs/${cafe.handle}/ledger`, cafe.key);
      entry = ledger.body.data?.find((candidate: Json) => candidate.txid === txid);
      if (!entry) await sleep(100);
    }
    expect(entry, `the ledger entry of ${txid}`).toBeDefined();
    expect(Object.fromEntries(entry!.lines.map((line: Json) => [line.account_code, [line.debit_minor, line.credit_minor]]))).toEqual({
      '1010': [617, 0],
      '4000': [0, 575],
      '2100': [0, 42],
    });
    expect(problems).toEqual([]);
  });

  it('without the event stream, the dialog polls the checkout status and still turns paid', async () => {
    const page = await browser!.newPage();
    const { problems, calls } = watch(page, 'shop without stream');
    // A proxy that refuses Server-Sent Events: the stream fails at once.
    await page.route(/\/api\/pos\/orders\/\w+\/events$/, (route) => route.abort());
    await page.goto(shop!.url);
    await page.locator('ctk-buy-button').getByRole('button', { name: 'Buy now' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pay Blue Bottle Cafe' });
    await dialog.getByText('Waiting for payment').waitFor();
    const payUri = (await dialog.getByRole('link', { name: /pay: link/ }).getAttribute('href')) ?? '';
    await sleep(2500);
    const polls = calls.filter((call) => call.endsWith('/status')).length;
    expect(polls).toBeGreaterThanOrEqual(1);
    await wallet(chainPort, join(dir, 'customer.json'), 'pay', payUri);
    await dialog.getByText('Paid. Thank you!').waitFor({ timeout: 30_000 });
    await page.locator('#events li[data-type="checkout.paid"]').waitFor();
    expect(calls.filter((call) => call.endsWith('/status')).length).toBeGreaterThan(polls);
    // The only complaint is the refused stream itself.
    expect(problems.filter((problem) => !problem.includes('net::ERR_FAILED'))).toEqual([]);
    await page.close();
  });

  it('a button that cannot make a checkout says why in the dialog, and offers to try again', async () => {
    const page = await browser!.newPage();
    const { problems } = watch(page, 'shop with broken buttons');
    await page.goto(shop!.url);
    await page.evaluate(
      ({ handle, commerceKey }) => {
        const add = (label: string, attributes: Record<string, string>) => {
          const button = document.createElement('ctk-buy-button');
          for (const [name, value] of Object.entries(attributes)) button.setAttribute(name, value);
          button.textContent = label;
          document.querySelector('main')!.append(button);
        };
        add('Not for sale', { merchant: handle, 'commerce-key': commerceKey, item: '00000000-0000-4000-8000-000000000000' });
        add('No key', { merchant: handle, item: '00000000-0000-4000-8000-000000000000' });
      },
      { handle: cafe.handle, commerceKey: cafe.commerceKey },
    );
    await page.getByRole('button', { name: 'Not for sale' }).click();
    const notForSale = page.locator('ctk-buy-button', { hasText: 'Not for sale' }).getByRole('alert');
    await notForSale.waitFor();
    expect(await notForSale.textContent()).toBe('No item 00000000-0000-4000-8000-000000000000 is for sale in this shop');
    await page.locator('ctk-buy-button', { hasText: 'Not for sale' }).getByRole('button', { name: 'Try again' }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'not-for-sale.png'), fullPage: true });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'No key' }).click();
    await expect(page.locator('ctk-buy-button', { hasText: 'No key' }).getByRole('alert').textContent()).resolves.toBe(
      'This Buy button is missing its commerce-key attribute.',
    );
    // A 422 from the API is reported by the browser as a failed resource; nothing else went wrong.
    expect(problems.filter((problem) => !/status of 422/.test(problem))).toEqual([]);
    await page.close();
  });
});

describe.skipIf(!hasChromium)('a Buy button checkout left unpaid expires, and the host page hears checkout.expired', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-buy-button-expiry-'));
  let instance: Instance | undefined;
  let shop: Shop | undefined;
  let browser: BrowserContext | undefined;

  afterAll(async () => {
    await browser?.close();
    await stopShop(shop);
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the expiry in the dialog, tells the page, and offers to start again', async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    // Orders of this instance are open for 3 seconds.
    instance = await startInstance({
      port: await freePort(),
      dataDir: join(dir, 'data'),
      chainPort: await freePort(),
      env: { POS_ORDER_TTL_SECONDS: '3' },
    });
    const cafe = await merchant(instance.base);
    shop = await startShop({ CTK_GATEWAY: instance.base, DEMO_MERCHANT: cafe.handle, DEMO_COMMERCE_KEY: cafe.commerceKey });
    browser = await openChromium(dir, { width: 1024, height: 800 });
    const page = browser.pages()[0] ?? (await browser.newPage());
    const { problems } = watch(page, 'shop');
    await page.goto(shop.url);
    await page.locator('ctk-buy-button').getByRole('button', { name: 'Buy now' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pay Blue Bottle Cafe' });
    await dialog.getByText('Waiting for payment').waitFor();

    await dialog.getByText('This checkout expired before it was paid').waitFor({ timeout: 20_000 });
    expect(await dialog.getByRole('img', { name: /QR code/ }).isVisible()).toBe(false);
    const heard = page.locator('#events li[data-type="checkout.expired"]');
    await heard.waitFor();
    const detail = JSON.parse((await heard.getAttribute('data-detail')) ?? '{}');
    expect(detail).toMatchObject({ status: 'expired', total_minor: 617, paid_satoshis: 0 });
    expect(await page.evaluate(() => (window as unknown as { demoShopCallbacks: Json[] }).demoShopCallbacks)).toEqual([
      { type: 'checkout.expired', detail },
    ]);
    await expect(page.locator('#thanks').textContent()).resolves.toContain('expired');
    await page.screenshot({ path: join(ARTIFACTS, 'expired.png'), fullPage: true });

    // Start again: a new checkout, waiting for payment.
    await dialog.getByRole('button', { name: 'Start again' }).click();
    await dialog.getByText('Waiting for payment').waitFor();
    expect(problems).toEqual([]);
  });
});
