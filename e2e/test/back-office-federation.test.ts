import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, openChromium } from './browser.js';
import { api, freePort, ROOT, startInstance, stopInstance, type Instance } from './instance.js';
import { pageProblems } from './page-checks.js';

/** Screenshots of each step at phone and desktop size, kept after the run (git ignores the folder). */
const ARTIFACTS = join(ROOT, 'e2e/artifacts/back-office-federation');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
// Not the browser's zone (the machine's): the pages must say the shop's times in the shop's zone.
const ZONE = 'America/Los_Angeles';

const hasChromium = chromiumInstalled('back-office-federation.test.ts');
/** expect.poll with time for a page to load and a save to land on a busy machine. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });

type Sign = { open: boolean; until: string | null; reason: string; note: string | null; time_zone: string };

/** A time of day in the shop's zone as the pages write it in en-US ("2:00 AM"). */
const clock = (iso: string) =>
  spaced(new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone: ZONE }).format(new Date(iso)));
/** Text with any space as a plain one (ICU writes "2:00\u202fAM"). */
const spaced = (text: string | null) => (text ?? '').replace(/\s/g, ' ');

describe.skipIf(!hasChromium)("a shop's open sign and its place in the federation, in the back office at phone size", () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-bo-federation-'));
  let instance: Instance;
  let browser: BrowserContext;
  let page: Page;
  let ownerKey = '';
  let handle = '';
  // Script errors and failed requests any page reported; each step expects none but those it names.
  const errors: string[] = [];
  let step = 0;
  const snap = async (name: string) => {
    step++;
    const file = (size: string) => join(ARTIFACTS, `${String(step).padStart(2, '0')}-${name}-${size}.png`);
    await page.screenshot({ path: file('phone'), fullPage: true });
    await page.setViewportSize(DESKTOP);
    await page.screenshot({ path: file('desktop'), fullPage: true });
    await page.setViewportSize(PHONE);
  };
  const listen = (tab: Page) => {
    tab.on('pageerror', (error) => errors.push(`script error: ${error.message}`));
    tab.on('console', (message) => {
      // The marketplace page reads the shop's feed and listing: a 404 until the first publish, which it says in words.
      const unpublished =
        /\/api\/v1\/(feeds|discover\/merchants)\/[^/]+$/.test(message.location().url) && /status of 404/.test(message.text());
      if (message.type() === 'error' && !unpublished) errors.push(`console: ${message.text()} (${message.location().url})`);
    });
  };
  const sign = async () => (await api(instance.base, 'GET', `/api/v1/shops/${handle}/sign`)).body.sign as Sign;
  // What the page shows of the sign: its words, its note, and what the badge (an SVG image) says.
  const shown = async () => ({
    words: spaced(await page.locator('#sign-words').textContent()),
    note: (await page.locator('#sign-words-note').count()) ? await page.locator('#sign-words-note').textContent() : null,
    badge: decodeURIComponent((await page.getByRole('img', { name: /^Night Owl Cafe: / }).getAttribute('src')) ?? ''),
  });
  const day = (name: string) => page.getByRole('group', { name, exact: true });
  const signIn = async (tab: Page, key: string) => {
    await tab.goto(`${instance.base}/`);
    await tab.getByText('Use an API key instead').click();
    await tab.getByLabel('API key').fill(key);
    await tab.getByRole('button', { name: 'Sign in with the API key' }).click();
    await tab.getByRole('heading', { name: 'Night Owl Cafe' }).waitFor();
  };

  beforeAll(async () => {
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    instance = await startInstance({ port: await freePort(), dataDir: join(dir, 'data'), chainPort: await freePort() });
    const onboarded = await api(instance.base, 'POST', '/api/v1/onboard', undefined, {
      name: 'Night Owl Cafe',
      paymail_alias: 'nightowl',
      time_zone: ZONE,
    });
    expect(onboarded.status, JSON.stringify(onboarded.body)).toBe(201);
    ownerKey = onboarded.body.api_key.key;
    handle = onboarded.body.organization.handle;
    browser = await openChromium(dir, PHONE);
    await browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: instance.base });
    page = await browser.newPage();
    listen(page);
    await signIn(page, ownerKey);
  });

  afterAll(async () => {
    await browser?.close();
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  it('sets the week in the hours editor (two periods on Monday, Saturday past midnight), saves, and the sign says what the public sign says', async () => {
    await page.goto(`${instance.base}/o/${handle}/open-sign`);
    await poll(() => page.locator('#sign-words').textContent()).toBe('Closed, no opening hours published yet.');
    expect(await pageProblems(page)).toEqual([]);
    await snap('no-hours');

    await day('Monday').getByLabel('Closed', { exact: true }).uncheck();
    await day('Monday').getByLabel('Opens').fill('07:00');
    await day('Monday').getByLabel('Closes').fill('11:30');
    await day('Monday').getByRole('button', { name: 'Add a second period' }).click();
    await day('Monday').getByLabel('Opens').nth(1).fill('12:30');
    await day('Monday').getByLabel('Closes').nth(1).fill('17:00');
    await day('Monday').getByRole('button', { name: 'Same hours Tuesday to Friday' }).click();
    await day('Saturday').getByLabel('Closed', { exact: true }).uncheck();
    await day('Saturday').getByLabel('Opens').fill('18:00');
    await day('Saturday').getByLabel('Closes').fill('02:00');
    expect(spaced(await day('Saturday').locator('.period-note').textContent())).toBe('Runs past midnight: closes at 2:00 AM on Sunday.');
    await day('Sunday').getByLabel('Closed', { exact: true }).uncheck();
    await day('Sunday').getByLabel('Opens').fill('09:00');
    await day('Sunday').getByLabel('Closes').fill('15:00');
    // A holiday a month from now, closed, with a note.
    const holiday = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await page.getByRole('button', { name: 'Add a special day' }).click();
    await page.getByLabel('Date').fill(holiday);
    await page.getByRole('form', { name: 'Opening hours' }).getByLabel('Note for customers').fill('Closed for the holiday');
    await page.getByRole('button', { name: 'Save the hours' }).click();
    await poll(() => page.getByRole('status').filter({ hasText: 'Saved' }).textContent()).toBe('Saved: the sign follows the new hours.');

    const hours = (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/hours`, ownerKey)).body;
    const weekday = (d: string) => [
      { day: d, opens: '07:00', closes: '11:30' },
      { day: d, opens: '12:30', closes: '17:00' },
    ];
    expect(hours).toEqual({
      regular: [
        ...['mon', 'tue', 'wed', 'thu', 'fri'].flatMap(weekday),
        { day: 'sat', opens: '18:00', closes: '02:00' },
        { day: 'sun', opens: '09:00', closes: '15:00' },
      ],
      special: [{ date: holiday, periods: [], note: 'Closed for the holiday' }],
      override: null,
      time_zone: ZONE,
    });
    // The page's words and badge say what the public sign says now, its time in the shop's zone.
    const now = await sign();
    const seen = await shown();
    expect(seen.words.startsWith(now.open ? 'Open now ' : 'Closed now, ')).toBe(true);
    if (now.until) expect(seen.words).toContain(clock(now.until));
    expect(seen.badge).toContain(now.open ? '>Open<' : '>Closed<');
    expect(await pageProblems(page)).toEqual([]);
    await snap('hours-saved');
    expect(errors).toEqual([]);
  });

  it('shows what is wrong with a time beside its input, and saves once it is right', async () => {
    const notSaved = page.getByRole('alert').filter({ hasText: 'Not saved' });
    // A closing time left out.
    await day('Sunday').getByLabel('Closes').fill('');
    await page.getByRole('button', { name: 'Save the hours' }).click();
    await poll(() => notSaved.textContent()).toBe('Not saved: one entry needs a look, marked above in red.');
    const closes: Locator = day('Sunday').getByLabel('Closes');
    expect(await closes.getAttribute('aria-invalid')).toBe('true');
    const problemId = (await closes.getAttribute('aria-describedby'))!.split(' ')[0]!;
    expect(await day('Sunday').locator(`#${problemId}`).textContent()).toBe('Give the closing time.');
    expect(await pageProblems(page)).toEqual([]);
    await snap('hours-problem-time');

    // Monday's second period opening before its first closes.
    await closes.fill('15:00');
    const overlapping = day('Monday').getByLabel('Opens').nth(1);
    await overlapping.fill('11:00');
    await page.getByRole('button', { name: 'Save the hours' }).click();
    await poll(() => overlapping.getAttribute('aria-invalid')).toBe('true');
    expect(await closes.getAttribute('aria-invalid')).toBe(null);
    const overlapId = (await overlapping.getAttribute('aria-describedby'))!.split(' ')[0]!;
    expect(spaced(await day('Monday').locator(`#${overlapId}`).textContent())).toBe("Overlaps Monday's 7:00 AM to 11:30 AM period.");
    expect(await notSaved.textContent()).toBe('Not saved: one entry needs a look, marked above in red.');
    await snap('hours-problem-overlap');

    await overlapping.fill('12:30');
    await page.getByRole('button', { name: 'Save the hours' }).click();
    await poll(() => page.getByRole('status').filter({ hasText: 'Saved' }).count()).toBe(1);
    expect(await page.locator('[aria-invalid="true"]').count()).toBe(0);
    // The two refusals (422) were what this step expected.
    expect(errors.filter((e) => !e.includes('status of 422'))).toEqual([]);
    errors.length = 0;
  });

  it('puts up "Closed now" for an hour with a note: the sign says Closed with it, and goes back to the hours on request', async () => {
    const form = page.getByRole('form', { name: 'Change the sign now' });
    await form.getByLabel('Closed now').check();
    await form.getByRole('combobox', { name: /^For/ }).selectOption('60');
    await form.getByLabel('Note for customers').fill('At the farmers market, back soon');
    const before = Date.now();
    await form.getByRole('button', { name: 'Put up the sign' }).click();
    await poll(async () => (await shown()).words).toMatch(/^Closed now, opens /);
    const now = await sign();
    expect(now).toMatchObject({ open: false, reason: 'override', note: 'At the farmers market, back soon' });
    // The sign put up lasts the hour chosen; the sign says Closed until then, or later when the hours keep the shop
    // closed past it (at night), whatever the time of day the test runs.
    const override = (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/hours`, ownerKey)).body.override as { until: string };
    expect(Math.abs(Date.parse(override.until) - before - 3_600_000)).toBeLessThan(120_000);
    expect(Date.parse(now.until!)).toBeGreaterThanOrEqual(Date.parse(override.until));
    // The note is drawn with the sign's words, or just after them on a busy machine.
    await poll(async () => (await shown()).note).toBe('At the farmers market, back soon');
    const seen = await shown();
    expect(seen.badge).toContain('>Closed<');
    expect(
      await page.getByText(/^The sign says Closed until .+, whatever your hours say: At the farmers market, back soon\.$/).isVisible(),
    ).toBe(true);
    expect(await pageProblems(page)).toEqual([]);
    await snap('closed-now');

    await page.getByRole('button', { name: 'Back to the usual hours now' }).click();
    await poll(async () => (await sign()).reason).not.toBe('override');
    await poll(async () => (await shown()).note).toBe(null);
    expect((await shown()).words.startsWith((await sign()).open ? 'Open now' : 'Closed now')).toBe(true);
    expect(errors).toEqual([]);
  });

  it("copies the badge's code for the shop's own web site, which embeds the public SVG sign", async () => {
    await page.getByRole('button', { name: 'Copy the code' }).click();
    await poll(() => page.getByRole('status').filter({ hasText: 'Copied' }).isVisible()).toBe(true);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const src = `${instance.base}/api/v1/shops/${handle}/sign?format=svg`;
    expect(copied).toBe(`<img src="${src}" alt="Night Owl Cafe: open or closed right now" width="220" height="40">`);
    const badge = await fetch(src);
    expect(badge.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await badge.text()).toContain('Night Owl Cafe');
    await snap('embed');
    expect(errors).toEqual([]);
  });

  it('shows staff the hours read only, and tells them in words that publishing the catalog is an admin’s', async () => {
    const added = await api(instance.base, 'POST', `/api/v1/orgs/${handle}/members`, ownerKey, { name: 'Sam', role: 'staff' });
    const staff = await browser.newPage();
    listen(staff);
    await signIn(staff, added.body.api_key.key);
    await staff.goto(`${instance.base}/o/${handle}/open-sign`);
    await poll(() => staff.getByText(/only the shop’s owner or an admin can change them/).isVisible()).toBe(true);
    expect(spaced(await staff.getByRole('row', { name: /Saturday/ }).textContent())).toBe('Saturday6:00 PM to 2:00 AM');
    expect(await staff.getByRole('button', { name: 'Save the hours' }).count()).toBe(0);
    expect(await pageProblems(staff)).toEqual([]);
    await staff.screenshot({ path: join(ARTIFACTS, 'staff-open-sign-phone.png'), fullPage: true });

    await staff.goto(`${instance.base}/o/${handle}/federated-marketplace`);
    await staff.getByRole('button', { name: 'Publish my catalog' }).click();
    await expect
      .poll(() => staff.getByRole('alert').filter({ hasText: 'Only' }).textContent())
      .toBe("Only the shop's owner or an admin can publish the catalog. Ask one of them to do it.");
    await staff.close();
    // The 403 refused was what this step expected.
    expect(errors.filter((e) => !/status of 403/.test(e))).toEqual([]);
    errors.length = 0;
  });

  it('publishes the catalog: version 1 with the item, the signed feed, how customers find the shop, and a search', async () => {
    const item = await api(instance.base, 'POST', `/api/v1/orgs/${handle}/items`, ownerKey, {
      name: 'Oat milk latte',
      price_cents: 450,
      currency: 'USD',
      category: 'Coffee',
    });
    expect(item.status).toBe(201);
    await page.goto(`${instance.base}/o/${handle}/federated-marketplace`);
    await poll(() => page.getByText('Not published yet: no other instance lists your shop.').isVisible()).toBe(true);
    // No place on the map yet: Settings is where it is set.
    expect(await page.locator('.notice').getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe('/settings');
    const peers = (await api(instance.base, 'GET', '/api/v1/peers')).body;
    expect(await page.getByText(`This instance: ${peers.self.url}`).isVisible()).toBe(true);
    expect(await page.getByText(/^No peers yet/).isVisible()).toBe(true);
    expect(await pageProblems(page)).toEqual([]);
    await snap('marketplace-unpublished');

    await page.getByRole('button', { name: 'Publish my catalog' }).click();
    await poll(() => page.getByRole('status').filter({ hasText: 'Published' }).textContent()).toBe('Published: version 1.');
    const facts = page.getByRole('definition');
    expect(await facts.allTextContents()).toEqual(['1', '1', expect.any(String), 'This instance only']);
    const feed = (await api(instance.base, 'GET', `/api/v1/feeds/${handle}`)).body.summary;
    expect(feed).toMatchObject({ sequence: 1, item_count: 1, merchant_signed: false });
    expect(await page.getByRole('link', { name: 'The signed feed (JSON)' }).getAttribute('href')).toBe(feed.feed_url);
    const listing = page.getByRole('article', { name: 'Night Owl Cafe, as customers see it' });
    await poll(() => listing.getByText('Oat milk latte').isVisible()).toBe(true);
    expect(await listing.getByText('$4.50').isVisible()).toBe(true);
    const state = await sign();
    expect((await listing.locator('.sign-words').textContent())!.startsWith(state.open ? 'Open now' : 'Closed now')).toBe(true);

    await page.getByLabel('Words').fill('latte');
    await page.getByRole('button', { name: 'Search' }).click();
    const results = page.getByRole('status', { name: 'Search results' });
    await poll(() => results.getByText('Oat milk latte').isVisible()).toBe(true);
    expect(await results.getByText('Night Owl Cafe').isVisible()).toBe(true);
    expect(await pageProblems(page)).toEqual([]);
    await snap('marketplace-published');
    expect(errors).toEqual([]);
  });

  it('sets the shop’s place and category in Settings; published again, customers nearby find it', async () => {
    await page.goto(`${instance.base}/settings`);
    const place = page.getByRole('form', { name: 'Where customers find you' });
    await place.getByLabel('Category').fill('Cafe');
    // The place this device is at (the browser's geolocation, allowed for the page).
    await browser.grantPermissions(['clipboard-read', 'clipboard-write', 'geolocation'], { origin: instance.base });
    await browser.setGeolocation({ latitude: 37.7765, longitude: -122.4172 });
    await place.getByRole('button', { name: 'Use this device’s location' }).click();
    await poll(() => place.getByLabel('Latitude').inputValue()).toBe('37.77650');
    expect(await place.getByLabel('Longitude').inputValue()).toBe('-122.41720');
    await place.getByRole('button', { name: 'Save the place' }).click();
    await poll(() => place.getByRole('status').isVisible()).toBe(true);
    expect(await pageProblems(page)).toEqual([]);
    await snap('settings-place');

    await page.goto(`${instance.base}/o/${handle}/federated-marketplace`);
    await poll(() => page.getByText('Listed as Cafe at 37.7765, -122.4172, from your Settings.').isVisible()).toBe(true);
    const before = (await api(instance.base, 'GET', `/api/v1/feeds/${handle}`)).body.summary.sequence as number;
    await page.getByRole('button', { name: 'Publish again' }).click();
    await poll(() => page.getByRole('status').filter({ hasText: 'Published' }).textContent()).toBe(`Published: version ${before + 1}.`);
    const nearby = await api(instance.base, 'GET', '/api/v1/discover/nearby?latitude=37.776&longitude=-122.417&radius_m=2000');
    expect(nearby.body.data.map((m: { handle: string }) => m.handle)).toContain(handle);
    await poll(() => page.getByRole('article').locator('.tag', { hasText: 'Cafe' }).isVisible()).toBe(true);
    await snap('marketplace-placed');
    expect(errors).toEqual([]);
  });
});
