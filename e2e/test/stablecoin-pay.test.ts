import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HD } from '@bsv/sdk';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, openChromium } from './browser.js';
import { api, freePort, ROOT, startInstance, stopInstance, wallet, type Instance } from './instance.js';
import { pageProblems } from './page-checks.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** Screenshots of each step at phone size, kept after the run (git ignores the folder). */
const ARTIFACTS = join(ROOT, 'e2e/artifacts/stablecoin-pay');
const PHONE = { width: 390, height: 844 };

const hasChromium = chromiumInstalled('stablecoin-pay.test.ts');

/**
 * Orders paid in the local chain's dollar stablecoin (USDX, 5 decimals) from the pages a person uses: at the
 * counter, in the Buy button's dialog and from the back office's Stable value page. The customer pays with
 * the developer wallet (`pnpm wallet send-token`), and then tells the shop the txid as a wallet that cannot call
 * the API would: through settle, or the page's "Paid already? Paste the transaction id".
 */
describe.skipIf(!hasChromium)('paying in the stablecoin, in headless Chromium at phone size', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-stablecoin-'));
  let instance: Instance;
  let browser: BrowserContext;
  let chainPort = 0;
  let shop: { key: string; handle: string };
  const customerWallet = () => join(dir, 'customer.json');
  let step = 0;
  const shot = async (page: Page, name: string) => {
    step += 1;
    await page.screenshot({ path: join(ARTIFACTS, `${String(step).padStart(2, '0')}-${name}.png`), fullPage: true });
  };

  /** Script errors and console errors of a page (a CSP violation, a failed module, a refused request). */
  const watch = (page: Page, label: string, allowed: RegExp[] = []) => {
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`${label}: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && !allowed.some((pattern) => pattern.test(message.text())))
        problems.push(`${label}: ${message.text()}`);
    });
    return problems;
  };

  /** The customer sends `units` of the stablecoin to `address` with the developer wallet; the txid. */
  const sendStablecoin = async (address: string, units: string) => {
    const sent = await wallet(chainPort, customerWallet(), 'send-token', '--token', 'stablecoin', '--to', address, '--amount', units);
    expect(sent.txid).toMatch(/^[0-9a-f]{64}$/);
    return sent.txid as string;
  };

  beforeAll(async () => {
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    chainPort = await freePort();
    instance = await startInstance({ port: await freePort(), dataDir: join(dir, 'data'), chainPort });
    // Each intent is paid to a fresh child of the shop's xpub.
    const xpub = HD.fromRandom().derive("m/44'/236'/0'").toPublic().toString();
    const onboarded = await api(instance.base, 'POST', '/api/v1/onboard', undefined, { name: 'Harbor Books', wallet_xpub: xpub });
    expect(onboarded.status, JSON.stringify(onboarded.body)).toBe(201);
    shop = { key: onboarded.body.api_key.key, handle: onboarded.body.organization.handle };
    // The customer: coins for fees, and $100 of USDX from the local chain's stablecoin faucet.
    await wallet(chainPort, customerWallet(), 'create');
    await wallet(chainPort, customerWallet(), 'faucet', '1000000');
    await wallet(chainPort, customerWallet(), 'stablecoin-faucet', '10000000');
    browser = await openChromium(dir, PHONE);
  });

  afterAll(async () => {
    await browser?.close();
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  it('at the counter: staff open the order in USDX, the customer sees what to send, pays, and both pages show it paid', async () => {
    const counter = await browser.newPage();
    const problems = watch(counter, 'counter');
    await counter.goto(`${instance.base}/pos`);
    await counter.getByLabel('API key').fill(shop.key);
    await counter.getByLabel('API key').press('Enter');
    // A keypad sale of $12.50.
    await counter.getByText('Custom amount (keypad)').click();
    await counter.getByLabel('Name', { exact: true }).fill('Gift wrapping');
    await counter.getByLabel('Amount', { exact: true }).fill('12.50');
    await counter.getByRole('button', { name: 'Add amount' }).click();
    await expect.poll(() => counter.locator('#sum-total').textContent()).toBe('$12.50');
    await counter.getByRole('button', { name: 'Create order' }).click();
    await counter.locator('#order-status').filter({ hasText: 'Waiting for payment' }).waitFor();
    const orderNumber = ((await counter.locator('#order-title').textContent()) ?? '').replace('Order ', '');

    // Staff press "Pay in stablecoin": the order's intent, opened with the staff's key.
    const opened = counter.waitForResponse((response) => response.url().endsWith('/api/v1/stablecoin/intents'));
    await counter.getByRole('button', { name: 'Pay in stablecoin' }).click();
    expect((await opened).status()).toBe(201);
    const panel = counter.getByRole('region', { name: 'Pay in USDX' });
    await panel.waitFor();
    await expect(panel.locator('.big').textContent()).resolves.toBe('12.50 USDX');
    await panel.getByRole('status').filter({ hasText: 'Waiting for the USDX transfer' }).waitFor();
    const address = ((await panel.locator('#usdx-address').textContent()) ?? '').trim();
    const qr = panel.getByRole('img', { name: 'QR code of the address to send 12.50 USDX to' });
    await qr.evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0) || new Promise((done) => (img.onload = done)));
    expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await expect(panel.getByText(/^Pay by /).textContent()).resolves.toMatch(/^Pay by \d/);
    // The bitcoin QR makes room for it; staff can go back to it.
    expect(await counter.locator('#order-qr').isVisible()).toBe(false);
    await counter.getByRole('button', { name: 'Pay in bitcoin' }).waitFor();
    const intent = (
      await api(instance.base, 'POST', '/api/v1/stablecoin/intents', shop.key, { org_handle: shop.handle, order_number: orderNumber })
    ).body;
    expect(intent).toMatchObject({ status: 'requires_payment', order_number: orderNumber, amount_cents: 1250 });
    expect(intent.payment).toMatchObject({ symbol: 'USDX', decimals: 5, token_amount: '1250000', address });
    expect(await pageProblems(counter)).toEqual([]);
    await shot(counter, 'counter-usdx');

    // The customer page the counter links to shows the same intent.
    const customer = await browser.newPage();
    const customerProblems = watch(customer, 'customer');
    const link = (await counter.getByRole('link', { name: 'Customer page' }).getAttribute('href')) ?? '';
    expect(link).toBe(`/pay/${orderNumber}#${intent.id}`);
    await customer.goto(`${instance.base}${link}`);
    const customerPanel = customer.getByRole('region', { name: 'Pay in USDX' });
    await customerPanel.getByRole('status').filter({ hasText: 'Waiting for the USDX transfer' }).waitFor();
    await expect(customerPanel.locator('#usdx-address').textContent()).resolves.toBe(address);
    expect(await customer.locator('#qr').isVisible()).toBe(false);
    expect(await pageProblems(customer)).toEqual([]);
    await shot(customer, 'customer-usdx');

    // The customer's wallet sends the tokens, then tells the shop the txid (its wallet calls settle).
    const txid = await sendStablecoin(address, intent.payment.token_amount);
    const settled = await api(instance.base, 'POST', `/api/v1/stablecoin/intents/${intent.id}/settle`, undefined, { txid });
    expect(settled.status, JSON.stringify(settled.body)).toBe(200);
    expect(settled.body.status).toBe('succeeded');

    await counter.locator('#order-status').filter({ hasText: 'Paid in stablecoin' }).waitFor({ timeout: 30_000 });
    await panel.getByRole('status').filter({ hasText: 'Paid in USDX' }).waitFor({ timeout: 30_000 });
    await customerPanel.getByRole('status').filter({ hasText: 'Paid in USDX' }).waitFor({ timeout: 30_000 });
    await customer.locator('#status').filter({ hasText: 'Paid in stablecoin. Thank you!' }).waitFor({ timeout: 30_000 });
    const order = (await api(instance.base, 'GET', `/api/pos/orders/${orderNumber}`)).body;
    expect(order).toMatchObject({ status: 'paid_elsewhere', paid_elsewhere_by: 'stablecoin' });
    expect(await pageProblems(counter)).toEqual([]);
    expect(await pageProblems(customer)).toEqual([]);
    await shot(counter, 'counter-paid');
    await shot(customer, 'customer-paid');

    // The receipt names the stablecoin and the transfer.
    await counter.getByRole('button', { name: 'Receipt' }).click();
    const receipt = (await counter.locator('#receipt-text').textContent()) ?? '';
    expect(receipt).toMatch(/Paid in USDX\s+12\.50 USDX/);
    expect(receipt.replace(/\s/g, '')).toContain(txid);
    await shot(counter, 'counter-receipt');
    expect([...problems, ...customerProblems]).toEqual([]);
    await customer.close();
    await counter.close();
  });
});
