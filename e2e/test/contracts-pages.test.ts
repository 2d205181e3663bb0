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
const ARTIFACTS = join(ROOT, 'e2e/artifacts/contracts');
const PHONE = { width: 390, height: 844 };

type WalletInfo = { address: string; public_key: string; xpub: string };

const hasChromium = chromiumInstalled('contracts-pages.test.ts');

/**
 * The contracts rung's pages of the back office, as a merchant uses them at phone size. Escrow: the owner agrees
 * one from the page with a buyer and an arbiter (each a `pnpm wallet`), after the page has said in words what is
 * missing (a key given twice; the shop's wallet identity key, registered then); the buyer funds it through the
 * API with a coin from the faucet and signs the funding with the command the page copied, pasted back in the
 * page; the owner proposes the release from the page, signs it with the merchant's wallet, then the buyer's,
 * each from the copied command, and the page shows it released with its txid. Partially signed transactions:
 * a transaction spending one coin of the merchant's and one of a partner's is built on the page, each signs
 * their coin from the copied command, and it goes to the chain. An escrow of a pos order: agreed on the page by
 * the order's number, funded and signed by the buyer, its card shows the order, its total and that pos holds it
 * paid by the escrow, as the order's page does. Refusals on the way are said in words.
 */
describe.skipIf(!hasChromium)('the escrow and jointly signed transactions pages, in headless Chromium at phone size', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-contracts-'));
  const merchantWallet = join(dir, 'merchant.json');
  const buyerWallet = join(dir, 'buyer.json');
  const arbiterWallet = join(dir, 'arbiter.json');
  let instance: Instance;
  let browser: BrowserContext;
  let page: Page;
  let chainPort = 0;
  let handle = '';
  let ownerKey = '';
  let merchant: WalletInfo;
  let buyer: WalletInfo;
  let arbiter: WalletInfo;
  const problems: string[] = [];
  let step = 0;
  /** The whole page, and the part the step is about (`part`), which on a phone is far down a long page. */
  const shot = async (name: string, part?: Locator) => {
    step += 1;
    const path = join(ARTIFACTS, `${String(step).padStart(2, '0')}-${name}`);
    await page.screenshot({ path: `${path}.png`, fullPage: true });
    if (part) await part.screenshot({ path: `${path}-part.png` });
  };

  /** The command the page copied, run as a partner runs it in a terminal (the wallet's bin, with node); what it printed. */
  const runCopied = async (command: string): Promise<string> => {
    expect(command.startsWith('pnpm wallet ')).toBe(true);
    const args = command.slice('pnpm wallet '.length).split(' ');
    const { stdout } = await promisify(execFile)(process.execPath, [join(ROOT, 'packages/wallet/bin/ctk-wallet.mjs'), ...args], {
      cwd: ROOT,
      env: { ...process.env, CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: `http://127.0.0.1:${chainPort}` },
    });
    return stdout.trim();
  };

  /** In a joint transaction's part of the page: the wallet file typed, the command copied, run, and what it printed pasted back. */
  const signIn = async (part: Locator, walletFile: string, unsigned: string): Promise<string> => {
    await part.getByLabel(/^Wallet file/).fill(walletFile);
    await part.getByRole('button', { name: 'Copy the command' }).click();
    await part.getByRole('status').filter({ hasText: 'The command is copied' }).waitFor();
    const command = await page.evaluate(() => navigator.clipboard.readText());
    expect(command).toBe(`pnpm wallet --file ${walletFile} sign-transaction --partial ${unsigned}`);
    const signed = await runCopied(command);
    expect(signed).toMatch(/^[0-9a-f]+$/);
    await part.getByLabel(/^Signed transaction \(hex\)/).fill(signed);
    await part.getByRole('button', { name: 'Add the signatures' }).click();
    return signed;
  };

  beforeAll(async () => {
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    chainPort = await freePort();
    instance = await startInstance({ port: await freePort(), dataDir: join(dir, 'data'), chainPort });
    merchant = (await wallet(chainPort, merchantWallet, 'create')) as WalletInfo;
    buyer = (await wallet(chainPort, buyerWallet, 'create')) as WalletInfo;
    arbiter = (await wallet(chainPort, arbiterWallet, 'create')) as WalletInfo;
    // The shop opens without its wallet: the escrow page says what is missing.
    const onboarded = await api(instance.base, 'POST', '/api/v1/onboard', undefined, { name: 'Harbour Cakes' });
    expect(onboarded.status, JSON.stringify(onboarded.body)).toBe(201);
    ownerKey = onboarded.body.api_key.key;
    handle = onboarded.body.organization.handle;
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
    await page.getByRole('heading', { name: 'Harbour Cakes' }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  it('agrees an escrow from the page, the buyer funds and signs it, and the shop and the buyer release it: released, with its txid', async () => {
    // The dashboard links the page from the capability map, under its rung.
    await page.locator('summary').filter({ hasText: 'Contracts' }).click();
    await page.getByRole('link', { name: 'Escrow', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Escrow' }).waitFor();
    expect(page.url()).toBe(`${instance.base}/o/${handle}/escrow`);
    await page.getByText('any two of the three to move the money').waitFor();
    await page.getByText('No escrows yet. Agree one above.').waitFor();
    await page.getByText("the shop has none registered yet: add your wallet's public key in").waitFor();
    expect(await pageProblems(page)).toEqual([]);
    await shot('escrow-empty');

    // The same key for the buyer and the arbiter is refused beside the arbiter's field, before anything is sent.
    const form = page.getByRole('region', { name: 'Agree an escrow' });
    await form.getByLabel(/^Buyer's public key/).fill(buyer.public_key);
    await form.getByLabel(/^Arbiter's public key/).fill(buyer.public_key);
    await form.getByLabel(/^Amount in satoshis/).fill('150000');
    await form.getByText('150,000 satoshis (0.0015 BSV). At least 1,000 satoshis.').waitFor();
    await form.getByLabel(/^What it is for/).fill('Wedding cake, delivered on 12 June');
    await form.getByRole('button', { name: 'Agree the escrow' }).click();
    await expect(form.locator('#arbiter_public_key-problem').textContent()).resolves.toBe(
      'The arbiter must hold a key of their own: this is the buyer’s key.',
    );
    expect(await form.getByLabel(/^Arbiter's public key/).getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('arbiter_public_key');
    await shot('escrow-same-key', form);

    // The shop has registered no wallet identity key, its key in the lock: the refusal says where to add it.
    await form.getByLabel(/^Arbiter's public key/).fill(arbiter.public_key);
    await form.getByRole('button', { name: 'Agree the escrow' }).click();
    await form.getByRole('alert').filter({ hasText: "Your key in the lock is your wallet's identity key" }).waitFor();
    expect(await pageProblems(page)).toEqual([]);
    await shot('escrow-no-identity-key', form);

    // The owner registers the merchant's wallet, and agrees the escrow.
    const registered = await api(instance.base, 'PATCH', `/api/v1/organizations/${handle}`, ownerKey, {
      identity_public_key: merchant.public_key,
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    await page.reload();
    await form.waitFor();
    expect(await page.getByText('the shop has none registered yet').count()).toBe(0);
    await form.getByLabel(/^Buyer's public key/).fill(buyer.public_key);
    await form.getByLabel(/^Arbiter's public key/).fill(arbiter.public_key);
    await form.getByLabel(/^Amount in satoshis/).fill('150,000');
    await form.getByLabel(/^What it is for/).fill('Wedding cake, delivered on 12 June');
    await form.getByRole('button', { name: 'Agree the escrow' }).click();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /^Wedding cake/ }) });
    await card.getByText('Waiting for the buyer to fund it').waitFor();
    const [escrow] = (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/escrows`, ownerKey)).body.data;
    expect(escrow).toMatchObject({
      status: 'awaiting_funding',
      satoshis: 150000,
      buyer_public_key: buyer.public_key,
      seller_public_key: merchant.public_key,
      arbiter_public_key: arbiter.public_key,
      release_address: merchant.address,
      refund_address: buyer.address,
    });
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(`escrow-${escrow.id}`);
    await card.getByText('150,000 satoshis (0.0015 BSV)').waitFor();
    expect(await card.getByRole('link', { name: `${instance.base}/api/v1/escrows/${escrow.id}` }).getAttribute('href')).toBe(
      `/api/v1/escrows/${escrow.id}`,
    );
    await card.getByRole('button', { name: "Copy the escrow's link" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${instance.base}/api/v1/escrows/${escrow.id}`);
    expect(await pageProblems(page)).toEqual([]);
    await shot('escrow-agreed', card);

    // The buyer, with the escrow's link, names a coin from the faucet to fund it (the API, no key).
    const coin = (await wallet(chainPort, buyerWallet, 'faucet', '1000000')) as { txid: string; vout: number };
    const funded = await api(instance.base, 'POST', `/api/v1/escrows/${escrow.id}/funding`, undefined, {
      inputs: [{ txid: coin.txid, vout: coin.vout }],
      change_address: buyer.address,
    });
    expect(funded.status, JSON.stringify(funded.body)).toBe(200);
    expect(funded.body.status).toBe('funding');
    await card.getByRole('button', { name: 'Read again' }).click();
    await card.getByText("Funding: waiting for the buyer's signature").waitFor();
    const funding = card.getByRole('region', { name: /^Funding/ });
    await funding.getByText('Input 1').waitFor();
    await funding.getByText('to be signed by the buyer.', { exact: false }).waitFor();
    await funding.getByText(/150,000 satoshis \(0\.0015 BSV\) to the escrow's lock/).waitFor();
    const fundingHex = funded.body.funding.transaction as string;
    expect(await funding.getByLabel(/^Agreed transaction, unsigned/).inputValue()).toBe(fundingHex);

    // The unsigned transaction pasted back is caught by the page.
    await funding.getByLabel(/^Signed transaction \(hex\)/).fill(fundingHex);
    await funding.getByRole('button', { name: 'Add the signatures' }).click();
    await funding.getByRole('alert').filter({ hasText: 'That is the transaction before signing.' }).waitFor();
    expect(await pageProblems(page)).toEqual([]);
    await shot('escrow-funding-to-sign', funding);

    // The buyer signs it with the copied command and pastes it: on the chain, the escrow is funded.
    const signedFunding = await signIn(funding, buyerWallet, fundingHex);
    await funding.getByRole('status').filter({ hasText: 'Complete: every input is signed, and the transaction is on the chain' }).waitFor();
    await card.getByText('Funded: the lock holds the money').waitFor();
    await funding.getByText('Signed by the buyer.').waitFor();
    expect(await pageProblems(page)).toEqual([]);
    await shot('escrow-funded', card);

    // The owner proposes the release to the shop.
    await card.getByRole('button', { name: 'Propose the release to you' }).click();
    const release = card.getByRole('region', { name: /^Release to you/ });
    await release.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(`release-${escrow.id}`);
    await card.getByText('Settling: waiting for two signatures').waitFor();
    await release.getByText('to be signed by any 2 of the buyer, you, the arbiter.', { exact: false }).waitFor();
    expect(await card.getByRole('button', { name: 'Propose the release to you' }).count()).toBe(0);
    const settling = (await api(instance.base, 'GET', `/api/v1/escrows/${escrow.id}`)).body;
    const releaseHex = settling.release.transaction as string;

    // The funding's signed copy pasted into the release is another transaction: said in words.
    await release.getByLabel(/^Signed transaction \(hex\)/).fill(signedFunding);
    await release.getByRole('button', { name: 'Add the signatures' }).click();
    await release.getByRole('alert').filter({ hasText: 'That is not the transaction agreed here' }).waitFor();
    expect(await pageProblems(page)).toEqual([]);
    await shot('escrow-release-mismatch', release);

    // The merchant signs: kept, one more of the buyer or the arbiter needed.
    await signIn(release, merchantWallet, releaseHex);
    await release
      .getByRole('status')
      .filter({ hasText: 'The signatures are kept. Still needed: input 1: one more signature, from the buyer or the arbiter.' })
      .waitFor();
    await release.getByText('Signed by you (1 of 2).').waitFor();
    expect(await pageProblems(page)).toEqual([]);
    await shot('escrow-release-signed-by-you', release);

    // The buyer signs: complete, broadcast, released.
    await signIn(release, buyerWallet, releaseHex);
    await release.getByRole('status').filter({ hasText: 'Complete: every input is signed' }).waitFor({ timeout: 30_000 });
    await card.getByText('Released to you', { exact: true }).waitFor();
    const released = (await api(instance.base, 'GET', `/api/v1/escrows/${escrow.id}`)).body;
    expect(released).toMatchObject({ status: 'released', release: { status: 'broadcast', txid: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    await card.getByText(`Released in transaction ${released.release.txid}`).waitFor();
    await release.getByText(/Signed by (you and the buyer|the buyer and you) \(2 of 2\)\./).waitFor();
    expect(await card.getByRole('button', { name: /Propose/ }).count()).toBe(0);
    expect(await pageProblems(page)).toEqual([]);
    await shot('escrow-released', card);

    // The lock paid the merchant's wallet.
    await until(
      async () => (await wallet(chainPort, merchantWallet, 'balance')).satoshis,
      (satoshis) => satoshis === released.release.outputs[0].satoshis,
      "the merchant's wallet holds the release",
      60,
      500,
    );
    expect(problems).toEqual([]);
  }, 240_000);

  it('builds a transaction spending a coin of the shop and one of a partner, each signs theirs from the page, and it goes to the chain', async () => {
    const mine = (await wallet(chainPort, merchantWallet, 'faucet', '200000')) as { txid: string; vout: number };
    const theirs = (await wallet(chainPort, buyerWallet, 'faucet', '200000')) as { txid: string; vout: number };
    // The dashboard links the page from the capability map, under its rung.
    await page.goto(`${instance.base}/`);
    await page.locator('summary').filter({ hasText: 'Contracts' }).click();
    await page.getByRole('link', { name: 'Partially signed transactions' }).click();
    await page.getByRole('heading', { level: 1, name: 'Partially signed transactions' }).waitFor();
    expect(page.url()).toBe(`${instance.base}/o/${handle}/psbt`);
    await page.getByText('A transaction you and your partners sign together').waitFor();
    // The escrow's funding and release are the shop's joint transactions too, its parties named as the escrow names them.
    const escrowRelease = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /^Release of escrow/ }) });
    await escrowRelease.getByText(/Signed by (you and the buyer|the buyer and you) \(2 of 2\)\./).waitFor();
    expect(await escrowRelease.getByRole('link', { name: 'Escrow page' }).getAttribute('href')).toBe(`/o/${handle}/escrow`);
    expect(await pageProblems(page)).toEqual([]);
    await shot('psbt-page');

    // A line that is not a coin is refused beside its box, by its line.
    const form = page.getByRole('region', { name: 'Build a transaction' });
    await form.getByLabel(/^Coins it spends/).fill(`${mine.txid}:${mine.vout}\nnot-a-coin`);
    await form.getByLabel(/^What it pays/).fill(`${arbiter.address} 150000`);
    await form.getByRole('button', { name: 'Build the transaction' }).click();
    await expect(form.locator('#joint-inputs-problem').textContent()).resolves.toBe(
      "Line 2 is not a coin: write the transaction id, a colon and the output's number, such as <txid>:0.",
    );
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('joint-inputs');

    // Paying more than the coins hold is the service's refusal, beside the payments.
    await form.getByLabel(/^Coins it spends/).fill(`${mine.txid}:${mine.vout}\n${theirs.txid}:${theirs.vout}`);
    await form.getByLabel(/^What it pays/).fill(`${arbiter.address} 500000`);
    await form.getByRole('button', { name: 'Build the transaction' }).click();
    await expect
      .poll(() => form.locator('#joint-outputs-problem').textContent())
      .toMatch(/^The outputs pay 500000 satoshis, more than the inputs' 400000/);
    expect(await pageProblems(page)).toEqual([]);
    await shot('psbt-refused', form);

    await form.getByLabel(/^What it pays/).fill(`${arbiter.address} 150,000`);
    await form.getByLabel(/^Change address/).fill(merchant.address);
    await form.getByLabel(/^What it is for/).fill('Shared pot for the spring market stall');
    await form.getByRole('button', { name: 'Build the transaction' }).click();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /^Shared pot/ }) });
    await card.getByText('Not signed yet', { exact: true }).waitFor();
    const [joint] = (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/joint-transactions`, ownerKey)).body.data;
    expect(joint).toMatchObject({ status: 'collecting', description: 'Shared pot for the spring market stall' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(`joint-${joint.id}`);
    // The shop's own coin is signed by "you"; the partner's by the wallet of its address.
    await card.getByText('200,000 satoshis (0.002 BSV), to be signed by you.').waitFor();
    await card.getByText(`200,000 satoshis (0.002 BSV), to be signed by the wallet of ${buyer.address}.`).waitFor();
    await card.getByText(`150,000 satoshis (0.0015 BSV) to ${arbiter.address}`).waitFor();
    await card.getByText(`to you (${merchant.address})`).waitFor();
    expect(await card.getByRole('link', { name: `${instance.base}/api/v1/joint-transactions/${joint.id}` }).count()).toBe(1);
    expect(await pageProblems(page)).toEqual([]);
    await shot('psbt-built', card);

    // The shop signs its coin: kept, the partner's still needed.
    await signIn(card, merchantWallet, joint.transaction);
    await card
      .getByRole('status')
      .filter({ hasText: `The signatures are kept. Still needed: input 2: a signature from the wallet of ${buyer.address}.` })
      .waitFor();
    await card.getByText('Collecting signatures', { exact: true }).waitFor();
    expect(await pageProblems(page)).toEqual([]);
    await shot('psbt-signed-by-you', card);

    // The partner signs theirs: complete and on the chain.
    await signIn(card, buyerWallet, joint.transaction);
    await card.getByRole('status').filter({ hasText: 'Complete: every input is signed' }).waitFor({ timeout: 30_000 });
    const [done] = (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/joint-transactions`, ownerKey)).body.data;
    expect(done).toMatchObject({ id: joint.id, status: 'broadcast', txid: expect.stringMatching(/^[0-9a-f]{64}$/) });
    await card.getByText('On the chain', { exact: true }).waitFor();
    await card.getByText('Signed by you.', { exact: true }).waitFor();
    await card.getByText('Signed.', { exact: true }).waitFor();
    await card.getByText(done.txid, { exact: false }).first().waitFor();
    expect(await card.getByRole('button', { name: 'Add the signatures' }).count()).toBe(0);
    expect(await pageProblems(page)).toEqual([]);
    await shot('psbt-on-the-chain', card);
    expect(problems).toEqual([]);
  }, 180_000);

  it('agrees an escrow for a pos order by its number; funded by the buyer, the card shows the order held paid by it', async () => {
    // The counter takes orders once the shop's wallet receives payments (its xpub: a fresh address for each, none
    // of the coins the tests above sent its identity key's address), and the lock takes its identity key (as the
    // first test registered it): staff ring up a cake.
    const shopWallet = { identity_public_key: merchant.public_key, wallet_xpub: merchant.xpub };
    const registered = await api(instance.base, 'PATCH', `/api/v1/organizations/${handle}`, ownerKey, shopWallet);
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    const placed = await api(instance.base, 'POST', '/api/pos/orders', ownerKey, {
      org_handle: handle,
      currency: 'USD',
      lines: [{ name: 'Birthday cake', quantity: 1, unit_price_minor: 4500 }],
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const order = placed.body.order ?? placed.body;
    const total = `$${(order.total_minor / 100).toFixed(2)}`;
    await page.goto(`${instance.base}/o/${handle}/escrow`);
    const form = page.getByRole('region', { name: 'Agree an escrow' });
    await form.getByRole('radio', { name: 'A pos order' }).check();
    expect(await form.getByLabel(/^Amount in satoshis/).count()).toBe(0);
    await form.getByLabel(/^Buyer's public key/).fill(buyer.public_key);
    await form.getByLabel(/^Arbiter's public key/).fill(arbiter.public_key);

    // A number that is no order of the shop is the service's refusal, beside the number.
    await form.getByLabel(/^Order number/).fill('7Q2M9K4X1C');
    await form.getByRole('button', { name: 'Agree the escrow' }).click();
    await expect
      .poll(() => form.locator('#order_number-problem').textContent())
      .toBe("Your shop has no order with that number. Check it on the counter's screen or the receipt.");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('order_number');
    expect(await pageProblems(page)).toEqual([]);
    await shot('order-escrow-no-such-order', form);

    // The order's number, typed as staff might in lower case: the escrow holds what the order is due and the fee.
    await form.getByLabel(/^Order number/).fill(order.order_number.toLowerCase());
    await form.getByRole('button', { name: 'Agree the escrow' }).click();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: `Order ${order.order_number}` }) });
    await card.getByText('Waiting for funding: once the lock holds the money').waitFor();
    // The form is ready for the next one, as it first was.
    expect(await form.getByRole('radio', { name: 'An amount in satoshis' }).isChecked()).toBe(true);
    const escrow = (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/escrows`, ownerKey)).body.data.find(
      (each: { order_number?: string }) => each.order_number === order.order_number,
    );
    expect(escrow).toMatchObject({ status: 'awaiting_funding', order_payment: 'pending', order_total_minor: order.total_minor });
    expect(escrow.satoshis).toBeGreaterThan(order.due_satoshis);
    await card.getByText(total, { exact: true }).waitFor();
    await shot('order-escrow-agreed', card);

    // The buyer funds it through the API and signs the funding from the page: pos holds the order paid by it.
    const coin = (await wallet(chainPort, buyerWallet, 'faucet', String(escrow.satoshis + 100_000))) as { txid: string; vout: number };
    const funded = await api(instance.base, 'POST', `/api/v1/escrows/${escrow.id}/funding`, undefined, {
      inputs: [{ txid: coin.txid, vout: coin.vout }],
      change_address: buyer.address,
    });
    expect(funded.status, JSON.stringify(funded.body)).toBe(200);
    await card.getByRole('button', { name: 'Read again' }).click();
    const funding = card.getByRole('region', { name: /^Funding/ });
    await signIn(funding, buyerWallet, funded.body.funding.transaction);
    await card.getByText('Funded: the lock holds the money').waitFor({ timeout: 30_000 });
    await card.getByText('pos holds the order paid by this escrow.').waitFor();
    await card.getByRole('button', { name: 'Propose the release to you' }).waitFor();
    expect(await pageProblems(page)).toEqual([]);
    await shot('order-escrow-funded', card);
    expect((await api(instance.base, 'GET', `/api/pos/orders/${order.order_number}`)).body).toMatchObject({
      status: 'paid_elsewhere',
      paid_elsewhere_by: 'escrow',
    });

    // The order's own page says so too.
    await page.goto(`${instance.base}/pay/${order.order_number}`);
    await page.getByText('Paid into escrow').waitFor();
    await shot('order-escrow-order-page');
    expect(problems).toEqual([]);
  }, 90_000);
});
