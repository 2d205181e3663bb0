import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, openChromium } from './browser.js';
import { api, freePort, ROOT, startInstance, stopInstance, type Instance } from './instance.js';
import { pageProblems } from './page-checks.js';

/** Screenshots of each step at phone and desktop size, kept after the run (git ignores the folder). */
const ARTIFACTS = join(ROOT, 'e2e/artifacts/back-office-site');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

const hasChromium = chromiumInstalled('back-office-site.test.ts');
/** expect.poll with time for a page to load and a save to land on a busy machine. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });

describe.skipIf(!hasChromium)("a cafe owner builds, previews and publishes the shop's web site, in the back office at phone size", () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-bo-site-'));
  let instance: Instance;
  let browser: BrowserContext;
  let page: Page;
  let ownerKey = '';
  let handle = '';
  // Script errors and failed requests any page reported; each step expects none but those it names.
  const errors: string[] = [];
  let step = 0;
  const snap = async (name: string, tab = page) => {
    step++;
    const file = (size: string) => join(ARTIFACTS, `${String(step).padStart(2, '0')}-${name}-${size}.png`);
    await tab.screenshot({ path: file('phone'), fullPage: true });
    await tab.setViewportSize(DESKTOP);
    await tab.screenshot({ path: file('desktop'), fullPage: true });
    await tab.setViewportSize(PHONE);
  };
  const listen = (tab: Page) => {
    tab.on('pageerror', (error) => errors.push(`script error: ${error.message}`));
    tab.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()} (${message.location().url})`);
    });
  };
  const signIn = async (tab: Page, key: string) => {
    await tab.goto(`${instance.base}/`);
    await tab.getByText('Use an API key instead').click();
    await tab.getByLabel('API key').fill(key);
    await tab.getByRole('button', { name: 'Sign in with the API key' }).click();
    await tab.getByRole('heading', { name: 'Night Owl Cafe' }).waitFor();
  };
  const site = async () => (await api(instance.base, 'GET', `/api/v1/orgs/${handle}/site`, ownerKey)).body;
  const form = () => page.getByRole('form', { name: 'Site settings' });
  const saved = () => page.getByRole('status').filter({ hasText: 'Saved' });

  beforeAll(async () => {
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    instance = await startInstance({ port: await freePort(), dataDir: join(dir, 'data'), chainPort: await freePort() });
    const onboarded = await api(instance.base, 'POST', '/api/v1/onboard', undefined, {
      name: 'Night Owl Cafe',
      paymail_alias: 'nightowl',
      time_zone: 'America/Los_Angeles',
    });
    expect(onboarded.status, JSON.stringify(onboarded.body)).toBe(201);
    ownerKey = onboarded.body.api_key.key;
    handle = onboarded.body.organization.handle;
    // A menu to show, and the commerce key its Buy buttons need.
    const item = await api(instance.base, 'POST', `/api/v1/orgs/${handle}/items`, ownerKey, {
      name: 'Oat milk latte',
      price_cents: 450,
      category: 'Coffee',
    });
    expect(item.status).toBe(201);
    expect((await api(instance.base, 'POST', `/api/v1/orgs/${handle}/commerce-key`, ownerKey)).status).toBe(201);
    browser = await openChromium(dir, PHONE);
    page = await browser.newPage();
    listen(page);
    await signIn(page, ownerKey);
  });

  afterAll(async () => {
    await browser?.close();
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  it('changes the title and a colour, sees an unreadable colour refused beside it, reorders a section and saves', async () => {
    await page.goto(`${instance.base}/o/${handle}/site-builder`);
    await poll(() => page.getByText('Not published yet: customers cannot see your site.').isVisible()).toBe(true);
    await form().waitFor();
    expect(await pageProblems(page)).toEqual([]);
    await snap('unpublished');

    await form()
      .getByRole('textbox', { name: /^Title\b/ })
      .fill('Night Owl Coffee');
    await form()
      .getByRole('textbox', { name: /^Tagline\b/ })
      .fill('Roasted after dark on Mission Street');
    // Pale text on the pale background: unreadable.
    const text = form().getByLabel('Text', { exact: true });
    await text.fill('#eeeeee');
    await form().getByRole('button', { name: 'Save the site' }).click();
    await poll(() => text.getAttribute('aria-invalid')).toBe('true');
    const problemId = (await text.getAttribute('aria-describedby'))!.split(' ')[0]!;
    expect(await page.locator(`#${problemId}`).textContent()).toMatch(
      /^Text #eeeeee on the background #\w{6} is hard to read: contrast 1\.\d+:1, at least 4\.5:1 is needed\.$/,
    );
    expect(await page.getByRole('alert').filter({ hasText: 'Not saved' }).textContent()).toBe(
      'Not saved: one setting needs a look, marked above in red.',
    );
    expect((await site()).version).toBe(0);
    expect(await pageProblems(page)).toEqual([]);
    await snap('colour-refused');

    await text.fill('#1f1a17');
    const accent = form().getByLabel('Accent', { exact: true });
    await accent.fill('#0b5394');
    await form().getByRole('button', { name: 'Move Opening hours up' }).click();
    await form().getByRole('checkbox', { name: 'Map link' }).uncheck();
    await form().getByRole('button', { name: 'Save the site' }).click();
    await poll(() => saved().textContent()).toBe('Saved. Publish to put it online.');
    expect(await text.getAttribute('aria-invalid')).toBe(null);
    expect(await site()).toMatchObject({
      version: 1,
      title: 'Night Owl Coffee',
      tagline: 'Roasted after dark on Mission Street',
      colors: { text: '#1f1a17', accent: '#0b5394' },
      sections: ['hero', 'about', 'hours', 'menu', 'contact'],
      target: { kind: 'folder' },
    });
    // The order shown is the order saved, the hidden section last.
    const names = await form().locator('.site-sections li').allTextContents();
    expect(names.map((n) => n.replace(/[↑↓]/g, ''))).toEqual([
      'Banner with the title and tagline',
      'About us',
      'Opening hours',
      'Menu with Buy buttons',
      'Contact (paymail)',
      'Map link',
    ]);
    // The 422 refused was what this step expected.
    expect(errors.filter((e) => !e.includes('status of 422'))).toEqual([]);
    errors.length = 0;
  });

  it('previews the home page with the new title in a sandboxed frame', async () => {
    const frame = page.frameLocator('iframe[title="Preview of your site’s home page"]');
    await poll(() => frame.getByRole('heading', { level: 1 }).textContent()).toBe('Night Owl Coffee');
    expect(await frame.getByText('Roasted after dark on Mission Street').isVisible()).toBe(true);
    expect(await page.locator('iframe.site-preview').getAttribute('sandbox')).toBe('allow-same-origin');
    await page.locator('iframe.site-preview').scrollIntoViewIfNeeded();
    expect(await pageProblems(page)).toEqual([]);
    await snap('preview');
    expect(errors).toEqual([]);
  });

  it('publishes to the folder: files uploaded; published again with nothing changed, none uploaded', async () => {
    await page.getByRole('button', { name: 'Publish my site' }).click();
    const status = page.getByRole('status').filter({ hasText: 'Published' });
    await poll(() => status.textContent()).toMatch(/^Published: \d+ files? uploaded, 0 files unchanged\.$/);
    const first = (await site()).last_publication;
    expect(first.files_uploaded).toBeGreaterThan(0);
    expect(await status.textContent()).toBe(`Published: ${first.files_uploaded} files uploaded, 0 files unchanged.`);
    expect(await page.getByText(first.site_url).isVisible()).toBe(true);
    expect(first.site_url).toBe(`file://${join(dir, 'data', 'sites', handle, 'index.html')}`);
    expect(await pageProblems(page)).toEqual([]);
    await snap('published');

    await page.getByRole('button', { name: 'Publish again' }).click();
    await poll(() => status.textContent()).toBe(
      `Published: nothing had changed, so no file was uploaded (${first.files_uploaded} files unchanged).`,
    );
    const facts = page.getByRole('definition');
    expect((await facts.allTextContents()).slice(1)).toEqual(['0 files', `${first.files_uploaded} files`, '0 files']);
    expect((await site()).last_publication).toMatchObject({ manifest_digest: first.manifest_digest, files_uploaded: 0 });
    await snap('published-again');
    expect(errors).toEqual([]);
  });

  it('tells the owner someone else saved meanwhile, and shows their version', async () => {
    const theirs = await site();
    const { version, sections, colors, title, about, target } = theirs;
    const settings = { sections, colors, title, about, target };
    const put = await api(
      instance.base,
      'PUT',
      `/api/v1/orgs/${handle}/site`,
      ownerKey,
      { ...settings, tagline: 'Open late, every night' },
      { 'if-match': `"${version}"` },
    );
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await form()
      .getByRole('textbox', { name: /^Title\b/ })
      .fill('Night Owl');
    await form().getByRole('button', { name: 'Save the site' }).click();
    await poll(() => page.getByRole('alert').filter({ hasText: 'Someone else' }).isVisible()).toBe(true);
    expect(
      await form()
        .getByRole('textbox', { name: /^Tagline\b/ })
        .inputValue(),
    ).toBe('Open late, every night');
    expect(
      await form()
        .getByRole('textbox', { name: /^Title\b/ })
        .inputValue(),
    ).toBe('Night Owl Coffee');
    expect((await site()).version).toBe(version + 1);
    expect(await pageProblems(page)).toEqual([]);
    await snap('someone-else-saved');
    // The 412 refused was what this step expected.
    expect(errors.filter((e) => !e.includes('status of 412'))).toEqual([]);
    errors.length = 0;
  });

  it('shows staff the site read only: no save, no publish, the preview', async () => {
    const added = await api(instance.base, 'POST', `/api/v1/orgs/${handle}/members`, ownerKey, { name: 'Sam', role: 'staff' });
    const staff = await browser.newPage();
    listen(staff);
    await signIn(staff, added.body.api_key.key);
    await staff.goto(`${instance.base}/o/${handle}/site-builder`);
    await poll(() => staff.getByText('Only the shop’s owner or an admin can change or publish the site.').isVisible()).toBe(true);
    const settings = staff.getByRole('region', { name: 'Settings' });
    expect(await settings.getByText('Night Owl Coffee').isVisible()).toBe(true);
    expect(await staff.getByRole('button', { name: /Save|Publish/ }).count()).toBe(0);
    expect(await staff.getByRole('textbox').count()).toBe(0);
    const frame = staff.frameLocator('iframe.site-preview');
    await poll(() => frame.getByRole('heading', { level: 1 }).textContent()).toBe('Night Owl Coffee');
    expect(await pageProblems(staff)).toEqual([]);
    await snap('staff-read-only', staff);
    await staff.close();
    expect(errors).toEqual([]);
  });
});
