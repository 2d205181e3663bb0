import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, openChromium } from './browser.js';
import { api, freePort, ROOT, startInstance, stopInstance, wallet, type Instance } from './instance.js';
import { pageProblems } from './page-checks.js';

/** Screenshots of each step at phone size, kept after the run (git ignores the folder). */
const ARTIFACTS = join(ROOT, 'e2e/artifacts/tokens');
const PHONE = { width: 390, height: 844 };

const hasChromium = chromiumInstalled('tokens-page.test.ts');

/**
 * A shop mints its own token from the back office's Tokens page, as a merchant does it: the page drafts the
 * mint, the merchant's wallet (`pnpm wallet sign-transaction`, run here from the command the page copied)
 * signs it, the signed hex pasted into the page is broadcast and confirmed, and the token shows active with
 * the whole supply at the shop's own address. The merchant then hands some to a customer with `pnpm wallet
 * send-token`, and the page's holders list and balance check show it. The refusals a merchant meets on the
 * way (a bad symbol, an empty wallet, the unsigned hex, a txid that is not the mint) are said in words.
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
});
