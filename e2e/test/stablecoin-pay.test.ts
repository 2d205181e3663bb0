import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HD } from '@bsv/sdk';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, openChromium } from './browser.js';
import { startShop, stopShop, type Shop } from './demo-shop.js';
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
  let demoShop: Shop | undefined;
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
    await stopShop(demoShop);
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  it('at the counter: staff open the order in USDX, the customer sees what to send, pays, and both pages show it paid', async () => {
    const counter = await browser.newPage();
    const problems = watch(counter, 'counter');
    await counter.goto(`${instance.base}/pos`);
    await counter.getByLabel('API key').fill(shop.key);
    await counter.getByLabel('API key').press('Enter');
    // A keypad sale of $12.50, once the menu is drawn above the keypad (opened before, it may move from under the click).
    await counter.getByRole('group', { name: 'Categories' }).getByRole('button', { name: 'All' }).waitFor();
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

  it("in the Buy button's dialog: the customer chooses the stablecoin, pastes a transfer of too little and is told so, then the right one, and the shop hears it paid", async () => {
    const notebook = await api(instance.base, 'POST', `/api/v1/orgs/${shop.handle}/items`, shop.key, {
      name: 'Field notebook',
      price_cents: 900,
      category: 'stationery',
    });
    expect(notebook.status, JSON.stringify(notebook.body)).toBe(201);
    const commerceKey = await api(instance.base, 'POST', `/api/v1/orgs/${shop.handle}/commerce-key`, shop.key);
    expect(commerceKey.status).toBe(201);
    demoShop = await startShop({
      CTK_GATEWAY: instance.base,
      DEMO_MERCHANT: shop.handle,
      DEMO_COMMERCE_KEY: commerceKey.body.commerce_public_key,
    });

    const page = await browser.newPage();
    // Settle's refusal of the short transfer is a 422 the browser reports as a failed resource; the dialog says it in words.
    const problems = watch(page, 'shop', [/status of 422/]);
    await page.goto(demoShop.url);
    await page.locator('ctk-buy-button').getByRole('button', { name: 'Buy now' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pay Harbor Books' });
    await dialog.getByText('Waiting for payment').waitFor();
    await dialog.getByRole('button', { name: 'Pay in stablecoin' }).click();
    const usdx = dialog.getByRole('region', { name: 'Pay in USDX' });
    await usdx.waitFor();
    await expect(usdx.locator('#tokens').textContent()).resolves.toBe('9.00 USDX');
    await dialog.getByRole('status').filter({ hasText: 'Waiting for payment: send 9.00 USDX to the address.' }).waitFor();
    const address = ((await usdx.locator('#address').textContent()) ?? '').trim();
    const qr = usdx.getByRole('img', { name: 'QR code of the address to send 9.00 USDX to' });
    await qr.evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0) || new Promise((done) => (img.onload = done)));
    expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    expect(await dialog.getByRole('img', { name: /QR code to pay/ }).isVisible()).toBe(false);
    expect(await pageProblems(page)).toEqual([]);
    await shot(page, 'buy-button-usdx');

    // A wallet sends $8.00 of USDX by mistake: the pasted txid is refused in words, and nothing is paid.
    const short = await sendStablecoin(address, '800000');
    await usdx.getByLabel('Paid already? Paste the transaction id').fill(short);
    await usdx.getByRole('button', { name: 'Check payment' }).click();
    await expect(usdx.getByRole('alert').textContent()).resolves.toBe(
      "That transfer sent less than 9.00 USDX to this payment's address. Send the whole amount in one transfer.",
    );
    expect(await pageProblems(page)).toEqual([]);
    await shot(page, 'buy-button-underpaid');

    // Then the whole amount: the dialog turns paid as it does for bitcoin, and the host page hears it.
    const txid = await sendStablecoin(address, '900000');
    await usdx.getByLabel('Paid already? Paste the transaction id').fill(txid);
    await usdx.getByRole('button', { name: 'Check payment' }).click();
    await dialog.getByText('Paid. Thank you!').waitFor({ timeout: 30_000 });
    const heard = page.locator('#events li[data-type="checkout.paid"]');
    await heard.waitFor();
    const detail = JSON.parse((await heard.getAttribute('data-detail')) ?? '{}');
    expect(detail).toMatchObject({
      status: 'paid',
      total_minor: 900,
      paid_satoshis: 0,
      stablecoin_payment_id: expect.stringMatching(/^spi_/),
    });
    await expect(dialog.getByText(`Order ${detail.order_number}:`).textContent()).resolves.toBe(
      `Order ${detail.order_number}: $9.00 (9.00 USDX) received.`,
    );
    const intent = (await api(instance.base, 'GET', `/api/v1/stablecoin/intents/${detail.stablecoin_payment_id}`)).body;
    expect(intent).toMatchObject({ status: 'succeeded', checkout: detail.public_token, transfers: [{ txid, outcome: 'accepted' }] });
    expect(await pageProblems(page)).toEqual([]);
    await shot(page, 'buy-button-paid');
    expect(problems).toEqual([]);
    await page.close();
  });

  it("on the back office's Stable value page: the owner requests $4.75 for a deposit, shows the customer the QR, and sees it paid", async () => {
    const page = await browser.newPage();
    const problems = watch(page, 'back office');
    await page.goto(`${instance.base}/`);
    await page.getByText('Use an API key instead').click();
    await page.getByLabel('API key').fill(shop.key);
    await page.getByRole('button', { name: 'Sign in with the API key' }).click();
    await page.getByRole('heading', { name: 'Harbor Books' }).waitFor();
    await page.goto(`${instance.base}/o/${shop.handle}/stable-value`);
    await page.getByRole('heading', { level: 1, name: 'Stable value' }).waitFor();
    await page.getByRole('heading', { name: 'What it does for you' }).waitFor();
    await page.getByText('Its symbol, token id, decimals and cosigner show here with the first payment you request').waitFor();
    expect(await pageProblems(page)).toEqual([]);
    await shot(page, 'back-office-stable-value');

    // An amount the page cannot read is refused there, in words.
    await page.getByLabel('Amount in US dollars').fill('4.755');
    await page.getByRole('button', { name: 'Request the payment' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'is not an amount' }).textContent()).resolves.toBe(
      '"4.755" is not an amount: write it as 4.50.',
    );
    await page.getByLabel('Amount in US dollars').fill('4.75');
    await page.getByLabel('What it is for').fill('Book club deposit');
    await page.getByRole('button', { name: 'Request the payment' }).click();
    const payment = page.getByRole('region', { name: 'Pay in USDX' });
    await payment.getByRole('status').filter({ hasText: 'Waiting for the USDX transfer' }).waitFor();
    await expect(payment.locator('.amount').textContent()).resolves.toBe('4.75 USDX');
    await payment.getByText('$4.75 in USDX · Book club deposit · order').waitFor();
    const qr = payment.getByRole('img', { name: 'QR code of the address to send 4.75 USDX to' });
    await qr.evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0) || new Promise((done) => (img.onload = done)));
    expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    const address = ((await payment.locator('code').first().textContent()) ?? '').trim();
    // The stablecoin's facts, as the payment names them.
    const facts = page.getByRole('region', { name: 'The stablecoin' });
    await facts.getByText('USDX', { exact: true }).waitFor();
    await facts.getByText('5: 100,000 units are one dollar').waitFor();
    const chain = await fetch(`http://127.0.0.1:${chainPort}/v1/bsv/local/stablecoin`).then((response) => response.json() as Promise<Json>);
    expect(chain).toMatchObject({ symbol: 'USDX', decimals: 5, token_id: expect.stringMatching(/^[0-9a-f]{64}_\d+$/) });
    await facts.getByText(chain.token_id).waitFor();
    await facts.getByText(chain.cosigner_public_key).waitFor();
    expect(await pageProblems(page)).toEqual([]);
    await shot(page, 'back-office-requested');

    // The customer pays it; the owner pastes the txid the customer shows, and the page turns paid.
    const txid = await sendStablecoin(address, '475000');
    await payment.getByLabel('Paid already? Paste the transaction id').fill(txid);
    await payment.getByRole('button', { name: 'Check payment' }).click();
    await payment.getByRole('status').filter({ hasText: 'Paid in USDX' }).waitFor({ timeout: 30_000 });
    await payment.getByText(txid).waitFor();
    expect(await payment.getByRole('img').count()).toBe(0);
    const orderNumber = /order (\w+)$/.exec((await payment.getByText(/· order \w+$/).textContent()) ?? '')?.[1];
    const order = await api(instance.base, 'GET', `/api/pos/orders/${orderNumber}`);
    expect(order.body).toMatchObject({ status: 'paid_elsewhere', paid_elsewhere_by: 'stablecoin', total_minor: 475 });
    expect(await pageProblems(page)).toEqual([]);
    await shot(page, 'back-office-paid');
    expect(problems).toEqual([]);
    await page.close();
  });
});
