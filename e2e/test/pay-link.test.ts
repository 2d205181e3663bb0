import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HD } from '@bsv/sdk';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, openChromium } from './browser.js';
import { api, freePort, ROOT, startInstance, stopInstance, wallet, type Instance } from './instance.js';

const ARTIFACTS = join(ROOT, 'e2e/artifacts/pay-link');

const hasChromium = chromiumInstalled('pay-link.test.ts');

describe.skipIf(!hasChromium)('a pay link in headless Chromium, paid with the developer wallet', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-pay-link-'));
  let instance: Instance | undefined;
  let browser: BrowserContext | undefined;
  afterAll(async () => {
    await browser?.close();
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  it('the payer opens /l/<id>, chooses an amount within the bounds, lands on the order page and pays it; the link counts the use', async () => {
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

    const chainPort = await freePort();
    instance = await startInstance({ port: await freePort(), dataDir: join(dir, 'data'), chainPort });
    const base = instance.base;
    const xpub = HD.fromRandom().derive("m/44'/236'/0'").toPublic().toString();
    const onboarded = await api(base, 'POST', '/api/v1/onboard', undefined, { name: 'Blue Bottle Cafe', wallet_xpub: xpub });
    expect(onboarded.status).toBe(201);
    const key = onboarded.body.api_key.key as string;
    const handle = onboarded.body.organization.handle as string;
    const made = await api(base, 'POST', `/api/v1/orgs/${handle}/pay-links`, key, {
      currency: 'USD',
      min_minor: 100,
      max_minor: 5_000,
      memo: 'Tip jar',
      max_uses: 1,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const link = made.body;

    browser = await openChromium(dir, { width: 375, height: 740 });
    const problems: string[] = [];
    const page = browser.pages()[0] ?? (await browser.newPage());
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });

    await page.goto(link.page_url.replace(/^https?:\/\/[^/]+/, base));
    await page.getByRole('heading', { name: 'Tip jar' }).waitFor();
    await expect(page.locator('#bounds').textContent()).resolves.toBe('$1.00 to $50.00');
    await shot(page, 'link');
    // Outside the bounds, the page says so and opens nothing.
    await page.getByLabel(/Amount/).fill('75');
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect(page.locator('#chosen-error').textContent()).resolves.toContain('$1.00 to $50.00');
    await page.getByLabel(/Amount/).fill('4.50');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/pay\/[0-9A-Z]{10}$/);
    const orderNumber = page.url().split('/').at(-1)!;
    await page.locator('#status').filter({ hasText: 'Waiting for payment' }).waitFor();
    await shot(page, 'order');
    const order = (await api(base, 'GET', `/api/pos/orders/${orderNumber}`)).body;
    expect(order).toMatchObject({ total_minor: 450, lines: [{ name: 'Tip jar' }] });

    const payer = join(dir, 'payer.json');
    await wallet(chainPort, payer, 'create');
    await wallet(chainPort, payer, 'faucet', String(Number(order.satoshis) + 100_000));
    const paid = await wallet(chainPort, payer, 'pay', order.pay_uri);
    expect(paid.txid).toMatch(/^[0-9a-f]{64}$/);
    await page.locator('#status').filter({ hasText: /Paid/ }).waitFor({ timeout: 30_000 });
    await shot(page, 'paid');

    const listed = await api(base, 'GET', `/api/v1/orgs/${handle}/pay-links`, key);
    expect(listed.body.data[0]).toMatchObject({ status: 'used_up', uses_paid: 1, uses_held: 0 });
    await page.goto(link.page_url.replace(/^https?:\/\/[^/]+/, base));
    await page.locator('#closed').filter({ hasText: 'paid as many times' }).waitFor();
    expect(problems).toEqual([]);
  }, 180_000);
});
