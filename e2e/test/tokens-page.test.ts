import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, openChromium } from './browser.js';
import { api, freePort, ROOT, startInstance, stopInstance, until, wallet, type Instance } from './instance.js';
import { pageProblems } from './page-checks.js';

/** Screenshots of each step at phone size, kept after the run (git ignores the folder). */
const ARTIFACTS = join(ROOT, 'e2e/artifacts/tokens');
const PHONE = { width: 390, height: 844 };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const hasChromium = chromiumInstalled('tokens-page.test.ts');

/**
 * A shop mints its own token from the back office's Tokens page, as a merchant does it: the page drafts the
 * mint, the merchant's wallet (`pnpm wallet sign-transaction`, run here from the command the page copied)
 * signs it, the signed hex pasted into the page is broadcast and confirmed, and the token shows active with
 * the whole supply at the shop's own address. The merchant then hands some to a customer with `pnpm wallet
 * send-token`, and the page's holders list and balance check show it. The refusals a merchant meets on the
 * way (a bad symbol, an empty wallet, the unsigned hex, a txid that is not the mint) are said in words. Then
 * credits: minted with a face value from the page, 20 sold in an order the customer pays, sent to the
 * customer's wallet with the command the page gives, and 5 of them redeemed against a counter order from the
 * page: the books owe the customer the 15 left (2350).
 */
