import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, openChromium } from './browser.js';
import { api, freePort, ROOT, startInstance, stopInstance, until, wallet, type Instance } from './instance.js';
import { pageProblems } from './page-checks.js';

/** Screenshots of each step at phone size, kept after the run (git ignores the folder). */
const ARTIFACTS = join(ROOT, 'e2e/artifacts/referral-buyer');
const PHONE = { width: 390, height: 844 };
/** Satoshis a cent: the instance's fixed rate, set here so the amounts are known (a BSV price of $50). */
const SATOSHIS_PER_CENT = 20_000;
/** How long a checkout may be paid: short, so that one left unpaid expires within the test. */
const TTL_SECONDS = 60;

type WalletInfo = { address: string; public_key: string; xpub: string };

const hasChromium = chromiumInstalled('referral-buyer-page.test.ts');

/** Satoshis as BSV, as the page writes them: 8000123 is "0.08000123 BSV". */
function bsv(satoshis: number): string {
  const fraction = String(satoshis % 100_000_000)
    .padStart(8, '0')
    .replace(/0+$/, '');
  return `${Math.floor(satoshis / 100_000_000)}${fraction ? `.${fraction}` : ''} BSV`;
}
const grouped = (satoshis: number) => new Intl.NumberFormat('en-US').format(satoshis);

/**
 * The buyer's page of a referral link (decision 0040), as a customer uses it on a phone: a blog, Coffee Weekly,
 * shares the shop's link to its cold brew; the buyer opens it, sees the item, its price, who recommended it and
 * their share, and presses Buy. The page shows what to pay (in dollars, and in satoshis with the network fee), the
 * QR and the wallet link; a reload shows the same checkout rather than opening another order. The buyer's wallet
 * pays the payment link the page copied: the page says it is paid with the order number, and the referrer's wallet
 * holds its commission. A checkout left unpaid says it expired and starts again; a link the shop disabled says so and
 * has no Buy (also when it is disabled while the page is open), while a checkout it opened before still shows what to
 * pay; a link that does not exist says so in words.
 */
