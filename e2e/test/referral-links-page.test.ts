import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, openChromium } from './browser.js';
import { api, freePort, ROOT, startInstance, stopInstance, until, wallet, type Instance } from './instance.js';
import { pageProblems } from './page-checks.js';

/** Screenshots of each step at phone size, kept after the run (git ignores the folder). */
const ARTIFACTS = join(ROOT, 'e2e/artifacts/referral-links');
const PHONE = { width: 390, height: 844 };

type WalletInfo = { address: string; public_key: string };

const hasChromium = chromiumInstalled('referral-links-page.test.ts');

/**
 * The referral links page of the back office (decision 0040), as a merchant uses it at phone size: the owner
 * reaches it from the capability map, makes a link for an item to a referrer (a `pnpm wallet`) after the page
 * refused a bad address and a 0% share beside their fields, then an address of another network (the service's
 * refusal, in words); the link shows with its share in money and the page to share, copied. A buyer checks out
 * through it (the API, no key) and pays its `pay:` URI with a funded wallet; read again, the page shows the
 * checkout paid with its order number, the referrer's commission, what the shop received and the fee, and the
 * link's one sale. Staff then disable the link from its card (confirmed in a dialog): it says since when, offers
 * no button, and the API reads it disabled.
 */
describe.skipIf(!hasChromium)('the referral links page, in headless Chromium at phone size', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-referral-'));
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
  const problems: string[] = [];
  let step = 0;
  /** The whole page, and the part the step is about (`part`), which on a phone is far down a long page. */
  const shot = async (name: string, part?: Locator) => {
    step += 1;
    const path = join(ARTIFACTS, `${String(step).padStart(2, '0')}-${name}`);
    await page.screenshot({ path: `${path}.png`, fullPage: true });
    if (part) await part.screenshot({ path: `${path}-part.png` });
  };

  beforeAll(async () => {
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    chainPort = await freePort();
    instance = await startInstance({ port: await freePort(), dataDir: join(dir, 'data'), chainPort });
    await wallet(chainPort, referrerWallet, 'create');
    referrer = (await wallet(chainPort, referrerWallet, 'address')) as WalletInfo;
    const onboarded = await api(instance.base, 'POST', '/api/v1/onboard', undefined, { name: 'Harbour Coffee' });
    expect(onboarded.status, JSON.stringify(onboarded.body)).toBe(201);
    ownerKey = onboarded.body.api_key.key;
    handle = onboarded.body.organization.handle;
    const item = await api(instance.base, 'POST', `/api/v1/orgs/${handle}/items`, ownerKey, {
      name: 'Cold brew',
      price_cents: 400,
      currency: 'USD',
    });
    expect(item.status, JSON.stringify(item.body)).toBe(201);
    browser = await openChromium(dir, PHONE);
    await browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: instance.base });
    page = await browser.newPage();
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      // The refusal the test asks for is a 422 the browser reports as a failed resource; the page says it in words.
      if (message.type() === 'error' && !/status of 422/.test(message.text())) problems.push(message.text());
    });
    await page.goto(`${instance.base}/`);
    await page.getByText('Use an API key instead').click();
    await page.getByLabel('API key').fill(ownerKey);
    await page.getByRole('button', { name: 'Sign in with the API key' }).click();
    await page.getByRole('heading', { name: 'Harbour Coffee' }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes a link for an item after refusals in words; a buyer pays through it; the page shows the checkout paid and the sale', async () => {
    // The dashboard links the page from the capability map, under its rung.
    await page.locator('summary').filter({ hasText: 'Contracts' }).click();
    await page.getByRole('link', { name: 'Referral covenant', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Referral covenant: referral links' }).waitFor();
    expect(page.url()).toBe(`${instance.base}/o/${handle}/referral-covenant`);
    await page.getByText('a script on the chain that can only pay you and the referrer, the amounts fixed at checkout').waitFor();
    await page.getByText('5100 Referral commissions', { exact: true }).waitFor();
    // The shop opens without its wallet: the page says checkouts need one.
    const noWallet = page.getByText('Buyers pay your share into your own wallet, and the shop has none registered yet', { exact: false });
    await noWallet.waitFor();
    await page.getByText('No links yet. Make one above.').waitFor();
    await page.getByText('None yet. When a buyer checks out through one of your links, it shows here.').waitFor();
    expect(await pageProblems(page)).toEqual([]);
    await shot('empty');

    // A bad address and a 0% share are refused beside their fields, before anything is sent.
    const form = page.getByRole('region', { name: 'Make a referral link' });
    await form.getByLabel('Item').selectOption({ label: 'Cold brew, $4.00' });
    await form.getByLabel(/^Referrer's name/).fill('Coffee Weekly');
    await form.getByLabel(/^Referrer's wallet address/).fill('my-wallet');
    await form.getByLabel(/^Their share, in %/).fill('0');
    await form.getByRole('button', { name: 'Make the link' }).click();
    await expect(form.locator('#referrer_address-problem').textContent()).resolves.toBe(
      "That is not a wallet address: copy it whole from the referrer's wallet.",
    );
    await expect(form.locator('#commission_basis_points-problem').textContent()).resolves.toBe(
      'Give the referrer from 0.01% to 50% of each sale, such as 10.',
    );
    await form.getByRole('alert').filter({ hasText: 'Check the fields marked above.' }).waitFor();
    expect(await form.getByLabel(/^Referrer's wallet address/).getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('referrer_address');
    expect(await pageProblems(page)).toEqual([]);
    await shot('refused', form);

    // 10% is said back in money on the item's price; an address of the main chain is the service's to refuse, in words.
    await form.getByLabel(/^Their share, in %/).fill('10');
    expect(await form.locator('#commission_basis_points-problem').count()).toBe(0);
    await form.getByText('10% of $4.00 is $0.40 on each sale, before tax.').waitFor();
    await form.getByLabel(/^Referrer's wallet address/).fill('1BoatSLRHtKNngkdXEeobR76b53LETtpyT');
    await form.getByRole('button', { name: 'Make the link' }).click();
    await expect
      .poll(() => form.locator('#referrer_address-problem').textContent())
      .toBe(
        "That address is of another network: this shop is paid on the local chain, where addresses start with m or n. Ask the referrer for their wallet's address on it.",
      );
    expect(await pageProblems(page)).toEqual([]);
    await shot('other-network', form);

    // The referrer's own address: the link is made, listed first with its share, and its page copied.
    await form.getByLabel(/^Referrer's wallet address/).fill(referrer.address);
    await form.getByRole('button', { name: 'Make the link' }).click();
    const links = page.getByRole('region', { name: 'Your referral links' });
    const card = links.getByRole('listitem').filter({ has: page.getByRole('heading', { name: "Coffee Weekly's link to Cold brew" }) });
    await card.waitFor();
    const [made] = (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/referral-links`, ownerKey)).body.data;
    expect(made).toMatchObject({
      referrer_name: 'Coffee Weekly',
      referrer_address: referrer.address,
      commission_basis_points: 1000,
      disabled_at: null,
    });
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(`referral-link-${made.id}`);
    expect(made.url).toBe(`${instance.base}/r/${made.id}`);
    await card.getByText('10%: $0.40 a sale').waitFor();
    await card.getByText('0 paid checkouts').waitFor();
    expect(await card.locator('dt').filter({ hasText: 'Commission paid' }).locator('xpath=following-sibling::dd[1]').textContent()).toBe(
      'None yet',
    );
    await card.getByText(referrer.address, { exact: true }).waitFor();
    expect(await card.getByRole('link', { name: made.url }).getAttribute('href')).toBe(made.url);
    await card.getByRole('button', { name: 'Copy the link' }).click();
    await card.getByRole('status').filter({ hasText: 'The link is copied: send it to Coffee Weekly.' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(made.url);
    // The form is ready for the next one.
    expect(await form.getByLabel(/^Referrer's name/).inputValue()).toBe('');
    expect(await pageProblems(page)).toEqual([]);
    await shot('made', card);

    // The owner registers the shop's wallet; a buyer checks out through the link (no key) and pays its pay: URI with a funded wallet.
    const merchant = (await wallet(chainPort, merchantWallet, 'create')) as WalletInfo;
    const registered = await api(instance.base, 'PATCH', `/api/v1/organizations/${handle}`, ownerKey, {
      receiving_address: merchant.address,
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    const opened = await api(instance.base, 'POST', `/api/v1/referral-links/${made.id}/checkouts`);
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const checkout = opened.body;
    expect(checkout).toMatchObject({ status: 'awaiting_payment', total_minor: 400, commission_minor: 40 });
    await wallet(chainPort, buyerWallet, 'create');
    await wallet(chainPort, buyerWallet, 'faucet', String(Number(checkout.funding_satoshis) + 100_000));
    const paid = await wallet(chainPort, buyerWallet, 'pay', checkout.pay_uri);
    expect(paid).toMatchObject({ txid: expect.stringMatching(/^[0-9a-f]{64}$/) });

    // Read again: the checkout is paid, with every amount it moved; the link counts its sale.
    await page.reload();
    const checkouts = page.getByRole('region', { name: 'Checkouts through your links' });
    const sale = checkouts.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /^Order / }) });
    await sale.getByRole('heading', { name: `Order ${checkout.order_number} Paid` }).waitFor();
    const done = (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/referral-checkouts`, ownerKey)).body.data[0];
    expect(done).toMatchObject({ status: 'paid', funding_txid: paid.txid, spend_txid: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const grouped = (satoshis: number) => new Intl.NumberFormat('en-US').format(satoshis);
    await sale.getByText("Cold brew, through Coffee Weekly's link", { exact: false }).waitFor();
    const fact = (term: string | RegExp) => sale.locator('dt').filter({ hasText: term }).locator('xpath=following-sibling::dd[1]');
    expect(await fact('Total').textContent()).toBe('$4.00');
    expect(await fact("Coffee Weekly's commission").textContent()).toBe(
      `$0.40${grouped(done.commission_satoshis)} satoshis (${bsv(done.commission_satoshis)})`,
    );
    expect(await fact('You received').textContent()).toBe(
      `$3.60${grouped(done.satoshis - done.commission_satoshis)} satoshis (${bsv(done.satoshis - done.commission_satoshis)})`,
    );
    expect(await fact('Network fee').textContent()).toBe(
      `${grouped(done.fee_satoshis)} satoshi${done.fee_satoshis === 1 ? '' : 's'}paid by the buyer, on top`,
    );
    await sale
      .getByText('The covenant paid you and the referrer. The commission is in your books under 5100 Referral commissions.')
      .waitFor();
    // The two transactions, their ids shortened to read and copied whole.
    const short = (txid: string) => `${txid.slice(0, 8)}…${txid.slice(-6)}`;
    await sale.getByText(`The buyer's payment into the covenant: transaction ${short(done.funding_txid)}`, { exact: true }).waitFor();
    await sale.getByText(`Paid out to you and the referrer: transaction ${short(done.spend_txid)}`, { exact: true }).waitFor();
    await sale.getByRole('button', { name: "Copy the payout's txid" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(done.spend_txid);
    expect(await sale.getByRole('button', { name: 'Read again' }).count()).toBe(0);
    const linked = page.getByRole('region', { name: 'Your referral links' }).getByRole('listitem');
    await linked.getByText('1 paid checkout', { exact: true }).waitFor();
    await linked.getByText(`${grouped(done.commission_satoshis)} satoshis (${bsv(done.commission_satoshis)})`).waitFor();
    expect(await noWallet.count()).toBe(0);
    expect(await pageProblems(page)).toEqual([]);
    await shot('paid', sale);

    // On the chain: the covenant paid the referrer's wallet their commission, and the shop's the rest.
    await until(
      async () => [
        (await wallet(chainPort, referrerWallet, 'balance')).satoshis,
        (await wallet(chainPort, merchantWallet, 'balance')).satoshis,
      ],
      ([toReferrer, toShop]) => toReferrer === done.commission_satoshis && toShop === done.satoshis - done.commission_satoshis,
      'the covenant paid the referrer and the shop',
      60,
      500,
    );

    // Staff disable the link from its card, after confirming: the card says since when, and offers no button.
    const open = links.getByRole('listitem').first();
    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await open.getByRole('button', { name: 'Disable this link' }).click();
    await open.getByRole('heading', { name: "Coffee Weekly's link to Cold brew Disabled" }).waitFor();
    expect(asked).toBe("Disable Coffee Weekly's link to Cold brew? It opens no new checkout; checkouts already open can still be paid.");
    const { disabled_at: disabledAt } = (await api(instance.base, 'GET', `/api/v1/referral-links/${made.id}`)).body;
    expect(Date.parse(disabledAt)).toBeGreaterThan(Date.parse(made.created_at));
    const { time_zone: zone } = (await api(instance.base, 'GET', `/api/v1/organizations/${handle}`, ownerKey)).body;
    const when = await page.evaluate(
      ([iso, timeZone]) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(iso!)),
      [disabledAt, zone],
    );
    await open
      .getByText(`Disabled on ${when}. Buyers can no longer check out through it; a checkout already open can still be paid.`)
      .waitFor();
    await open.getByText('The link Coffee Weekly shared opens no checkout now:', { exact: false }).waitFor();
    expect(await open.getByRole('button').count()).toBe(0);
    const listed = (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/referral-links`, ownerKey)).body.data;
    expect(listed[0]).toMatchObject({ id: made.id, disabled_at: disabledAt, sales: 1 });
    expect(await pageProblems(page)).toEqual([]);
    await shot('disabled', open);
    expect(problems).toEqual([]);
  }, 240_000);
});

/** Satoshis as BSV, as the page writes them: 4000 is "0.00004 BSV". */
function bsv(satoshis: number): string {
  const fraction = String(satoshis % 100_000_000)
    .padStart(8, '0')
    .replace(/0+$/, '');
  return `${Math.floor(satoshis / 100_000_000)}${fraction ? `.${fraction}` : ''} BSV`;
}