describe.skipIf(!hasChromium)('the Tokens page, in headless Chromium at phone size', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-tokens-'));
  const merchantWallet = join(dir, 'merchant.json');
  const customerWallet = join(dir, 'customer.json');
  let instance: Instance;
  let browser: BrowserContext;
  let page: Page;
  let chainPort = 0;
  let handle = '';
  let ownerKey = '';
  let merchant: { address: string; public_key: string; xpub: string };
  const problems: string[] = [];
  let step = 0;
  /** The whole page, and the part the step is about (`part`), which on a phone is far down a long page. */
  const shot = async (name: string, part?: Locator) => {
    step += 1;
    const path = join(ARTIFACTS, `${String(step).padStart(2, '0')}-${name}`);
    await page.screenshot({ path: `${path}.png`, fullPage: true });
    if (part) await part.screenshot({ path: `${path}-part.png` });
  };

  /**
   * The command the page gave, run as the merchant runs it in a terminal (`pnpm wallet ...` is the wallet's bin,
   * which the tests run with node directly, as `wallet()` does); what it printed.
   */
  const runCopied = async (command: string): Promise<string> => {
    expect(command.startsWith('pnpm wallet ')).toBe(true);
    const args = command.slice('pnpm wallet '.length).split(' ');
    const { stdout } = await promisify(execFile)(process.execPath, [join(ROOT, 'packages/wallet/bin/ctk-wallet.mjs'), ...args], {
      cwd: ROOT,
      env: { ...process.env, CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: `http://127.0.0.1:${chainPort}` },
    });
    return stdout.trim();
  };

  beforeAll(async () => {
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    chainPort = await freePort();
    instance = await startInstance({ port: await freePort(), dataDir: join(dir, 'data'), chainPort });
    // The merchant's wallet: its xpub for fresh addresses (the mint's owner), its identity key's address for its coins.
    merchant = (await wallet(chainPort, merchantWallet, 'create')) as typeof merchant;
    const onboarded = await api(instance.base, 'POST', '/api/v1/onboard', undefined, {
      name: 'Brew Club Roasters',
      wallet_xpub: merchant.xpub,
      identity_public_key: merchant.public_key,
    });
    expect(onboarded.status, JSON.stringify(onboarded.body)).toBe(201);
    ownerKey = onboarded.body.api_key.key;
    handle = onboarded.body.organization.handle;
    await wallet(chainPort, customerWallet, 'create');
    browser = await openChromium(dir, PHONE);
    await browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: instance.base });
    page = await browser.newPage();
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      // The refusals the test asks for are 4xx answers the browser reports as failed resources; the page says them in words.
      if (message.type() === 'error' && !/status of (409|422)/.test(message.text())) problems.push(message.text());
    });
    await page.goto(`${instance.base}/`);
    await page.getByText('Use an API key instead').click();
    await page.getByLabel('API key').fill(ownerKey);
    await page.getByRole('button', { name: 'Sign in with the API key' }).click();
    await page.getByRole('heading', { name: 'Brew Club Roasters' }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  it('the owner mints a membership token from the page, signs it with pnpm wallet, and sees the whole supply at its own address', async () => {
    await page.goto(`${instance.base}/o/${handle}/tokens`);
    await page.getByRole('heading', { level: 1, name: 'Tokens' }).waitFor();
    await page.getByRole('heading', { name: 'What it does for you' }).waitFor();
    await page.getByText("Credits you have sold are money you owe, like a gift card's balance").waitFor();
    await page.getByText('you owe its holder nothing for it').waitFor();
    await page.getByText('No tokens yet. Mint one above.').waitFor();
    expect(await pageProblems(page)).toEqual([]);
    await shot('tokens-empty');

    // A symbol with a space is refused beside its field, before anything is drafted.
    const mint = page.getByRole('region', { name: 'Mint a token' });
    await mint.getByLabel('Membership: Holding one is the pass.').check();
    await mint.getByLabel(/^Symbol/).fill('BREW CLUB');
    await mint.getByLabel(/^Name/).fill('Brew Club membership');
    await mint.getByLabel(/^Supply/).fill('500');
    await mint.getByText('500 BREW CLUB: 500 units on the chain.').waitFor();
    await mint.getByRole('button', { name: 'Draft the mint' }).click();
    await expect(mint.locator('#symbol-problem').textContent()).resolves.toBe(
      'A symbol has no spaces: write it as one word, such as BREW or BREWCLUB.',
    );
    expect(await mint.getByLabel(/^Symbol/).getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('symbol');
    expect(await pageProblems(page)).toEqual([]);
    await shot('symbol-refused', mint);

    // The wallet has no coins yet: the page says where to send some.
    await mint.getByLabel(/^Symbol/).fill('BREW');
    await mint.getByRole('button', { name: 'Draft the mint' }).click();
    await expect(mint.getByRole('alert').filter({ hasText: 'no coins' }).textContent()).resolves.toBe(
      `Your wallet has no coins to pay the mint's fee (a few satoshis). Send a little BSV to your wallet's address ${merchant.address} ` +
        '(on a local test chain: pnpm wallet --file <your wallet file> faucet), then draft the mint again.',
    );
    expect(await pageProblems(page)).toEqual([]);
    await shot('no-coins', mint);

    // The owner funds the wallet from the local chain's faucet, and drafts again.
    const faucet = await wallet(chainPort, merchantWallet, 'faucet', '1000000');
    await mint.getByRole('button', { name: 'Draft the mint' }).click();
    const steps = page.getByRole('region', { name: 'Finish minting BREW in your wallet' });
    await steps.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('finish');
    await steps.getByText('500 BREW', { exact: true }).waitFor();
    const drafts = (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/tokens`, ownerKey)).body.data;
    expect(drafts).toMatchObject([{ status: 'draft', symbol: 'BREW', kind: 'membership', supply: 500 }]);
    const draft = drafts[0];
    await steps.getByText(draft.owner_address).waitFor();
    const unsigned = await steps.getByLabel(/^Unsigned transaction \(hex\)/).inputValue();
    expect(unsigned).toBe(draft.draft.transaction);
    expect(await steps.getByLabel(/^Unsigned transaction \(hex\)/).getAttribute('readonly')).not.toBeNull();
    // The merchant's own wallet file goes into the command, which the copy button copies whole.
    await steps.getByLabel(/^Your wallet file/).fill(merchantWallet);
    await steps.getByRole('button', { name: 'Copy the command' }).click();
    await steps.getByRole('status').filter({ hasText: 'The command is copied' }).waitFor();
    const command = await page.evaluate(() => navigator.clipboard.readText());
    expect(command).toBe(`pnpm wallet --file ${merchantWallet} sign-transaction ${unsigned}`);
    expect(await pageProblems(page)).toEqual([]);
    await shot('sign-in-your-wallet', steps);

    // The unsigned hex pasted by mistake is caught; a txid that is not this mint (the faucet's) is refused in words.
    await steps.getByLabel(/^Signed transaction \(hex\)/).fill(unsigned);
    await steps.getByRole('button', { name: 'Send it and confirm the mint' }).click();
    await steps.getByRole('alert').filter({ hasText: 'That is the transaction before signing.' }).waitFor();
    await steps.getByText('Sent it another way? Confirm it by its transaction id').click();
    await steps.getByLabel(/^Transaction id/).fill(String(faucet.txid));
    await steps.getByRole('button', { name: 'Confirm the mint', exact: true }).click();
    await expect(steps.getByRole('alert').filter({ hasText: 'mints no token' }).textContent()).resolves.toBe(
      'That transaction mints no token: it is not this mint of BREW. Paste the id of the transaction your wallet signed for this draft.',
    );
    expect(await pageProblems(page)).toEqual([]);
    await shot('not-this-mint', steps);

    // The merchant runs the command in a terminal and pastes what it printed: the page broadcasts and confirms it.
    const signed = await runCopied(command);
    expect(signed).toMatch(/^[0-9a-f]+$/);
    await steps.getByLabel(/^Signed transaction \(hex\)/).fill(signed);
    await steps.getByRole('button', { name: 'Send it and confirm the mint' }).click();
    await steps
      .getByRole('status')
      .filter({ hasText: 'BREW is minted and active. Your wallet holds all 500 BREW.' })
      .waitFor({ timeout: 30_000 });
    const [active] = (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/tokens`, ownerKey)).body.data;
    expect(active).toMatchObject({ id: draft.id, status: 'active', token_id: expect.stringMatching(/^[0-9a-f]{64}_0$/) });
    await steps.getByText(active.token_id).waitFor();
    expect(await pageProblems(page)).toEqual([]);
    await shot('minted', steps);

    // The list shows it active, with the whole supply at the shop's own address.
    await steps.getByRole('button', { name: 'Done' }).click();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /^BREW/ }) });
    await card.getByText('Active', { exact: true }).waitFor();
    await card.getByText(active.token_id).waitFor();
    const holders = card.getByRole('table', { name: 'Who holds it' });
    await expect
      .poll(() => holders.getByRole('row').allInnerTexts())
      .toEqual([
        expect.stringMatching(/^Address\s+Holds$/),
        expect.stringMatching(new RegExp(`^${draft.owner_address}\\s+your wallet\\s+500 BREW$`)),
      ]);
    expect(await pageProblems(page)).toEqual([]);
    await shot('active-held-by-the-shop', card);
  });

  it('the merchant sends some to a customer with pnpm wallet send-token, and the holders list and the balance check show it', async () => {
    const [token] = (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/tokens`, ownerKey)).body.data;
    const customer = (await wallet(chainPort, customerWallet, 'address')) as { address: string };
    const sent = await wallet(
      chainPort,
      merchantWallet,
      'send-token',
      '--token',
      token.token_id,
      '--to',
      customer.address,
      '--amount',
      '20',
    );
    expect(sent.txid).toMatch(/^[0-9a-f]{64}$/);

    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /^BREW/ }) });
    await card.getByRole('button', { name: 'Read again' }).click();
    const holders = card.getByRole('table', { name: 'Who holds it' });
    await expect
      .poll(() => holders.getByRole('row').allInnerTexts())
      .toEqual([
        expect.stringMatching(/^Address\s+Holds$/),
        // The wallet sends its token change to its own address (its identity key's): still the shop's.
        expect.stringMatching(new RegExp(`^${merchant.address}\\s+your wallet\\s+480 BREW$`)),
        expect.stringMatching(new RegExp(`^${customer.address}\\s+20 BREW$`)),
      ]);
    expect(await pageProblems(page)).toEqual([]);
    await shot('holders-after-send', card);

    // The membership gate: the customer's address holds it, the mint's address (all of it moved on) holds none, a typo is no address.
    const check = card.getByRole('form', { name: 'Check a balance' });
    await check.getByLabel(/^Wallet address/).fill(customer.address);
    await check.getByRole('button', { name: 'Check' }).click();
    await expect
      .poll(() => check.getByRole('status').textContent())
      .toMatch(/^Holds 20 BREW( \(20 BREW of it not yet in a block\))?: a member\.$/);
    await shot('balance-a-member', check);
    await check.getByLabel(/^Wallet address/).fill(token.owner_address);
    await check.getByRole('button', { name: 'Check' }).click();
    await check.getByRole('status').filter({ hasText: 'Holds no BREW: not a member.' }).waitFor();
    await check.getByLabel(/^Wallet address/).fill('not-an-address');
    await check.getByRole('button', { name: 'Check' }).click();
    await check.getByRole('alert').filter({ hasText: 'Paste the whole address' }).waitFor();
    const balance = (await api(instance.base, 'GET', `/api/v1/tokens/${token.token_id}/balance/${customer.address}`)).body;
    expect(balance).toMatchObject({ balance: 20, holds: true, symbol: 'BREW' });
    expect(await pageProblems(page)).toEqual([]);
    await shot('balance-not-an-address', card);
    expect(problems).toEqual([]);
  });

  it('shows staff the tokens, their holders and the balance check, and leaves minting to the owner and admins', async () => {
    const added = await api(instance.base, 'POST', `/api/v1/orgs/${handle}/members`, ownerKey, { name: 'Sam', role: 'staff' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const staff = await browser.newPage();
    staff.on('pageerror', (error) => problems.push(`staff: ${error.message}`));
    await staff.goto(`${instance.base}/`);
    await staff.getByText('Use an API key instead').click();
    await staff.getByLabel('API key').fill(added.body.api_key.key);
    await staff.getByRole('button', { name: 'Sign in with the API key' }).click();
    await staff.getByRole('heading', { name: 'Brew Club Roasters' }).waitFor();
    await staff.goto(`${instance.base}/o/${handle}/tokens`);
    await staff.getByText("You can see the shop's tokens here; only the shop's owner or an admin can mint one.").waitFor();
    const card = staff.getByRole('listitem').filter({ has: staff.getByRole('heading', { name: /^BREW/ }) });
    await card.getByRole('table', { name: 'Who holds it' }).getByText('20 BREW').waitFor();
    expect(await staff.getByRole('region', { name: 'Mint a token' }).count()).toBe(0);
    expect(await staff.getByRole('button', { name: /Draft the mint|Finish the mint/ }).count()).toBe(0);
    expect(await pageProblems(staff)).toEqual([]);
    await staff.screenshot({ path: join(ARTIFACTS, `${String(++step).padStart(2, '0')}-staff.png`), fullPage: true });
    await staff.close();
    expect(problems).toEqual([]);
  });

  it('the owner mints credits with a face value, sells 20 from the page, and redeems 5 of them against a counter order: 2350 holds 15.00', async () => {
    await page.goto(`${instance.base}/o/${handle}/tokens`);
    const mint = page.getByRole('region', { name: 'Mint a token' });
    await mint.waitFor();
    // The face value is asked for credits only.
    expect(await mint.getByLabel(/^What one .* is worth/).count()).toBe(0);
    await mint.getByLabel('Credits: bought in advance').check();
    await mint.getByLabel(/^Symbol/).fill('BEAN');
    await mint.getByLabel(/^Name/).fill('Bean credits');
    await mint.getByLabel(/^Supply/).fill('1000');
    const faceValue = mint.getByLabel(/^What one BEAN is worth/);
    expect(await mint.getByLabel(/^Currency/).inputValue()).toBe('USD');

    // With 2 decimals, 50 cents for one BEAN would make 0.01 BEAN worth half a cent: refused in words, beside the field.
    await mint.getByLabel(/^Decimals/).selectOption('2');
    await mint.getByText('make one BEAN worth a multiple of $1.00').waitFor();
    await faceValue.fill('0.50');
    await mint.getByRole('button', { name: 'Draft the mint' }).click();
    await expect(mint.locator('#face-value-problem').textContent()).resolves.toBe(
      'With 2 decimals, 0.01 BEAN must be worth a whole number of $0.01: make one BEAN worth a multiple of $1.00, or choose fewer decimals.',
    );
    expect(await faceValue.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('face-value');
    expect(await pageProblems(page)).toEqual([]);
    await shot('credits-face-value-refused', mint);

    // Whole credits worth $1.00 each.
    await mint.getByLabel(/^Decimals/).selectOption('0');
    await faceValue.fill('1.00');
    await mint.getByText('1 BEAN = $1.00. What a customer pays for one BEAN').waitFor();
    await shot('credits-face-value', mint);
    await mint.getByRole('button', { name: 'Draft the mint' }).click();
    const steps = page.getByRole('region', { name: 'Finish minting BEAN in your wallet' });
    await steps.waitFor();
    await steps.getByText('1 BEAN = $1.00', { exact: true }).waitFor();
    const [draft] = (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/tokens`, ownerKey)).body.data;
    expect(draft).toMatchObject({ status: 'draft', symbol: 'BEAN', kind: 'credits', supply: 1000, unit_value_minor: 100, currency: 'USD' });
    await steps.getByLabel(/^Your wallet file/).fill(merchantWallet);
    await steps.getByRole('button', { name: 'Copy the command' }).click();
    await steps.getByRole('status').filter({ hasText: 'The command is copied' }).waitFor();
    const signed = await runCopied(await page.evaluate(() => navigator.clipboard.readText()));
    await steps.getByLabel(/^Signed transaction \(hex\)/).fill(signed);
    await steps.getByRole('button', { name: 'Send it and confirm the mint' }).click();
    await steps
      .getByRole('status')
      .filter({ hasText: 'BEAN is minted and active. Your wallet holds all 1,000 BEAN.' })
      .waitFor({ timeout: 30_000 });
    await steps.getByRole('button', { name: 'Done' }).click();
    const [credits] = (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/tokens`, ownerKey)).body.data;
    expect(credits).toMatchObject({ status: 'active', symbol: 'BEAN', unit_value_minor: 100, currency: 'USD' });
    const tokenId: string = credits.token_id;

    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /^BEAN/ }) });
    await card.getByText('1 BEAN = $1.00', { exact: true }).waitFor();
    expect(await pageProblems(page)).toEqual([]);
    await shot('credits-active', card);

    // Selling more than was minted is refused beside the field; 20 opens an untaxed order for $20.00.
    const sell = card.getByRole('region', { name: 'Sell credits' });
    await sell.getByLabel(/^Credits to sell/).fill('5000');
    await sell.getByRole('button', { name: 'Open the order to pay' }).click();
    await sell.getByText('You can sell at most what was minted, 1,000 BEAN').waitFor();
    await sell.getByLabel(/^Credits to sell/).fill('20');
    await sell.getByText('20 BEAN: the customer pays $20.00.').waitFor();
    await shot('sell-credits', sell);
    await sell.getByRole('button', { name: 'Open the order to pay' }).click();
    const waiting = sell.getByRole('status').filter({ hasText: 'Waiting for the customer to pay.' });
    await waiting.waitFor();
    const saleNumber = /^Order (\w{10}):/.exec((await waiting.textContent()) ?? '')![1]!;
    expect(await waiting.textContent()).toBe(`Order ${saleNumber}: 20 BEAN for $20.00, without tax. Waiting for the customer to pay.`);
    expect(await sell.getByRole('link', { name: "the order's payment page" }).getAttribute('href')).toBe(`/pay/${saleNumber}`);
    await sell.getByRole('img', { name: `QR code to pay order ${saleNumber}, $20.00` }).waitFor();
    expect(await pageProblems(page)).toEqual([]);
    await shot('sale-to-pay', sell);

    // The customer pays it with their wallet (BIP270); the page, reading the order while it waits, sees it paid.
    const read = (await api(instance.base, 'GET', `/api/pos/orders/${saleNumber}`)).body;
    const saleOrder = read.order ?? read;
    expect(saleOrder).toMatchObject({ total_minor: 2000, tax_minor: 0, credits_token_id: tokenId });
    await wallet(chainPort, customerWallet, 'faucet');
    const paid = await wallet(chainPort, customerWallet, 'pay', saleOrder.pay_uri);
    expect(paid.txid).toMatch(/^[0-9a-f]{64}$/);
    await sell
      .getByRole('status')
      .filter({ hasText: `Order ${saleNumber} is paid: $20.00 for 20 BEAN. Send the credits from your wallet now.` })
      .waitFor({ timeout: 20_000 });

    // The page's command, with the customer's address and the wallet file typed in, sends the 20 credits.
    const customer = (await wallet(chainPort, customerWallet, 'address')) as { address: string };
    await sell.getByLabel(/^Customer's wallet address/).fill(customer.address);
    await sell.getByLabel(/^Your wallet file/).fill(merchantWallet);
    await sell.getByRole('button', { name: 'Copy the command' }).click();
    await sell.getByRole('status').filter({ hasText: 'The command is copied' }).waitFor();
    const sendCommand = await page.evaluate(() => navigator.clipboard.readText());
    expect(sendCommand).toBe(`pnpm wallet --file ${merchantWallet} send-token --token ${tokenId} --to ${customer.address} --amount 20`);
    expect(await pageProblems(page)).toEqual([]);
    await shot('sale-paid-send-credits', sell);
    expect(await runCopied(sendCommand)).toMatch(/[0-9a-f]{64}/);
    await until(
      async () => (await api(instance.base, 'GET', `/api/v1/tokens/${tokenId}/balance/${customer.address}`)).body.balance,
      (balance) => balance === 20,
      'the customer holds 20 BEAN',
    );
    await sell.getByRole('button', { name: 'Sell more credits' }).click();

    // A counter order, from the keypad: $12.50.
    const counter = await api(instance.base, 'POST', '/api/pos/orders', ownerKey, {
      org_handle: handle,
      currency: 'USD',
      lines: [{ name: 'Pastry box', quantity: 1, unit_price_minor: 1250 }],
    });
    expect(counter.status, JSON.stringify(counter.body)).toBe(201);
    const order = counter.body.order ?? counter.body;
    const owes = (minor: number) => `$${(minor / 100).toFixed(2)}`;

    // Credits pay only an open order that is not itself a sale of credits: the paid sale is refused in words.
    const redeem = card.getByRole('region', { name: 'Redeem credits against an order' });
    await redeem.getByLabel(/^Order number/).fill(saleNumber);
    await redeem.getByRole('button', { name: 'Get the address for this order' }).click();
    await redeem.getByText(`Order ${saleNumber} is paid already: credits pay only an open order.`).waitFor();
    await shot('redeem-order-refused', redeem);

    // The counter order (typed as staff might, in lower case): the address the merchant's wallet holds for it.
    await redeem.getByLabel(/^Order number/).fill(order.order_number.toLowerCase());
    await redeem.getByRole('button', { name: 'Get the address for this order' }).click();
    await redeem.getByText(`Order ${order.order_number} still owes ${owes(order.total_minor)}.`).waitFor();
    const address = (await redeem.locator('.redemption-address code').textContent())!;
    const opened = await api(instance.base, 'POST', `/api/v1/orgs/${handle}/tokens/${tokenId}/redemption-addresses`, ownerKey, {
      order_number: order.order_number,
    });
    // The route answers the address it holds for the order: the same again.
    expect(opened.body).toMatchObject({ order_number: order.order_number, address });
    await redeem.getByLabel(/^Credits the customer spends/).fill('5');
    const customerCommand = `pnpm wallet send-token --token ${tokenId} --to ${address} --amount 5`;
    await redeem.getByText(customerCommand).waitFor();
    await redeem.getByRole('button', { name: "Copy the customer's command" }).click();
    await redeem.getByRole('status').filter({ hasText: "The customer's command is copied." }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(customerCommand);
    expect(await pageProblems(page)).toEqual([]);
    await shot('redeem-send-to-address', redeem);

    // The customer's wallet sends 5 there. A txid that sends nothing there (the merchant's send) is refused in words.
    const spent = await wallet(chainPort, customerWallet, ...customerCommand.slice('pnpm wallet '.length).split(' '));
    expect(spent.txid).toMatch(/^[0-9a-f]{64}$/);
    await until(
      async () => (await api(instance.base, 'GET', `/api/v1/tokens/${tokenId}/balance/${address}`)).body.balance,
      (balance) => balance === 5,
      'the redemption address holds 5 BEAN',
    );
    await redeem.getByLabel(/^Transaction id of the transfer/).fill(String(paid.txid));
    await redeem.getByRole('button', { name: 'Redeem the credits' }).click();
    await redeem
      .getByRole('alert')
      .filter({ hasText: `That transaction sends no BEAN to this order's address (${address}).` })
      .waitFor();
    await shot('redeem-wrong-transfer', redeem);

    await redeem.getByLabel(/^Transaction id of the transfer/).fill(String(spent.txid));
    await redeem.getByRole('button', { name: 'Redeem the credits' }).click();
    const rest = order.total_minor - 500;
    await redeem
      .getByRole('status')
      .filter({ hasText: `5 BEAN paid $5.00 on order ${order.order_number}. It still owes ${owes(rest)}: take the rest in money.` })
      .waitFor({ timeout: 30_000 });
    expect(await redeem.getByRole('link', { name: `Order ${order.order_number}'s payment page` }).getAttribute('href')).toBe(
      `/pay/${order.order_number}`,
    );
    expect(await pageProblems(page)).toEqual([]);
    await shot('redeemed', redeem);
    await shot('credits-card', card);

    // The order owes the rest; the books owe the customer the 15 credits still unspent: 2000 - 500.
    const readAfter = (await api(instance.base, 'GET', `/api/pos/orders/${order.order_number}`)).body;
    expect(readAfter.order ?? readAfter).toMatchObject({ status: 'open', card_paid_minor: 500 });
    const account2350 = (report: Json) =>
      Number(report.data?.find((row: Json) => row.currency === 'USD')?.accounts.find((a: Json) => a.code === '2350')?.balance_minor ?? 0);
    const trial = await until(
      async () => (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/reports/trial-balance`, ownerKey)).body,
      (report) => account2350(report) === 1500,
      '2350 after the sale and the redemption',
      120,
      250,
    );
    for (const row of trial.data) expect(Number(row.total_debit_minor), row.currency).toBe(Number(row.total_credit_minor));
    expect(problems).toEqual([]);
  }, 300_000);
});