describe.skipIf(!hasChromium)('the buyer’s page of a referral link, in headless Chromium at phone size', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-referral-buyer-'));
  const merchantWallet = join(dir, 'merchant.json');
  const referrerWallet = join(dir, 'referrer.json');
  const buyerWallet = join(dir, 'buyer.json');
  let instance: Instance;
  let browser: BrowserContext;
  let page: Page;
  let chainPort = 0;
  let handle = '';
  let ownerKey = '';
  let referrer: WalletInfo;
  /** The referral link Coffee Weekly shares (the API's answer). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let link: Record<string, any>;
  const problems: string[] = [];
  /** Failed loads the test asks for (a link that is not there): the page says them in words. */
  let expectedStatus: RegExp | null = null;
  let step = 0;
  const shot = async (name: string) => {
    step += 1;
    await page.screenshot({ path: join(ARTIFACTS, `${String(step).padStart(2, '0')}-${name}.png`), fullPage: true });
  };

  beforeAll(async () => {
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    chainPort = await freePort();
    instance = await startInstance({
      port: await freePort(),
      dataDir: join(dir, 'data'),
      chainPort,
      env: { POS_PRICE_SOURCE: 'fixed', POS_FIXED_RATES: `USD=${SATOSHIS_PER_CENT}`, POS_ORDER_TTL_SECONDS: String(TTL_SECONDS) },
    });
    const merchant = (await wallet(chainPort, merchantWallet, 'create')) as WalletInfo;
    referrer = (await wallet(chainPort, referrerWallet, 'create')) as WalletInfo;
    await wallet(chainPort, buyerWallet, 'create');
    const onboarded = await api(instance.base, 'POST', '/api/v1/onboard', undefined, { name: 'Harbour Coffee' });
    expect(onboarded.status, JSON.stringify(onboarded.body)).toBe(201);
    ownerKey = onboarded.body.api_key.key;
    handle = onboarded.body.organization.handle;
    // The shop's wallet: its xpub for the addresses it is paid at, its identity key.
    const registered = await api(instance.base, 'PATCH', `/api/v1/organizations/${handle}`, ownerKey, {
      wallet_xpub: merchant.xpub,
      identity_public_key: merchant.public_key,
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    const item = await api(instance.base, 'POST', `/api/v1/orgs/${handle}/items`, ownerKey, {
      name: 'Cold brew',
      price_cents: 400,
      currency: 'USD',
    });
    expect(item.status, JSON.stringify(item.body)).toBe(201);
    const made = await api(instance.base, 'POST', `/api/v1/orgs/${handle}/referral-links`, ownerKey, {
      item_id: item.body.id,
      referrer_name: 'Coffee Weekly',
      referrer_address: referrer.address,
      commission_basis_points: 1000,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    link = made.body;
    expect(link.url).toBe(`${instance.base}/r/${link.id}`);
    browser = await openChromium(dir, PHONE);
    await browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: instance.base });
    page = await browser.newPage();
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && !(expectedStatus && expectedStatus.test(message.text()))) problems.push(message.text());
    });
  });

  afterAll(async () => {
    await browser?.close();
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the item and who recommended it; Buy opens one checkout, kept on reload; paid from a wallet, it says so and the referrer is paid', async () => {
    // The link as the buyer opens it: the shop, the item and its price, who recommended it and their share.
    await page.goto(link.url);
    await page.getByRole('heading', { level: 1, name: 'Cold brew' }).waitFor();
    await page.getByText(handle, { exact: true }).waitFor();
    await page.getByText('$4.00', { exact: true }).waitFor();
    await page.getByText('Recommended by Coffee Weekly', { exact: true }).waitFor();
    await page
      .getByText(
        'Coffee Weekly receives 10% of the sale, paid by the same transaction: your payment goes into a script on the BSV chain that can only pay the shop and Coffee Weekly.',
      )
      .waitFor();
    expect(await page.title()).toBe(`Cold brew from ${handle}`);
    expect(await pageProblems(page)).toEqual([]);
    await shot('link');

    // Buy: the checkout, its amount in dollars and in satoshis with the fee, the QR and the wallet link.
    await page.getByRole('button', { name: 'Buy' }).click();
    await page.getByRole('status').filter({ hasText: 'Waiting for your payment' }).waitFor();
    await page.waitForURL(/\?checkout=rco_[A-Za-z0-9_-]{24}$/);
    const checkoutId = new URL(page.url()).searchParams.get('checkout')!;
    const checkout = (await api(instance.base, 'GET', `/api/v1/referral-checkouts/${checkoutId}`)).body;
    expect(checkout).toMatchObject({
      status: 'awaiting_payment',
      referral_link_id: link.id,
      total_minor: 400,
      commission_minor: 40,
      satoshis: 400 * SATOSHIS_PER_CENT,
      commission_satoshis: 40 * SATOSHIS_PER_CENT,
    });
    expect(checkout.funding_satoshis).toBe(checkout.satoshis + checkout.fee_satoshis);
    await page.getByRole('heading', { level: 2, name: 'Pay from your BSV wallet' }).waitFor();
    await page.getByText(`Order ${checkout.order_number}`, { exact: true }).waitFor();
    await page.getByText('Total $4.00', { exact: true }).waitFor();
    await page
      .getByText(
        `Your wallet pays ${grouped(checkout.funding_satoshis)} sat (${bsv(checkout.funding_satoshis)}), ` +
          `which includes a network fee of ${grouped(checkout.fee_satoshis)} sat.`,
        { exact: true },
      )
      .waitFor();
    const qr = page.getByRole('img', { name: /QR code of the payment/ });
    await expect.poll(() => qr.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    expect(await page.getByRole('link', { name: 'Open in wallet' }).getAttribute('href')).toBe(checkout.pay_uri);
    await page.getByText(/^Time left to pay: \d+:\d\d$/).waitFor();
    expect(await pageProblems(page)).toEqual([]);
    await shot('checkout');

    // A reload shows the same checkout: the same order, and no second one opened.
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'Waiting for your payment' }).waitFor();
    await page.getByText(`Order ${checkout.order_number}`, { exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('checkout')).toBe(checkoutId);
    expect(await page.getByRole('button', { name: 'Buy' }).isVisible()).toBe(false);
    const listed = (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/referral-checkouts`, ownerKey)).body.data;
    expect(listed.map((one: { id: string }) => one.id)).toEqual([checkoutId]);

    // The buyer copies the payment link and pays it from a funded wallet.
    await page.getByText('Wallet did not open? Copy the payment link', { exact: true }).click();
    await page.getByRole('button', { name: 'Copy the payment link' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied: paste it in your wallet.' }).waitFor();
    const payUri = await page.evaluate(() => navigator.clipboard.readText());
    expect(payUri).toBe(checkout.pay_uri);
    expect(await page.locator('#pay-uri').textContent()).toBe(payUri);
    await shot('copied');
    await wallet(chainPort, buyerWallet, 'faucet', String(checkout.funding_satoshis + 100_000));
    const paid = await wallet(chainPort, buyerWallet, 'pay', payUri);
    expect(paid.txid).toMatch(/^[0-9a-f]{64}$/);

    // The page follows the checkout: paid, with the order number and the referrer's share.
    await page.getByRole('status').filter({ hasText: 'Paid — thank you' }).waitFor({ timeout: 30_000 });
    await page.getByText(`Your order number is ${checkout.order_number}. Keep it: the shop knows your order by it.`).waitFor();
    await page.getByText('Coffee Weekly received $0.40 from the same transaction.').waitFor();
    expect(await page.getByRole('img', { name: /QR code/ }).isVisible()).toBe(false);
    expect(await page.getByRole('link', { name: 'Open in wallet' }).isVisible()).toBe(false);
    expect(await pageProblems(page)).toEqual([]);
    await shot('paid');

    // The referrer's wallet holds its commission: 40 cents at the instance's rate, paid by the covenant's spend.
    const done = (await api(instance.base, 'GET', `/api/v1/referral-checkouts/${checkoutId}`)).body;
    expect(done).toMatchObject({ status: 'paid', funding_txid: paid.txid, spend_txid: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const balance = await until(
      () => wallet(chainPort, referrerWallet, 'balance'),
      (answer) => answer.satoshis === done.commission_satoshis,
      'the referrer’s balance',
      50,
      200,
    );
    expect(balance.satoshis).toBe(40 * SATOSHIS_PER_CENT);

    // Read again, the paid checkout stays paid; the shop counts one sale through the link.
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'Paid — thank you' }).waitFor();
    const links = (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/referral-links`, ownerKey)).body.data;
    expect(links[0]).toMatchObject({ id: link.id, sales: 1, commission_paid_satoshis: 40 * SATOSHIS_PER_CENT });
    expect(problems).toEqual([]);
  }, 240_000);

  it('a checkout left unpaid says it expired, and Start again opens a new one', async () => {
    await page.goto(link.url);
    await page.getByRole('button', { name: 'Buy' }).click();
    await page.getByRole('status').filter({ hasText: 'Waiting for your payment' }).waitFor();
    const first = new URL(page.url()).searchParams.get('checkout');
    expect(first).toMatch(/^rco_/);
    const firstOrder = await page.locator('#order-line').textContent();
    // Nobody pays: when its time is up the page says so, with the way to start again.
    await page
      .getByRole('status')
      .filter({ hasText: 'This checkout expired' })
      .waitFor({ timeout: (TTL_SECONDS + 30) * 1000 });
    await page.getByText('The time to pay it ran out. Start again to get a new one.').waitFor();
    expect(await page.getByRole('img', { name: /QR code/ }).isVisible()).toBe(false);
    expect(await page.getByRole('link', { name: 'Open in wallet' }).isVisible()).toBe(false);
    expect(await pageProblems(page)).toEqual([]);
    await shot('expired');
    await page.getByRole('button', { name: 'Start again' }).click();
    await page.getByText('$4.00', { exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.has('checkout')).toBe(false);
    await page.getByRole('button', { name: 'Buy' }).click();
    await page.getByRole('status').filter({ hasText: 'Waiting for your payment' }).waitFor();
    const second = new URL(page.url()).searchParams.get('checkout');
    expect(second).toMatch(/^rco_/);
    expect(second).not.toBe(first);
    expect(await page.locator('#order-line').textContent()).not.toBe(firstOrder);
    await shot('started-again');
    expect(problems).toEqual([]);
  }, 180_000);

  it('a link the shop disabled says so and offers no Buy; a checkout it opened before stays payable', async () => {
    const kept = page.url();
    expect(new URL(kept).searchParams.get('checkout')).toMatch(/^rco_/);
    // The shop disables the link while its page is open: Buy meets the 409, and the page says so in place of the button.
    await page.goto(link.url);
    await page.getByText('$4.00', { exact: true }).waitFor();
    const disabled = await api(instance.base, 'POST', `/api/v1/orgs/${handle}/referral-links/${link.id}/disable`, ownerKey);
    expect(disabled.body).toMatchObject({ id: link.id, disabled_at: expect.any(String) });
    expectedStatus = /status of 409/;
    await page.getByRole('button', { name: 'Buy' }).click();
    const closed = page.getByText('The shop no longer sells through this link: nothing can be bought here.');
    await closed.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('disabled');
    expect(new URL(page.url()).searchParams.has('checkout')).toBe(false);
    // Opened afresh, the link says the same: no price, no Buy.
    await page.reload();
    await closed.waitFor();
    await page.getByRole('heading', { level: 1, name: 'Cold brew' }).waitFor();
    expect(await page.getByRole('button', { name: 'Buy' }).isVisible()).toBe(false);
    expect(await page.getByText('$4.00', { exact: true }).isVisible()).toBe(false);
    expect(await page.title()).toBe(`${handle}: not sold through this link`);
    expect(await pageProblems(page)).toEqual([]);
    await shot('disabled');
    // The checkout opened before, kept in its address, still shows what to pay.
    await page.goto(kept);
    await page.getByRole('status').filter({ hasText: 'Waiting for your payment' }).waitFor();
    await page.getByText('The shop no longer sells through this link, but this checkout is still open', { exact: false }).waitFor();
    expect(await closed.isVisible()).toBe(false);
    const open = (await api(instance.base, 'GET', `/api/v1/referral-checkouts/${new URL(kept).searchParams.get('checkout')}`)).body;
    expect(await page.getByRole('link', { name: 'Open in wallet' }).getAttribute('href')).toBe(open.pay_uri);
    expect(await page.getByRole('img', { name: /QR code of the payment/ }).isVisible()).toBe(true);
    expect(await pageProblems(page)).toEqual([]);
    await shot('disabled-checkout-open');
    expect(problems).toEqual([]);
  });

  it('a link that does not exist says so in words', async () => {
    // The page's read of the link is a 404 the browser reports as a failed resource; the page says it in words.
    expectedStatus = /status of 404/;
    await page.goto(`${instance.base}/r/ref_AAAAAAAAAAAAAAAAAAAAAAAA`);
    await page.getByRole('alert').filter({ hasText: 'This referral link was not found: check the address you were given.' }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Link not found' }).waitFor();
    expect(await page.getByRole('button', { name: 'Buy' }).isVisible()).toBe(false);
    expect(await page.getByText('Loading the link…').isVisible()).toBe(false);
    expect(await pageProblems(page)).toEqual([]);
    await shot('not-found');
    // An address that is no link's id at all is the gateway's 404.
    const junk = await fetch(`${instance.base}/r/not-a-link`);
    expect(junk.status).toBe(404);
    expect(((await junk.json()) as { error: { code: string } }).error.code).toBe('not_found');
    expect(problems).toEqual([]);
  });
});
