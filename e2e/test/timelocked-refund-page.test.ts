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
const ARTIFACTS = join(ROOT, 'e2e/artifacts/timelocked-refund');
const PHONE = { width: 390, height: 844 };
/** The shop's time zone, not the browser's nor UTC: the refund date is typed and shown on the shop's clock. */
const SHOP_ZONE = 'America/New_York';

type WalletInfo = { address: string; public_key: string };

const hasChromium = chromiumInstalled('timelocked-refund-page.test.ts');

/** A moment as a time zone's wall clock reads it, to the minute: "2026-11-25T18:00". */
function wallClockIn(moment: Date | string, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(new Date(moment));
  const part = (type: string) => parts.find((found) => found.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`;
}

/** A raw transaction's nLockTime: its last four bytes, little-endian. */
const lockTimeOf = (hex: string) => Buffer.from(hex.slice(-8), 'hex').readUInt32LE(0);

/**
 * The time-locked refund page of the back office (decision 0039), as a merchant uses it at phone size: the owner
 * agrees one from the page with a buyer (a `pnpm wallet`), refundable after tomorrow at 18:00 on the shop's clock
 * (New York), after the page refused a date in the past beside its field; the buyer funds it through the API
 * with a coin from the faucet and signs the funding with the command the page copied, pasted back: the service
 * keeps it off the chain, and reading it again gives the refund to sign. The buyer and the merchant each sign
 * the refund from the copied command: the funding goes to the chain, and it is active. The owner proposes the
 * release from the page, both sign it, and it is released, with its txid; the refund can no longer be taken.
 */
describe.skipIf(!hasChromium)('the time-locked refund page, in headless Chromium at phone size', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-timelocked-'));
  const merchantWallet = join(dir, 'merchant.json');
  const buyerWallet = join(dir, 'buyer.json');
  let instance: Instance;
  let browser: BrowserContext;
  let page: Page;
  let chainPort = 0;
  let handle = '';
  let ownerKey = '';
  let merchant: WalletInfo;
  let buyer: WalletInfo;
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
    const onboarded = await api(instance.base, 'POST', '/api/v1/onboard', undefined, { name: 'Harbour Cakes' });
    expect(onboarded.status, JSON.stringify(onboarded.body)).toBe(201);
    ownerKey = onboarded.body.api_key.key;
    handle = onboarded.body.organization.handle;
    // The shop's wallet identity key is its key in the lock; its clock is New York's.
    const registered = await api(instance.base, 'PATCH', `/api/v1/organizations/${handle}`, ownerKey, {
      identity_public_key: merchant.public_key,
      time_zone: SHOP_ZONE,
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    browser = await openChromium(dir, PHONE);
    await browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: instance.base });
    page = await browser.newPage();
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
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

  it('agrees one from the page, the buyer funds it, both sign the refund (active), then both sign the release: released', async () => {
    // The dashboard links the page from the capability map, under its rung.
    await page.locator('summary').filter({ hasText: 'Contracts' }).click();
    await page.getByRole('link', { name: 'Time-locked refund', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Time-locked refund' }).waitFor();
    expect(page.url()).toBe(`${instance.base}/o/${handle}/timelocked-refund`);
    await page.getByText('you both sign a refund that pays it back to the buyer', { exact: false }).waitFor();
    await page.getByText('None yet. Agree one above.').waitFor();
    expect(await pageProblems(page)).toEqual([]);
    await shot('empty');

    // A date in the past is refused beside its field, before anything is sent; the field names the shop's zone.
    const form = page.getByRole('region', { name: 'Agree a time-locked refund' });
    await form.getByText(`On the shop's clock (${SHOP_ZONE}).`, { exact: false }).waitFor();
    await form.getByLabel(/^Buyer's public key/).fill(buyer.public_key);
    await form.getByLabel(/^Amount in satoshis/).fill('50,000');
    await form.getByText('50,000 satoshis (0.0005 BSV). At least 1,000 satoshis.').waitFor();
    const yesterday = wallClockIn(new Date(Date.now() - 86_400_000), SHOP_ZONE);
    await form.getByLabel(/^Refund after/).fill(yesterday);
    await form.getByLabel(/^What it is for/).fill('Deposit on a wedding cake');
    await form.getByRole('button', { name: 'Agree the time-locked refund' }).click();
    await expect(form.locator('#refund_after-problem').textContent()).resolves.toBe('Choose a date and time at least an hour from now.');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('refund_after');
    expect(await pageProblems(page)).toEqual([]);
    await shot('date-refused', form);

    // Tomorrow at 18:00 on the shop's clock: said back in full with its zone, and sent as that moment.
    const tomorrow = `${wallClockIn(new Date(Date.now() + 86_400_000), SHOP_ZONE).slice(0, 10)}T18:00`;
    await form.getByLabel(/^Refund after/).fill(tomorrow);
    expect(await form.locator('#refund_after-problem').count()).toBe(0);
    await form.getByText(`at 6:00 PM, ${SHOP_ZONE} time.`, { exact: false }).waitFor();
    await form.getByRole('button', { name: 'Agree the time-locked refund' }).click();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /^Deposit on a wedding cake/ }) });
    await card.getByText('Waiting for the buyer to fund it').waitFor();
    const [agreed] = (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/timelocked-refunds`, ownerKey)).body.data;
    expect(agreed).toMatchObject({
      status: 'awaiting_funding',
      satoshis: 50000,
      description: 'Deposit on a wedding cake',
      buyer_public_key: buyer.public_key,
      seller_public_key: merchant.public_key,
      release_address: merchant.address,
      refund_address: buyer.address,
    });
    expect(wallClockIn(agreed.refund_after, SHOP_ZONE)).toBe(tomorrow);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(`timelocked-refund-${agreed.id}`);
    await card.getByText('50,000 satoshis (0.0005 BSV)').waitFor();
    // Its date on the shop's clock, the zone named.
    const dateFact = card.locator('dd').filter({ hasText: `${SHOP_ZONE} time` });
    await expect.poll(() => dateFact.textContent()).toMatch(/, 6:00\sPM\sAmerica\/New_York time$/);
    expect(await card.getByRole('link', { name: `${instance.base}/api/v1/timelocked-refunds/${agreed.id}` }).getAttribute('href')).toBe(
      `/api/v1/timelocked-refunds/${agreed.id}`,
    );
    await card.getByRole('button', { name: 'Copy the link for the buyer' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${instance.base}/api/v1/timelocked-refunds/${agreed.id}`);
    expect(await pageProblems(page)).toEqual([]);
    await shot('agreed', card);

    // The buyer, with the link, names a coin from the faucet to fund it (the API, no key); "Read again" shows it.
    const coin = (await wallet(chainPort, buyerWallet, 'faucet', '1000000')) as { txid: string; vout: number };
    const funded = await api(instance.base, 'POST', `/api/v1/timelocked-refunds/${agreed.id}/funding`, undefined, {
      inputs: [{ txid: coin.txid, vout: coin.vout }],
      change_address: buyer.address,
    });
    expect(funded.status, JSON.stringify(funded.body)).toBe(200);
    await card.getByRole('button', { name: 'Read again' }).click();
    await card.getByText("Funding: waiting for the buyer's signature").waitFor();
    const funding = card.getByRole('region', { name: /^Funding/ });
    await funding.getByText('to be signed by the buyer.', { exact: false }).waitFor();
    await funding.getByText('50,000 satoshis (0.0005 BSV) to the lock').waitFor();
    const fundingHex = funded.body.funding.transaction as string;
    expect(await funding.getByLabel(/^Agreed transaction, unsigned/).inputValue()).toBe(fundingHex);
    expect(await pageProblems(page)).toEqual([]);
    await shot('funding-to-sign', funding);

    // The buyer signs it with the copied command and pastes it: complete, and kept off the chain.
    await signIn(funding, buyerWallet, fundingHex);
    await funding.getByRole('status').filter({ hasText: 'Complete: every input is signed, and the service keeps it.' }).waitFor();
    await funding.getByText('The service keeps it off the chain until you and the buyer have both signed the refund.').waitFor();
    expect(await funding.getByRole('button', { name: 'Send it to the chain again' }).count()).toBe(0);
    // Read again: the refund to sign, built on the signed funding.
    await card.getByRole('button', { name: 'Read again' }).click();
    await card.getByText('Signing the refund: you and the buyer').waitFor();
    const refundPart = card.getByRole('region', { name: /^Refund to the buyer, after/ });
    await refundPart.getByText('to be signed by both the buyer and you.', { exact: false }).waitFor();
    const signing = (await api(instance.base, 'GET', `/api/v1/timelocked-refunds/${agreed.id}`)).body;
    expect(signing).toMatchObject({ status: 'signing_refund', funding: { status: 'signed' }, refund: { status: 'collecting' } });
    const refundHex = signing.refund.transaction as string;
    expect(await refundPart.getByLabel(/^Agreed transaction, unsigned/).inputValue()).toBe(refundHex);
    expect(await pageProblems(page)).toEqual([]);
    await shot('refund-to-sign', card);

    // The buyer signs the refund: kept, the shop's signature still needed.
    await signIn(refundPart, buyerWallet, refundHex);
    await refundPart
      .getByRole('status')
      .filter({ hasText: 'The signatures are kept. Still needed: input 1: one more signature, from you.' })
      .waitFor();
    await refundPart.getByText('Signed by the buyer (1 of 2).').waitFor();
    expect(await pageProblems(page)).toEqual([]);
    await shot('refund-signed-by-the-buyer', refundPart);

    // The merchant signs it: the refund is complete and held, the funding goes to the chain, and it is active.
    await signIn(refundPart, merchantWallet, refundHex);
    await card.getByText('Active: the lock holds the money').waitFor({ timeout: 30_000 });
    const active = (await api(instance.base, 'GET', `/api/v1/timelocked-refunds/${agreed.id}`)).body;
    expect(active).toMatchObject({ status: 'active', funding: { status: 'broadcast' }, refund: { status: 'signed' } });
    expect(lockTimeOf(active.refund.signed_transaction)).toBe(Date.parse(agreed.refund_after) / 1000);
    await funding.getByText('On the chain', { exact: true }).waitFor();
    // What the funding's paste said (kept off the chain) no longer stands: its summary says it is on the chain.
    expect(await funding.getByText('and the service keeps it').count()).toBe(0);
    await refundPart.getByText(/Signed by (you and the buyer|the buyer and you) \(2 of 2\)\./).waitFor();
    await refundPart.getByText('The buyer keeps it. The chain takes it only after', { exact: false }).waitFor();
    await card.getByRole('button', { name: 'Copy the signed refund' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(active.refund.signed_transaction);
    expect(await pageProblems(page)).toEqual([]);
    await shot('active', card);

    // The owner proposes the release to the shop.
    await card.getByRole('button', { name: 'Propose the release to you' }).click();
    const release = card.getByRole('region', { name: /^Release to you/ });
    await release.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(`release-${agreed.id}`);
    await release.getByText('to be signed by both the buyer and you.', { exact: false }).waitFor();
    expect(await card.getByRole('button', { name: 'Propose the release to you' }).count()).toBe(0);
    const releasing = (await api(instance.base, 'GET', `/api/v1/timelocked-refunds/${agreed.id}`)).body;
    const releaseHex = releasing.release.transaction as string;
    expect(await pageProblems(page)).toEqual([]);
    await shot('release-proposed', release);

    // The merchant signs, then the buyer: complete, on the chain, released.
    await signIn(release, merchantWallet, releaseHex);
    await release
      .getByRole('status')
      .filter({ hasText: 'The signatures are kept. Still needed: input 1: one more signature, from the buyer.' })
      .waitFor();
    await signIn(release, buyerWallet, releaseHex);
    await release.getByRole('status').filter({ hasText: 'Complete: every input is signed' }).waitFor({ timeout: 30_000 });
    await card.getByText('Released to you', { exact: true }).waitFor();
    const released = (await api(instance.base, 'GET', `/api/v1/timelocked-refunds/${agreed.id}`)).body;
    expect(released).toMatchObject({ status: 'released', release: { status: 'broadcast', txid: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    await card.getByText(`Paid in transaction ${released.release.txid}`).waitFor();
    await refundPart.getByText('It can never be taken now: the release spent the lock first.').waitFor();
    expect(await refundPart.getByText('and the service keeps it').count()).toBe(0);
    expect(await card.getByRole('button', { name: /Propose/ }).count()).toBe(0);
    expect(await pageProblems(page)).toEqual([]);
    await shot('released', card);

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
});
