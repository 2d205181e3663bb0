import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, openChromium } from './browser.js';
import { startShop, stopShop } from './demo-shop.js';
import { api, freePort, ROOT, startInstance, stopInstance, wallet, type Instance } from './instance.js';
import { signInWithWif } from './key-proof.js';
import { pageProblems } from './page-checks.js';

/** Screenshots of each step at phone and desktop size, kept after the run (git ignores the folder). */
const ARTIFACTS = join(ROOT, 'e2e/artifacts/back-office');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

const hasChromium = chromiumInstalled('back-office.test.ts');

/** Minor units of USD as the pages show them (en-US), through a decimal string: no float on the way. */
const usd = (minor: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(
    `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, '0')}` as unknown as number,
  );

describe.skipIf(!hasChromium)('the back office, in headless Chromium at phone size', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-back-office-'));
  let instance: Instance;
  let browser: BrowserContext;
  let page: Page;
  let chainPort = 0;
  // Script errors and failed requests any page reported; each step expects none.
  const errors: string[] = [];
  let step = 0;
  // Each step at phone size, then at desktop size, and back.
  const snap = async (name: string) => {
    step++;
    const file = (size: string) => join(ARTIFACTS, `${String(step).padStart(2, '0')}-${name}-${size}.png`);
    await page.screenshot({ path: file('phone'), fullPage: true });
    await page.setViewportSize(DESKTOP);
    await page.screenshot({ path: file('desktop'), fullPage: true });
    await page.setViewportSize(PHONE);
  };
  // The whole path of a new merchant, from the start page to the hledger export, must take under 3 minutes.
  let pathStarted = 0;
  // The counter's sale, for the orders page.
  const sold = { orderNumber: '', txid: '' };

  beforeAll(async () => {
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    chainPort = await freePort();
    instance = await startInstance({ port: await freePort(), dataDir: join(dir, 'data'), chainPort });
    browser = await openChromium(dir, PHONE);
    page = await browser.newPage();
    page.on('pageerror', (error) => errors.push(`script error: ${error.message}`));
    page.on('console', (message) => {
      // The counter looks an identifier up as both kinds of card: the other kind's 404 is an answer it handles.
      const handled = /\/api\/pos\/(prepaid|loyalty)-cards\/lookup\//.test(message.location().url) && /status of 404/.test(message.text());
      // The federated marketplace's page reads the shop's feed and listing: a 404 until its first publish, which it says in words.
      const unpublished =
        /\/api\/v1\/(feeds|discover\/merchants)\/[^/]+$/.test(message.location().url) && /status of 404/.test(message.text());
      if (message.type() === 'error' && !handled && !unpublished) errors.push(`console: ${message.text()}`);
    });
  });

  afterAll(async () => {
    await browser?.close();
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  // The session's API key, as the page holds it for the tab (sessionStorage).
  const sessionKey = () => page.evaluate(() => sessionStorage.getItem('ctk.apiKey') ?? undefined);
  // The backup of the key the browser made, as downloaded.
  let backupWif = '';
  let ownerKey = '';

  it('opens a shop from the start page with no password: the form, a wallet made with pnpm wallet, and a key backup to download', async () => {
    pathStarted = Date.now();
    const walletFile = join(dir, 'cafe-wallet.json');
    await wallet(chainPort, walletFile, 'create');
    const { xpub } = (await wallet(chainPort, walletFile, 'xpub')) as { xpub: string };

    await page.goto(`${instance.base}/`);
    await expect.poll(() => page.getByRole('heading', { name: 'Open your shop' }).isVisible()).toBe(true);
    // The jurisdictions come from books' table.
    await expect.poll(() => page.locator('select[name=jurisdiction] option').count()).toBeGreaterThan(1);
    expect(await pageProblems(page)).toEqual([]);
    await snap('start');

    await page.getByLabel('Business name').fill('Corner Cafe');
    await page.getByLabel('Where you sell (sales tax)').selectOption('US-CA');
    await page.getByLabel('Your wallet').fill(xpub);
    await page.getByLabel('Paymail alias').fill('corner');
    await page.getByRole('button', { name: 'Open my shop' }).click();

    await expect.poll(() => page.getByRole('heading', { name: /Back up your sign-in key/ }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await pageProblems(page)).toEqual([]);
    await snap('shop-opened');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download the backup' }).click()]);
    const backup = readFileSync((await download.path())!, 'utf8');
    backupWif = backup.match(/key \(WIF\): (\S+)/)![1]!;

    // The shop is the signed-in user's, with what the form said; the backup signs in as that user, from outside.
    ownerKey = await signInWithWif(instance.base, backupWif);
    const me = await api(instance.base, 'GET', '/api/v1/me', ownerKey);
    expect(me.body.did).toBe(backup.match(/did: (\S+)/)![1]);
    const [org] = me.body.organizations as { handle: string; name: string; role: string }[];
    expect(org).toMatchObject({ name: 'Corner Cafe', role: 'owner' });
    const details = await api(instance.base, 'GET', `/api/v1/organizations/${org!.handle}`, ownerKey);
    // The time zone the form offered first: this browser's.
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(details.body).toMatchObject({
      jurisdiction: 'US-CA',
      wallet_xpub: xpub,
      paymail: expect.stringMatching(/^corner@/),
      time_zone: zone,
    });

    await page.getByRole('button', { name: 'I have backed it up' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Corner Cafe' }).isVisible()).toBe(true);

    // The counter opens signed in, in this tab, at this shop.
    await page.getByRole('link', { name: 'Open the counter' }).click();
    await expect.poll(() => page.locator('#sell-view').isVisible()).toBe(true);
    expect(await page.locator('#org-select option:checked').textContent()).toBe('Corner Cafe');
    await page.goBack();
    await expect.poll(() => page.getByRole('heading', { name: 'Corner Cafe' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('builds the menu by importing a photo of the printed menu: drafts to check, with what was guessed, then saved', async () => {
    await page.getByRole('link', { name: 'Items', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Import your menu' }).isVisible()).toBe(true);
    await page.getByLabel('A photo of the printed menu, or a CSV').setInputFiles(join(ROOT, 'apps/pos/test/fixtures/menu.png'));
    await page.getByRole('button', { name: 'Read it' }).click();
    const review = page.getByRole('form', { name: 'Review the items read' });
    await expect.poll(() => review.isVisible(), { timeout: 90_000, interval: 500 }).toBe(true);
    expect(await review.getByRole('checkbox').count()).toBe(5);
    expect(await review.getByText('Espresso').isVisible()).toBe(true);
    // What pos guessed of each draft is shown with it, as the API says it.
    const photo = readFileSync(join(ROOT, 'apps/pos/test/fixtures/menu.png')).toString('base64');
    const read = await api(instance.base, 'POST', '/api/v1/items/analyze', undefined, { image: photo });
    const notes = (read.body.drafts as { notes: string[] }[]).flatMap((d) => d.notes);
    for (const note of notes) expect(await review.getByText(note, { exact: true }).first().isVisible(), note).toBe(true);
    expect(await pageProblems(page)).toEqual([]);
    await snap('menu-drafts');

    await review.getByRole('button', { name: 'Save 5 items' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('5 items saved.');
    await expect.poll(() => page.getByRole('cell', { name: /Banana bread/ }).isVisible()).toBe(true);
    const me = await api(instance.base, 'GET', '/api/v1/me', ownerKey);
    const items = await api(instance.base, 'GET', `/api/v1/orgs/${me.body.organizations[0].handle}/items`, ownerKey);
    expect((items.body.data as { name: string; price_cents: number }[]).map((i) => [i.name, i.price_cents]).sort()).toEqual([
      ['Banana bread', 395],
      ['Cappuccino', 475],
      ['Croissant', 325],
      ['Espresso', 300],
      ['Flat white', 450],
    ]);
    await snap('menu-saved');
    expect(errors).toEqual([]);
  });

  it('sells at the counter, the customer pays with pnpm wallet, and the sale is in the journal, in today’s chart and in the hledger export, all within 3 minutes of the start page', async () => {
    const me = await api(instance.base, 'GET', '/api/v1/me', ownerKey);
    const handle = me.body.organizations[0].handle as string;
    // Two espressos from the imported menu, at the counter the dashboard opens.
    await page.goto(`${instance.base}/`);
    await page.getByRole('link', { name: 'Open the counter' }).click();
    await page.getByRole('button', { name: /Espresso/ }).click();
    await page.getByRole('button', { name: 'One more Espresso' }).click();
    await page.getByRole('button', { name: 'Create order' }).click();
    await page.locator('#order-status').filter({ hasText: 'Waiting for payment' }).waitFor();
    await page.waitForFunction(() => (document.getElementById('order-qr') as HTMLImageElement).naturalWidth > 0);
    await snap('counter-order');
    const orderNumber = ((await page.locator('#order-title').textContent()) ?? '').replace('Order ', '');
    const order = (await api(instance.base, 'GET', `/api/pos/orders/${orderNumber}`)).body as { pay_uri: string; total_minor: number };
    expect(await page.locator('#order-total').textContent()).toBe(usd(order.total_minor));

    const customer = join(dir, 'customer.json');
    await wallet(chainPort, customer, 'create');
    await wallet(chainPort, customer, 'faucet', '100000000');
    const paid = (await wallet(chainPort, customer, 'pay', order.pay_uri)) as { txid: string };
    Object.assign(sold, { orderNumber, txid: paid.txid });
    await page.locator('#order-status').filter({ hasText: /^Paid/ }).waitFor({ timeout: 30_000 });
    await snap('counter-paid');

    await page.goto(`${instance.base}/`);
    // The shop's own links come first; the capability map below lists the Ledger too once it is read.
    await page.getByRole('link', { name: 'Ledger', exact: true }).first().click();
    await expect.poll(() => page.getByText(paid.txid).isVisible(), { timeout: 30_000, interval: 500 }).toBe(true);
    // Two espressos at $3.00 and California's tax: the wallet's line is the order's total.
    const total = usd(order.total_minor);
    expect(await page.getByRole('cell', { name: total }).first().isVisible()).toBe(true);
    expect(await pageProblems(page)).toEqual([]);
    await snap('ledger');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'hledger' }).click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${handle}-\\d{4}-\\d{2}-\\d{2}-to-\\d{4}-\\d{2}-\\d{2}-hledger\\.journal$`));
    const journal = (await download.path())!;
    await promisify(execFile)('hledger', ['check', '--strict', '-f', journal]);
    expect(readFileSync(journal, 'utf8')).toContain(paid.txid);

    await page.goto(`${instance.base}/o/${handle}/reports`);
    await expect.poll(() => page.getByRole('figure', { name: 'Sales by day (USD)' }).isVisible(), { timeout: 15_000 }).toBe(true);
    // The chart's table (for screen readers, and exact amounts) has today's sales.
    const today = new Intl.DateTimeFormat('en-CA').format(new Date());
    const row = page.getByRole('table', { name: 'Sales by day (USD)' }).getByRole('row', { name: new RegExp(today) });
    await expect.poll(() => row.textContent()).toContain('$');
    expect(await page.locator('canvas').count()).toBeGreaterThanOrEqual(3);
    // The busy hours' heat map (its table, 7 days by 24 hours) counts the one sale so far.
    const heat = page.getByRole('table', { name: 'Busy hours (USD, orders by day and hour)' });
    expect(await heat.locator('td').count()).toBe(7 * 24);
    expect((await heat.locator('td').allTextContents()).map(Number).reduce((sum, n) => sum + n, 0)).toBe(1);
    expect(await pageProblems(page)).toEqual([]);
    await snap('reports');
    const minutes = (Date.now() - pathStarted) / 60_000;
    console.log(`the new merchant's whole path took ${minutes.toFixed(2)} minutes`);
    expect(minutes).toBeLessThan(3);
    expect(errors).toEqual([]);
  });

  it('finds the sale on the orders page with its lines and payment, verifies its receipt, and cancels an open order there', async () => {
    const me = await api(instance.base, 'GET', '/api/v1/me', ownerKey);
    const handle = me.body.organizations[0].handle as string;
    const open = await api(instance.base, 'POST', '/api/pos/orders', ownerKey, {
      org_handle: handle,
      lines: [{ name: 'Scone', quantity: 1, unit_price_minor: 350 }],
    });
    expect(open.status).toBe(201);
    await page.goto(`${instance.base}/`);
    await page.getByRole('link', { name: 'Orders', exact: true }).click();
    const saleCard = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: new RegExp(`Order ${sold.orderNumber} (paid|confirmed)`) }) });
    await expect.poll(() => saleCard.isVisible()).toBe(true);
    await saleCard.getByText('Lines and payments').click();
    expect(await saleCard.getByRole('cell', { name: '2 × Espresso' }).isVisible()).toBe(true);
    expect(await saleCard.getByText(sold.txid).isVisible()).toBe(true);
    await saleCard.getByRole('button', { name: 'Verify the receipt' }).click();
    await expect
      .poll(() => saleCard.getByRole('status').textContent())
      .toMatch(new RegExp(`^Receipt on chain for .+, order ${sold.orderNumber}: `));
    expect(await pageProblems(page)).toEqual([]);
    await snap('orders');

    // The open order, found by the start of its number, cancelled after the page asks.
    await page.getByLabel('Order number').fill(open.body.order_number.slice(0, 5).toLowerCase());
    await page.getByRole('button', { name: 'Show' }).click();
    const openCard = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: `Order ${open.body.order_number} open` }) });
    await expect.poll(() => openCard.isVisible()).toBe(true);
    page.once('dialog', (dialog) => void dialog.accept());
    await openCard.getByRole('button', { name: 'Cancel order' }).click();
    await expect.poll(() => page.getByRole('heading', { name: `Order ${open.body.order_number} cancelled` }).isVisible()).toBe(true);
    expect((await api(instance.base, 'GET', `/api/pos/orders/${open.body.order_number}`)).body.status).toBe('cancelled');
    await snap('order-cancelled');
    expect(errors).toEqual([]);
  });

  it("refunds one of the two espressos on the orders page: the merchant's pnpm wallet pays it back to the customer's wallet, and the journal and the sales report show it with its tax", async () => {
    const me = await api(instance.base, 'GET', '/api/v1/me', ownerKey);
    const handle = me.body.organizations[0].handle as string;
    const customer = join(dir, 'customer.json');
    const before = ((await wallet(chainPort, customer, 'balance')) as { satoshis: number }).satoshis;
    await page.goto(`${instance.base}/o/${handle}/orders`);
    const saleCard = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: new RegExp(`Order ${sold.orderNumber} (paid|confirmed)`) }) });
    await expect.poll(() => saleCard.isVisible()).toBe(true);
    const form = saleCard.getByRole('form', { name: `Refund order ${sold.orderNumber}` });
    await form.getByLabel('Units of Espresso (of 2)').fill('1');
    await form.getByLabel('Reason').fill('Spilled');
    await form.getByRole('button', { name: 'Make the refund' }).click();
    const refunds = saleCard.getByRole('region', { name: `Refunds of order ${sold.orderNumber}` });
    await expect.poll(() => refunds.getByRole('link', { name: 'open the refund in your wallet' }).isVisible()).toBe(true);
    const order = (await api(instance.base, 'GET', `/api/pos/orders/${sold.orderNumber}`)).body;
    const [refund] = order.refunds as { amount_minor: number; tax_minor: number; satoshis: number; payment_uri: string; address: string }[];
    // Half the order (one of two espressos) with half its tax, to the address the customer's wallet gave when it paid.
    const { address } = (await wallet(chainPort, customer, 'address')) as { address: string };
    expect(refund).toMatchObject({ status: 'pending', address, amount_minor: order.total_minor / 2, tax_minor: order.tax_minor / 2 });
    expect(await refunds.textContent()).toContain(`${usd(refund!.amount_minor)} (tax ${usd(refund!.tax_minor)})`);
    expect(await refunds.getByRole('link', { name: 'open the refund in your wallet' }).getAttribute('href')).toBe(refund!.payment_uri);
    expect(await pageProblems(page)).toEqual([]);
    await snap('refund-made');

    // The merchant's wallet pays the page's pay: link; the customer's wallet has the refund's satoshis.
    const paid = (await wallet(chainPort, join(dir, 'cafe-wallet.json'), 'pay', refund!.payment_uri)) as { txid: string };
    expect(((await wallet(chainPort, customer, 'balance')) as { satoshis: number }).satoshis - before).toBe(refund!.satoshis);
    await expect.poll(async () => (await page.reload(), await refunds.getByText(paid.txid).isVisible()), { timeout: 15_000 }).toBe(true);
    expect(await refunds.getByText('paid', { exact: true }).isVisible()).toBe(true);
    // Half was refunded: what is left can still be, and no more.
    expect(await saleCard.getByRole('form', { name: `Refund order ${sold.orderNumber}` }).isVisible()).toBe(true);
    await snap('refund-paid');

    // The journal has it, with its tax; the sales report's table shows today's refund.
    await page.goto(`${instance.base}/o/${handle}/ledger`);
    await expect.poll(() => page.getByText(paid.txid).isVisible(), { timeout: 30_000, interval: 500 }).toBe(true);
    const entry = (
      (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/ledger`, ownerKey)).body.data as {
        txid: string;
        event_type: string;
        lines: { account_code: string; debit_minor: number; credit_minor: number }[];
      }[]
    ).find((e) => e.txid === paid.txid)!;
    expect(entry.event_type).toBe('payment.refunded');
    expect(entry.lines.find((line) => line.account_code === '2100')?.debit_minor).toBe(refund!.tax_minor);
    await page.goto(`${instance.base}/o/${handle}/reports`);
    const today = new Intl.DateTimeFormat('en-CA').format(new Date());
    const table = page.getByRole('table', { name: 'Sales by day (USD)' });
    const todays = async () => {
      const head = await table.locator('thead th').allTextContents();
      const cells = await table
        .getByRole('row', { name: new RegExp(today) })
        .locator('th, td')
        .allTextContents();
      return { refunds: cells[head.indexOf('Refunds, tax included')], tax: cells[head.indexOf('Tax refunded')] };
    };
    await expect.poll(todays, { timeout: 15_000 }).toEqual({ refunds: usd(refund!.amount_minor), tax: usd(refund!.tax_minor) });
    expect(await pageProblems(page)).toEqual([]);
    await snap('refund-in-reports');
    expect(errors).toEqual([]);
  });

  it('makes an API key on /settings that works with the API, and revoking it there makes the next call 401', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Settings' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'API keys' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('this session').isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'Sign-in key' }).isVisible()).toBe(true);
    expect(await pageProblems(page)).toEqual([]);

    await page.getByLabel("New key's name").fill('Accountant');
    await page.getByRole('button', { name: 'Make a key' }).click();
    const shown = page.getByLabel('The new key');
    await expect.poll(() => shown.isVisible()).toBe(true);
    const made = (await shown.textContent())!.trim();
    await expect.poll(() => page.getByRole('button', { name: 'Revoke Accountant' }).isVisible()).toBe(true);
    expect(await pageProblems(page)).toEqual([]);
    await snap('settings-key-made');
    expect((await api(instance.base, 'GET', '/api/v1/me', made)).status).toBe(200);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke Accountant' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Revoke Accountant' }).count()).toBe(0);
    expect((await api(instance.base, 'GET', '/api/v1/me', made)).status).toBe(401);
    // The session's own key still works.
    expect((await api(instance.base, 'GET', '/api/v1/me', await sessionKey())).status).toBe(200);
    await snap('settings-key-revoked');
    expect(errors).toEqual([]);
  });

  it("signs out (the session's key then works nowhere), and back in with the browser's key", async () => {
    const session = await sessionKey();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in' }).isVisible()).toBe(true);
    expect(await sessionKey()).toBeUndefined();
    expect((await api(instance.base, 'GET', '/api/v1/me', session)).status).toBe(401);
    // Signed out, settings asks to sign in: nothing of the shop is shown.
    await page.goto(`${instance.base}/settings`);
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in first' }).isVisible()).toBe(true);
    expect(await page.getByText('Accountant').count()).toBe(0);

    await page.goto(`${instance.base}/`);
    await page.getByRole('button', { name: "Sign in with this browser's key" }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Corner Cafe' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('signs in on another browser from the backup, and refuses what is not a key in words', async () => {
    const other = await openChromium(join(dir, 'second-browser'), PHONE);
    try {
      const second = await other.newPage();
      await second.goto(`${instance.base}/`);
      await expect.poll(() => second.getByRole('heading', { name: 'Sign in' }).isVisible()).toBe(true);
      // This browser keeps no key: it offers the backup.
      expect(await second.getByRole('button', { name: "Sign in with this browser's key" }).count()).toBe(0);
      await second.getByLabel('Backup key (WIF)').fill('not a key');
      await second.getByRole('button', { name: 'Sign in with the backup' }).click();
      await expect.poll(() => second.getByRole('alert').filter({ hasText: 'not a sign-in key backup' }).isVisible()).toBe(true);

      await second.getByLabel('Backup key (WIF)').fill(backupWif);
      await second.getByRole('button', { name: 'Sign in with the backup' }).click();
      await expect.poll(() => second.getByRole('heading', { name: 'Corner Cafe' }).isVisible()).toBe(true);
      expect(await pageProblems(second)).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it("keeps the shop's settings: its paymail, its time zone (the orders page's times are in it), the Buy button's snippet with the script's true hash (pasted into the demo shop, it sells), and members with roles", async () => {
    const me = await api(instance.base, 'GET', '/api/v1/me', ownerKey);
    const handle = me.body.organizations[0].handle as string;
    const latte = await api(instance.base, 'POST', `/api/v1/orgs/${handle}/items`, ownerKey, {
      name: 'Oat latte',
      price_cents: 575,
      currency: 'USD',
    });
    expect(latte.status).toBe(201);
    await page.goto(`${instance.base}/settings`);
    await expect.poll(() => page.getByRole('heading', { name: 'Wallet, paymail and tax' }).isVisible()).toBe(true);

    // The paymail alias, changed on the page, is the organisation's.
    const facts = page.getByRole('form', { name: 'Wallet, paymail and tax' });
    await facts.getByLabel('Paymail alias').fill('corner-cafe');
    await facts.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => facts.getByRole('status').textContent()).toBe('Saved.');
    expect((await api(instance.base, 'GET', `/api/v1/organizations/${handle}`, ownerKey)).body.paymail).toMatch(/^corner-cafe@/);

    // The shop's time zone, chosen here, is the one its pages show times in (the orders page), whatever the browser's.
    const zoneBefore = (await api(instance.base, 'GET', `/api/v1/organizations/${handle}`, ownerKey)).body.time_zone as string;
    // On the page afresh, so that the form's "Saved." is this save's, as the merchant sees it before moving on.
    await page.reload();
    await facts.getByRole('combobox', { name: /^Time zone/ }).selectOption('Asia/Tokyo');
    await facts.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => facts.getByRole('status').textContent(), { timeout: 15_000 }).toBe('Saved.');
    await expect
      .poll(async () => (await api(instance.base, 'GET', `/api/v1/organizations/${handle}`, ownerKey)).body.time_zone, {
        timeout: 15_000,
        interval: 250,
      })
      .toBe('Asia/Tokyo');
    await page.goto(`${instance.base}/o/${handle}/orders`);
    const sale = (await api(instance.base, 'GET', `/api/pos/orders/${sold.orderNumber}`)).body as { created_at: string };
    // As the browser's Intl writes that moment in Tokyo (its spaces are ICU's own).
    const inTokyo = await page.evaluate(
      (iso) =>
        new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Tokyo' }).format(new Date(iso)),
      sale.created_at,
    );
    await expect.poll(() => page.getByText(inTokyo).first().isVisible(), { timeout: 15_000, interval: 250 }).toBe(true);
    await page.goto(`${instance.base}/settings`);
    await facts.getByRole('combobox', { name: /^Time zone/ }).selectOption(zoneBefore);
    await facts.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => (await api(instance.base, 'GET', `/api/v1/organizations/${handle}`, ownerKey)).body.time_zone, {
        timeout: 15_000,
        interval: 250,
      })
      .toBe(zoneBefore);

    // The Buy button: the commerce key made here, and the snippet for the latte, hashed as the script is served.
    await page.getByRole('button', { name: 'Make the commerce key' }).click();
    const snippet = page.getByLabel('Paste this into your page');
    await expect.poll(() => snippet.isVisible()).toBe(true);
    await page.getByLabel('Item', { exact: true }).selectOption(latte.body.id);
    await expect.poll(() => snippet.inputValue()).toContain(latte.body.id);
    const script = Buffer.from(await (await fetch(`${instance.base}/checkout/v2/checkout.js`)).arrayBuffer());
    const integrity = `sha384-${createHash('sha384').update(script).digest('base64')}`;
    const commerceKey = (await api(instance.base, 'GET', `/api/v1/organizations/${handle}`, ownerKey)).body.commerce_public_key as string;
    expect(await snippet.inputValue()).toBe(
      `<script src="${instance.base}/checkout/v2/checkout.js" integrity="${integrity}" crossorigin="anonymous" defer></script>\n` +
        `<ctk-buy-button merchant="${handle}" item="${latte.body.id}" commerce-key="${commerceKey}" quantity="1">Buy now</ctk-buy-button>`,
    );

    // The snippet, pasted into the demo shop (another origin), sells the latte: the customer's wallet pays the dialog's request.
    const snippetFile = join(dir, 'snippet.html');
    writeFileSync(snippetFile, await snippet.inputValue());
    const shop = await startShop({ DEMO_SNIPPET_FILE: snippetFile });
    const shopPage = await browser.newPage();
    try {
      shopPage.on('pageerror', (error) => errors.push(`shop: ${error.message}`));
      await shopPage.goto(shop.url);
      await shopPage.getByRole('heading', { name: 'Oat latte' }).waitFor();
      await shopPage.locator('ctk-buy-button').getByRole('button', { name: 'Buy now' }).click();
      const dialog = shopPage.getByRole('dialog', { name: /^Pay / });
      await dialog.getByText('Waiting for payment').waitFor();
      const payUri = (await dialog.getByRole('link', { name: /pay: link/ }).getAttribute('href')) ?? '';
      await wallet(chainPort, join(dir, 'customer.json'), 'pay', payUri);
      await dialog.getByText('Paid. Thank you!').waitFor({ timeout: 30_000 });
      await shopPage.screenshot({ path: join(ARTIFACTS, `${String(++step).padStart(2, '0')}-snippet-on-the-demo-shop-phone.png`) });
    } finally {
      await shopPage.close();
      await stopShop(shop);
    }

    // A member: added as staff with a key shown once, made admin, then removed.
    const add = page.getByRole('form', { name: 'Add a member' });
    await add.getByLabel('Name').fill('Ben Okafor');
    await add.getByRole('button', { name: 'Add the member' }).click();
    const shown = page.getByLabel('The new key');
    await expect.poll(() => shown.isVisible()).toBe(true);
    const benKey = (await shown.textContent())!.trim();
    const role = async () =>
      (await api(instance.base, 'GET', '/api/v1/me', benKey)).body.organizations.find((o: { handle: string }) => o.handle === handle)?.role;
    expect(await role()).toBe('staff');
    await page.getByRole('button', { name: 'Make admin' }).click();
    await expect.poll(role).toBe('admin');
    expect(await pageProblems(page)).toEqual([]);
    await snap('settings-shop');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Remove Ben Okafor' }).click();
    await expect.poll(role).toBeUndefined();
    await page.getByRole('button', { name: 'I have kept it' }).click();

    // The card provider's signing secret, and the webhook URL to give the provider.
    await page.getByLabel('Card payments (Stripe): signing secret').fill('whsec_corner_cafe_0123456789abcdef');
    await page.getByRole('form', { name: 'Card payments (Stripe)' }).getByRole('button', { name: 'Save the secret' }).click();
    const savedSecret = page.getByRole('form', { name: 'Card payments (Stripe)' }).getByRole('status');
    await expect.poll(() => savedSecret.textContent()).toContain(`/api/webhooks/card-provider?org=${handle}`);
    expect(await savedSecret.textContent()).toContain('ends cdef');
    expect(await page.getByText('whsec_corner_cafe_0123456789abcdef').count()).toBe(0);

    // A payment-gate key made here works on the 402 API, until it is revoked here.
    await page.getByLabel("Payment-gate key's name").fill('Weather API');
    await page.getByRole('button', { name: 'Make a payment-gate key' }).click();
    const gateKey = page.getByLabel('The new key');
    await expect.poll(() => gateKey.isVisible()).toBe(true);
    const paygateKey = (await gateKey.textContent())!.trim();
    expect((await api(instance.base, 'GET', '/api/v1/402/resources', paygateKey)).status).toBe(200);
    expect(await pageProblems(page)).toEqual([]);
    await snap('settings-integrations');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke Weather API' }).click();
    await expect.poll(async () => (await api(instance.base, 'GET', '/api/v1/402/resources', paygateKey)).status).toBe(401);
    expect(errors).toEqual([]);
  });

  it("adds an item with its choices, a reduced tax and its stock, orders the menu's sections, and says in words when someone else saved the menu meanwhile, keeping the edit", async () => {
    const me = await api(instance.base, 'GET', '/api/v1/me', ownerKey);
    const handle = me.body.organizations[0].handle as string;
    await page.goto(`${instance.base}/o/${handle}/pos`);
    const form = page.getByRole('region', { name: 'Add an item' });
    await expect.poll(() => form.isVisible()).toBe(true);
    await form.getByLabel('Name').fill('Iced tea');
    await form.getByLabel('Price', { exact: true }).fill('3.50');
    await form.getByRole('combobox', { name: /^Tax/ }).selectOption('reduced');
    await form.getByLabel('Reduced rate (%)').fill('5');
    await form.getByLabel('Stock').fill('40');
    for (const [name, adds, group] of [
      ['Lemon', '', ''],
      ['Large', '0.75', 'Size'],
    ]) {
      await form.getByRole('button', { name: 'Add a choice' }).click();
      const choice = form.getByRole('group', { name: `Choice ${name === 'Lemon' ? 1 : 2}` });
      await choice.getByLabel('Choice', { exact: true }).fill(name!);
      await choice.getByLabel('Adds').fill(adds!);
      await choice.getByLabel('Group').fill(group!);
    }
    await form.getByRole('button', { name: 'Add the item' }).click();
    await expect
      .poll(() => page.getByRole('cell', { name: /Iced tea/ }).textContent())
      .toBe('Iced teaLemon · Size: Large +$0.75 · tax 5% · 40 in stock');
    const items = (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/items?limit=100`, ownerKey)).body.data as {
      id: string;
      name: string;
    }[];
    expect(items.find((item) => item.name === 'Iced tea')).toMatchObject({
      price_cents: 350,
      tax_treatment: 'reduced',
      tax_rate: '0.05',
      price_type: 'fixed',
      inventory: 40,
      modifiers: [
        { name: 'Lemon', price_cents: 0, group: null },
        { name: 'Large', price_cents: 75, group: 'Size' },
      ],
    });
    const idOf = (name: string) => items.find((item) => item.name === name)!.id;

    // The menu: a Drinks section with the espresso and the tea, the tea moved first; then a Food section.
    const menu = page.getByRole('region', { name: 'The menu at the counter' });
    await menu.getByRole('button', { name: 'Add a section' }).click();
    await menu.getByLabel('Section name').fill('Drinks');
    await menu.getByLabel('Add an item to Drinks').selectOption({ label: 'Espresso' });
    await menu.getByLabel('Add an item to Drinks').selectOption({ label: 'Iced tea' });
    await menu.getByRole('button', { name: 'Move Iced tea up' }).click();
    await menu.getByRole('button', { name: 'Add a section' }).click();
    await menu.getByLabel('Section name').nth(1).fill('Food');
    await menu.getByLabel('Add an item to Food').selectOption({ label: 'Croissant' });
    await menu.getByLabel('Tip choices (%)').fill('10, 12.5, 20');
    await menu.getByRole('button', { name: 'Save the menu' }).click();
    await expect.poll(() => menu.getByRole('status').textContent()).toBe('Saved: version 1.');
    const saved = await api(instance.base, 'GET', `/api/v1/orgs/${handle}/menu`, ownerKey);
    expect(saved.body).toMatchObject({
      version: 1,
      sections: [
        { name: 'Drinks', item_ids: [idOf('Iced tea'), idOf('Espresso')] },
        { name: 'Food', item_ids: [idOf('Croissant')] },
      ],
      tip_basis_points: [1000, 1250, 2000],
    });

    // Another member saves the menu (Food first) while this page still edits version 1.
    const theirs = await api(
      instance.base,
      'PUT',
      `/api/v1/orgs/${handle}/menu`,
      ownerKey,
      { sections: [...saved.body.sections].reverse().map(({ name, item_ids }) => ({ name, item_ids })) },
      { 'if-match': '"1"' },
    );
    expect(theirs.status).toBe(200);
    await menu.getByRole('button', { name: 'Move section down' }).first().click();
    await menu.getByLabel('Section name').nth(1).fill('Hot and iced drinks');
    await menu.getByRole('button', { name: 'Save the menu' }).click();
    await expect
      .poll(() => menu.getByRole('alert').first().textContent())
      .toContain('Someone else saved the menu while you were editing it (it is now at version 2)');
    expect(await menu.getByLabel('Section name').nth(1).inputValue()).toBe('Hot and iced drinks');
    // pos's 412 is the one failed request this step expects.
    expect(errors.splice(0)).toEqual(['console: Failed to load resource: the server responded with a status of 412 (Precondition Failed)']);
    expect(await pageProblems(page)).toEqual([]);
    await snap('menu-stale');
    await menu.getByRole('button', { name: 'Save mine over theirs' }).click();
    await expect.poll(() => menu.getByRole('status').textContent()).toBe('Saved: version 3.');
    expect(
      (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/menu`, ownerKey)).body.sections.map((s: { name: string }) => s.name),
    ).toEqual(['Food', 'Hot and iced drinks']);
    expect(errors).toEqual([]);
  });

  it('makes pay links on their page: one pnpm wallet pays (the page counts the use), one for the payer to choose, disabled there', async () => {
    const me = await api(instance.base, 'GET', '/api/v1/me', ownerKey);
    const handle = me.body.organizations[0].handle as string;
    await page.goto(`${instance.base}/o/${handle}/pay-links`);
    await expect.poll(() => page.getByRole('heading', { name: 'Make a link' }).isVisible()).toBe(true);
    await page.getByLabel('What it is for').fill('Invoice 1042');
    await page.getByLabel('Amount').fill('12.50');
    await page.getByLabel('Payments it takes').fill('1');
    await page.getByRole('button', { name: 'Make the link' }).click();
    await expect.poll(() => page.getByRole('heading', { name: /Invoice 1042/ }).isVisible()).toBe(true);
    expect(await page.getByText('$12.50 · paid 0 of 1 times').isVisible()).toBe(true);
    expect(await pageProblems(page)).toEqual([]);

    // The payer's side, as the link's page does it: an order for the link's amount, paid by the wallet.
    const [link] = (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/pay-links`, ownerKey)).body.data as { terms: { id: string } }[];
    const order = await api(instance.base, 'POST', `/api/v1/pay-links/${link!.terms.id}/orders`, undefined, {});
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect(order.body.total_minor).toBe(1250);
    await wallet(chainPort, join(dir, 'customer.json'), 'pay', order.body.pay_uri);
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByText('$12.50 · paid 1 of 1 time').isVisible();
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe(true);

    await page.getByLabel('What it is for').fill('Tips jar');
    await page.getByLabel('At least', { exact: true }).fill('1');
    await page.getByLabel('At most', { exact: true }).fill('20');
    await page.getByRole('button', { name: 'Make the link' }).click();
    await expect.poll(() => page.getByText("$1.00 to $20.00, the payer's choice").isVisible()).toBe(true);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Disable Tips jar' }).click();
    await expect.poll(() => page.getByRole('heading', { name: /Tips jar/ }).textContent()).toContain('disabled');
    await snap('pay-links');
    expect(errors).toEqual([]);
  });

  it('sells a gift card on its page (its number shown once), paid with pnpm wallet, then taken at the counter', async () => {
    const me = await api(instance.base, 'GET', '/api/v1/me', ownerKey);
    const handle = me.body.organizations[0].handle as string;
    await page.goto(`${instance.base}/o/${handle}/prepaid-cards`);
    await page.getByLabel('Value').fill('20.00');
    await page.getByRole('button', { name: 'Issue the card' }).click();
    const shown = page.getByRole('status', { name: 'Card number' });
    await expect.poll(() => shown.isVisible()).toBe(true);
    const identifier = (await shown.textContent()) ?? '';
    expect(identifier).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    expect(await pageProblems(page)).toEqual([]);
    await snap('gift-card-issued');

    // Its order is paid from the customer's page link, as a customer would with their wallet.
    const orderNumber = ((await page.getByRole('link', { name: "the order's page" }).getAttribute('href')) ?? '').replace('/pay/', '');
    const selling = (await api(instance.base, 'GET', `/api/pos/orders/${orderNumber}`)).body as { pay_uri: string; total_minor: number };
    expect(selling.total_minor).toBe(2000);
    const customer = join(dir, 'gift-buyer.json');
    await wallet(chainPort, customer, 'create');
    await wallet(chainPort, customer, 'faucet', '100000000');
    await wallet(chainPort, customer, 'pay', selling.pay_uri);
    await page.getByRole('button', { name: 'I have written it down' }).click();
    const heading = page.getByRole('heading', { name: `Card ending ${identifier.slice(-4)} active` });
    await expect.poll(async () => (await page.reload(), await heading.isVisible()), { timeout: 30_000, interval: 1000 }).toBe(true);
    expect(await page.getByText(`${usd(2000)} left of ${usd(2000)}`).isVisible()).toBe(true);
    expect(await page.getByText(identifier).count()).toBe(0);

    // At the counter: an espresso, the card typed in, the order paid by it.
    await page.getByRole('navigation').getByRole('link', { name: 'Counter' }).click();
    await page.getByRole('button', { name: /Espresso/ }).click();
    await page.getByLabel('Card or address').fill(identifier);
    await page.getByRole('button', { name: 'Look up' }).click();
    await page
      .locator('#card-list li', { hasText: 'Gift card' })
      .filter({ hasText: `Balance ${usd(2000)}` })
      .waitFor();
    await page.getByRole('button', { name: 'Create order' }).click();
    await page.getByRole('button', { name: 'Pay with gift card' }).click();
    await page.locator('#order-status').filter({ hasText: 'Paid by gift card' }).waitFor();
    const sale = (
      await api(instance.base, 'GET', `/api/pos/orders/${((await page.locator('#order-title').textContent()) ?? '').replace('Order ', '')}`)
    ).body as { total_minor: number; card_paid_minor: number };
    expect(sale.card_paid_minor).toBe(sale.total_minor);
    await snap('gift-card-at-counter');

    // Back on the cards page: the balance less the sale, and the spend in its history.
    await page.goto(`${instance.base}/o/${handle}/prepaid-cards`);
    await expect.poll(() => page.getByText(`${usd(2000 - sale.total_minor)} left of ${usd(2000)}`).isVisible()).toBe(true);
    await page.getByText('History').first().click();
    expect(
      await page
        .getByRole('cell', { name: /^Spent, order/ })
        .first()
        .isVisible(),
    ).toBe(true);
    expect(await pageProblems(page)).toEqual([]);
    await snap('gift-card-history');
    expect(errors).toEqual([]);
  });

  it('sets the loyalty program on its page, gives the customer a card there, and the next order paid at the counter stamps it', async () => {
    const me = await api(instance.base, 'GET', '/api/v1/me', ownerKey);
    const handle = me.body.organizations[0].handle as string;
    await page.goto(`${instance.base}/o/${handle}/loyalty`);
    await expect.poll(() => page.getByRole('heading', { name: 'Start a program' }).isVisible()).toBe(true);
    // No program yet is pos's 404, the one failed request this step expects.
    errors.length = 0;
    await page.getByLabel('Stamps for the reward').fill('5');
    await page.getByLabel('The reward', { exact: true }).fill('A free coffee');
    await page.getByLabel('What the reward takes off the order').fill('3.00');
    await page.getByRole('button', { name: 'Save the program' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Saved.');
    expect((await api(instance.base, 'GET', `/api/v1/orgs/${handle}/loyalty-program`, ownerKey)).body).toMatchObject({
      stamp_rule: 'visit',
      stamps_for_reward: 5,
      reward: 'A free coffee',
      reward_value_minor: 300,
      active: true,
    });
    // Read again, the page shows the program as saved.
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: 'Your program' }).isVisible()).toBe(true);
    expect(await page.getByLabel('What the reward takes off the order').inputValue()).toBe('3.00');
    expect(await pageProblems(page)).toEqual([]);
    const map = await api(instance.base, 'GET', `/api/v1/orgs/${handle}/capabilities`, ownerKey);
    const loyalty = (map.body.rungs as { capabilities: { id: string; set_up: boolean | null }[] }[])
      .flatMap((r) => r.capabilities)
      .find((c) => c.id === 'loyalty');
    expect(loyalty?.set_up).toBe(true);

    // The customer who paid at the counter takes a card for their wallet's address; its number is shown once.
    const customer = join(dir, 'customer.json');
    const { address } = (await wallet(chainPort, customer, 'address')) as { address: string };
    await page.getByLabel("The customer's wallet address").fill(address);
    await page.getByRole('button', { name: 'Give the card' }).click();
    const number = page.getByRole('status', { name: 'Loyalty card number' });
    await expect.poll(() => number.isVisible()).toBe(true);
    const identifier = (await number.textContent()) ?? '';
    expect(identifier).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    expect(await pageProblems(page)).toEqual([]);
    await snap('loyalty-card-given');
    await page.getByRole('button', { name: 'The customer has it' }).click();

    // At the counter: an espresso, the customer's address scanned, their card attached; the wallet pays the order.
    await page.getByRole('navigation').getByRole('link', { name: 'Counter' }).click();
    await page.getByRole('button', { name: /Espresso/ }).click();
    await page.getByLabel('Card or address').fill(address);
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.getByRole('button', { name: 'Attach to the order' }).click();
    await page.getByRole('button', { name: 'Create order' }).click();
    await page.locator('#order-status').filter({ hasText: 'Waiting for payment' }).waitFor();
    const orderNumber = ((await page.locator('#order-title').textContent()) ?? '').replace('Order ', '');
    const order = (await api(instance.base, 'GET', `/api/pos/orders/${orderNumber}`)).body as { pay_uri: string };
    await wallet(chainPort, customer, 'pay', order.pay_uri);
    await page.locator('#order-status').filter({ hasText: /^Paid/ }).waitFor({ timeout: 30_000 });

    // Back on the loyalty page, the card looked up by its number has the order's stamp.
    await page.goto(`${instance.base}/o/${handle}/loyalty`);
    await page.getByLabel('Card number').fill(identifier.toLowerCase());
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect
      .poll(() => page.getByRole('status', { name: 'The card' }).textContent())
      .toBe(`Card ending ${identifier.slice(-4)}: 1 of 5 stamps (A free coffee).`);
    expect(await pageProblems(page)).toEqual([]);
    await snap('loyalty-card-stamped');
    expect(errors).toEqual([]);
  });

  it("makes a POS card for the customer's address on its page, which shows the loyalty card the address holds; prices a URL of the paid API on its page, and removes it there", async () => {
    const me = await api(instance.base, 'GET', '/api/v1/me', ownerKey);
    const handle = me.body.organizations[0].handle as string;
    const { address } = (await wallet(chainPort, join(dir, 'customer.json'), 'address')) as { address: string };
    await page.goto(`${instance.base}/o/${handle}/cards-and-wallets`);
    await expect.poll(() => page.getByText('No cards yet.').isVisible()).toBe(true);
    await page.getByLabel("The customer's wallet address").fill(address);
    await page.getByLabel('What you call them').fill('Sam, oat flat white');
    await page.getByRole('button', { name: 'Make the card' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('The card is made: scan the address at the counter.');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Sam, oat flat white' }) });
    await expect.poll(() => card.textContent()).toContain('1 of 5 stamps');
    expect(await card.textContent()).toContain(address);
    // The same address again is the card it has.
    await page.getByLabel("The customer's wallet address").fill(address);
    await page.getByRole('button', { name: 'Make the card' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('That address already has a card here: it is the one below.');
    expect(await page.getByRole('heading', { name: 'Sam, oat flat white' }).count()).toBe(1);
    expect(await pageProblems(page)).toEqual([]);
    await snap('pos-cards');

    // The payment-gate account the settings' key made: a URL priced on the page is the gate's.
    await page.goto(`${instance.base}/o/${handle}/paygate-402`);
    await expect.poll(() => page.getByText('No priced URLs yet.').isVisible()).toBe(true);
    await page.getByLabel('Path').fill('/weather/*');
    await page.getByLabel('Price in satoshis').fill('50');
    await page.getByLabel('Calls', { exact: true }).fill('10');
    await page.getByLabel('Description').fill('Ten forecasts');
    await page.getByRole('button', { name: 'Put the price on' }).click();
    await expect.poll(() => page.getByText('50 satoshis for 10 calls · Ten forecasts').isVisible()).toBe(true);
    const priced = await api(instance.base, 'GET', `/api/v1/orgs/${handle}/402/resources`, ownerKey);
    expect(priced.body.data).toEqual([
      expect.objectContaining({ method: 'GET', path: '/weather/*', price_satoshis: 50, grant: { kind: 'calls', calls: 10 } }),
    ]);
    expect(await page.getByText('No payments yet.').isVisible()).toBe(true);
    expect(await pageProblems(page)).toEqual([]);
    await snap('paid-api');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Remove GET /weather/*' }).click();
    await expect.poll(() => page.getByText('No priced URLs yet.').isVisible()).toBe(true);
    expect((await api(instance.base, 'GET', `/api/v1/orgs/${handle}/402/resources`, ownerKey)).body.data).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('sells tickets from the Commerce API page: an event added there, a ticket bought with the commerce key and paid with pnpm wallet, checked in there once', async () => {
    const me = await api(instance.base, 'GET', '/api/v1/me', ownerKey);
    const handle = me.body.organizations[0].handle as string;
    await page.goto(`${instance.base}/o/${handle}/commerce-api`);
    await expect.poll(() => page.getByRole('heading', { name: 'Add an event' }).isVisible()).toBe(true);
    await page.getByRole('textbox', { name: /^Event/ }).fill('Jazz night');
    await page.getByLabel('Starts').fill('2027-06-12T19:00');
    await page.getByLabel('Ends').fill('2027-06-12T23:00');
    await page.getByLabel('Venue').fill('The back room');
    await page.getByLabel('Ticket type').fill('Standing');
    await page.getByLabel('Price').fill('2.50');
    await page.getByLabel('Tickets for sale').fill('80');
    await page.getByRole('button', { name: 'Add the event' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Jazz night' }).isVisible()).toBe(true);
    expect(await page.getByRole('row', { name: /Standing/ }).textContent()).toContain('80 of 80');

    // The buyer's browser on the merchant's site, with the commerce key: two tickets, paid by the wallet.
    const catalog = await api(instance.base, 'GET', `/api/v1/orgs/${handle}/tickets/catalog`, ownerKey);
    const standing = catalog.body.events[0].ticket_types[0].id as string;
    const commerceKey = (await api(instance.base, 'POST', `/api/v1/orgs/${handle}/commerce-key`, ownerKey)).body.commerce_public_key;
    const checkout = await fetch(`${instance.base}/api/v1/commerce/${handle}/tickets/checkout`, {
      method: 'POST',
      headers: { 'x-commerce-key': commerceKey, 'content-type': 'application/json' },
      body: JSON.stringify({ lines: [{ ticket_type_id: standing, quantity: 2 }] }),
    }).then(async (response) => ({ status: response.status, body: await response.json() }));
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(201);
    const buyer = join(dir, 'ticket-buyer.json');
    await wallet(chainPort, buyer, 'create');
    await wallet(chainPort, buyer, 'faucet', '100000000');
    await wallet(chainPort, buyer, 'pay', checkout.body.pay_uri);
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByText('not checked in').count();
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe(2);
    expect(await page.getByRole('row', { name: /Standing/ }).textContent()).toContain('78 of 80');

    // At the door: the code as typed (any case), once.
    const orders = await api(instance.base, 'GET', `/api/v1/orgs/${handle}/tickets/orders`, ownerKey);
    const code = orders.body.data[0].tickets[0].code as string;
    await page.getByLabel('Ticket code').fill(code.toLowerCase());
    await page.getByRole('button', { name: 'Check in' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Checked in: Standing, Jazz night.');
    await expect.poll(() => page.getByText('not checked in').count()).toBe(1);
    await page.getByLabel('Ticket code').fill(code);
    await page.getByRole('button', { name: 'Check in' }).click();
    await expect.poll(() => page.locator('#check-in').getByRole('alert').textContent()).toMatch(/^This ticket was checked in at /);
    expect(await pageProblems(page)).toEqual([]);
    await snap('tickets');
    // The second check-in's 409 is the failed request this step expects.
    errors.length = 0;
  });

  it('has a page for every capability of the descriptor, each clear at phone size: what it is, how far this shop is, what to do next', async () => {
    const me = await api(instance.base, 'GET', '/api/v1/me', ownerKey);
    const handle = me.body.organizations[0].handle as string;
    const descriptor = await api(instance.base, 'GET', '/api/v1/capabilities');
    const capabilities = (descriptor.body.rungs as { capabilities: { id: string; title: string; path: string }[] }[]).flatMap(
      (r) => r.capabilities,
    );
    expect(capabilities.length).toBe(24);
    for (const capability of capabilities) {
      expect(capability.path, capability.id).toMatch(/^\/o\/:handle\//);
      await page.goto(`${instance.base}${capability.path.replace(':handle', handle)}`);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain(capability.title);
      // The items, pay links, cards, loyalty, the ledger, the reports, the Commerce API, the payment gate, the open sign, the federated marketplace, the site builder, stable value, tokens, escrow, time-locked refunds, referral links and partially signed transactions are pages of their own; the others say what the map says of them.
      const ownPages = [
        'pos',
        'pay_links',
        'prepaid_cards',
        'cards_and_wallets',
        'loyalty',
        'ledger',
        'reports',
        'commerce_api',
        'paygate_402',
        'open_sign',
        'federated_marketplace',
        'site_builder',
        'stable_value',
        'tokens',
        'escrow',
        'timelocked_refund',
        'referral_covenant',
        'psbt',
      ];
      if (!ownPages.includes(capability.id))
        expect(await page.getByRole('heading', { name: 'What it does for you' }).isVisible()).toBe(true);
      expect(await pageProblems(page), capability.id).toEqual([]);
    }
    // The shop chose a paymail alias in the form: that capability is set up.
    await page.goto(`${instance.base}/o/${handle}/paymail`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('Set up');
    await snap('capability-paymail');
    // The keypair identity waits for a member who signs in with a key of their own.
    const identity = (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/capabilities`, ownerKey)).body.rungs
      .flatMap((r: { capabilities: { id: string; set_up: boolean | null; next_step: string | null }[] }) => r.capabilities)
      .find((c: { id: string }) => c.id === 'keypair_identity');
    await page.goto(`${instance.base}/o/${handle}/keypair-identity`);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toContain(identity.set_up ? 'Set up' : identity.set_up === false ? 'To set up' : 'Ready to use');
    if (identity.next_step) expect(await page.getByText(identity.next_step).isVisible()).toBe(true);
    await snap('capability-identity');
    expect(errors).toEqual([]);
  });

  it("never shows another organisation's pages to a member of one", async () => {
    const other = await api(instance.base, 'POST', '/api/v1/onboard', undefined, { name: 'Rival Bakery', paymail_alias: 'rival' });
    expect(other.status).toBe(201);
    const rival = other.body.organization.handle as string;
    await page.goto(`${instance.base}/o/${rival}/paymail`);
    await expect.poll(() => page.getByRole('heading', { name: 'Not available' }).isVisible()).toBe(true);
    expect(await page.getByText('Rival Bakery').count()).toBe(0);
    expect(await page.getByText(/rival@/).count()).toBe(0);
    // The dashboard lists only the member's own shop.
    await page.goto(`${instance.base}/`);
    await expect.poll(() => page.getByRole('heading', { name: 'Corner Cafe' }).isVisible()).toBe(true);
    expect(await page.getByText('Rival Bakery').count()).toBe(0);
    // The refusal's 403 or 404 is the failed request this step expects.
    errors.length = 0;
  });

  it('reads as well on a desktop screen', async () => {
    await page.setViewportSize(DESKTOP);
    for (const [path, name] of [
      ['/', 'dashboard'],
      ['/settings', 'settings'],
    ] as const) {
      await page.goto(`${instance.base}${path}`);
      await page.waitForLoadState('networkidle');
      expect(await pageProblems(page)).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, `${name}-desktop.png`), fullPage: true });
    }
    expect(errors).toEqual([]);
  });
});
