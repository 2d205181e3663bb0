import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HD } from '@bsv/sdk';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, openChromium } from './browser.js';
import { api, freePort, ROOT, startInstance, stopInstance, until, wallet, type Instance } from './instance.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** Screenshots of the cart, kept after the run (git ignores the folder). */
const ARTIFACTS = join(ROOT, 'e2e/artifacts/counter-pricing');

const hasChromium = chromiumInstalled('counter-pricing.test.ts');

/** Minor units of USD as the page shows them (en-US), from a decimal string: no float on the way. */
const usd = (minor: number) => {
  const size = BigInt(Math.abs(minor));
  const decimal = `${minor < 0 ? '-' : ''}${size / 100n}.${String(size % 100n).padStart(2, '0')}`;
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(decimal as unknown as number);
};

type Pick = { item: 'latte' | 'croissant'; modifiers?: string[] };
type Cart = {
  name: string;
  picks: Pick[];
  keypad?: string;
  discount?: { percent: string } | { amount: string };
  /** "none", a percentage the menu offers ("10", "15", "20"), or an amount typed as Custom. */
  tip: 'none' | '10' | '15' | '20' | { amount: string };
};

/** At least ten carts: modifiers, a discount, every tip choice; the first six with prices before tax, the rest with tax included. */
const EXCLUDING_TAX: Cart[] = [
  { name: 'a large latte with an extra shot, no tip', picks: [{ item: 'latte', modifiers: ['Large', 'Extra shot'] }], tip: 'none' },
  { name: 'two lattes and a croissant, 10%', picks: [{ item: 'latte' }, { item: 'latte' }, { item: 'croissant' }], tip: '10' },
  {
    name: 'three croissants, 10% off, 15%',
    picks: [{ item: 'croissant' }, { item: 'croissant' }, { item: 'croissant' }],
    discount: { percent: '10' },
    tip: '15',
  },
  { name: 'a large latte, $1 off, 20%', picks: [{ item: 'latte', modifiers: ['Large'] }], discount: { amount: '1.00' }, tip: '20' },
  {
    name: 'a latte and a croissant, 15% off, a $2.50 tip',
    picks: [{ item: 'latte' }, { item: 'croissant' }],
    discount: { percent: '15' },
    tip: { amount: '2.50' },
  },
  {
    name: 'a keypad amount and a latte with an extra shot, 15%',
    picks: [{ item: 'latte', modifiers: ['Extra shot'] }],
    keypad: '7.35',
    tip: '15',
  },
];
const INCLUDING_TAX: Cart[] = [
  { name: 'a large latte and a croissant, 15%', picks: [{ item: 'latte', modifiers: ['Large'] }, { item: 'croissant' }], tip: '15' },
  { name: 'two croissants, 10% off, 10%', picks: [{ item: 'croissant' }, { item: 'croissant' }], discount: { percent: '10' }, tip: '10' },
  {
    name: 'three lattes with an extra shot, 50 cents off, 20%',
    picks: [1, 2, 3].map(() => ({ item: 'latte' as const, modifiers: ['Extra shot'] })),
    discount: { amount: '0.50' },
    tip: '20',
  },
  { name: 'a latte and a croissant, a $1 tip', picks: [{ item: 'latte' }, { item: 'croissant' }], tip: { amount: '1.00' } },
  { name: 'a large latte, 5% off, no tip', picks: [{ item: 'latte', modifiers: ['Large'] }], discount: { percent: '5' }, tip: 'none' },
];

describe.skipIf(!hasChromium)('the counter shows the total it charges, in headless Chromium (decision 0023)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctk-e2e-counter-pricing-'));
  let instance: Instance;
  let browser: BrowserContext | undefined;
  let counter: Page;
  let base = '';
  let key = '';
  let handle = '';
  let chainPort = 0;
  const problems: string[] = [];
  const customerWallet = join(dir, 'customer.json');

  afterAll(async () => {
    await browser?.close();
    if (instance) await stopInstance(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  const readOrder = async (number: string): Promise<Json> => {
    const answer = (await api(base, 'GET', `/api/pos/orders/${number}`)).body;
    return answer.order ?? answer;
  };
  const text = async (id: string) => ((await counter.locator(`#${id}`).textContent()) ?? '').trim();
  /** pos has priced the cart as it stands: no quote on its way. */
  const priced = () => expect.poll(() => counter.locator('#cart-totals').getAttribute('aria-busy'), { timeout: 15_000 }).toBe('false');

  async function fillCart(cart: Cart) {
    for (const pick of cart.picks) {
      const name = pick.item === 'latte' ? 'Oat milk latte' : 'Croissant';
      await counter
        .locator('#item-grid')
        .getByRole('button', { name: new RegExp(name) })
        .click();
      if (pick.item === 'latte') {
        const dialog = counter.getByRole('dialog', { name });
        const modifiers = pick.modifiers ?? [];
        await dialog.getByLabel(modifiers.includes('Large') ? 'Large' : 'Regular').check();
        if (modifiers.includes('Extra shot')) await dialog.getByLabel('Extra shot').check();
        await dialog.getByRole('button', { name: 'Add to cart' }).click();
      }
    }
    if (cart.keypad) {
      if (!(await counter.locator('#keypad-panel').evaluate((panel) => (panel as HTMLDetailsElement).open)))
        await counter.getByText('Custom amount (keypad)').click();
      await counter.getByLabel('Amount', { exact: true }).fill(cart.keypad);
      await counter.getByRole('button', { name: 'Add amount' }).click();
    }
    if (cart.discount) {
      const percent = 'percent' in cart.discount;
      await counter.locator('#discount-kind').selectOption(percent ? 'percent' : 'amount');
      await counter.locator('#discount-value').fill('percent' in cart.discount ? cart.discount.percent : cart.discount.amount);
    }
    if (typeof cart.tip === 'object') {
      await counter.locator('#tip-choices input[value="custom"]').check();
      await counter.locator('#tip-custom').fill(cart.tip.amount);
    } else {
      await counter.locator(`#tip-choices input[value="${cart.tip === 'none' ? 'none' : Number(cart.tip) * 100}"]`).check();
    }
  }

  /** The figures the cart shows before the order exists. */
  async function shown() {
    await priced();
    return {
      total: await text('sum-total'),
      tax: await text('sum-tax'),
      tip: await text('sum-tip'),
      beforeTax: await text('sum-before-tax'),
      discount: await text('sum-discount'),
    };
  }

  async function createOrder(): Promise<Json> {
    await counter.getByRole('button', { name: 'Create order' }).click();
    await counter.locator('#order-view').waitFor();
    const number = ((await counter.locator('#order-title').textContent()) ?? '').replace('Order ', '');
    expect(number).toMatch(/^[0-9A-Z]{10}$/);
    return readOrder(number);
  }

  async function cancelAndStartOver() {
    counter.once('dialog', (dialog) => dialog.accept());
    await counter.locator('#cancel-order').click();
    await counter
      .locator('#order-status')
      .filter({ hasText: /Cancelled/i })
      .waitFor();
    await counter.locator('#new-sale-from-order').click();
    await counter.locator('#sell-view').waitFor();
  }

  async function sellEach(carts: Cart[], pricesIncludeTax: boolean) {
    for (const cart of carts) {
      await fillCart(cart);
      const before = await shown();
      const order = await createOrder();
      expect(order.prices_include_tax, cart.name).toBe(pricesIncludeTax);
      // What the cart showed is what the order charges, to the cent.
      expect(before, cart.name).toEqual({
        total: usd(order.total_minor),
        tax: usd(order.tax_minor),
        tip: order.tip_minor ? usd(order.tip_minor) : '—',
        // Before tax never includes the tip.
        beforeTax: usd(order.total_minor - order.tax_minor - order.tip_minor),
        discount: order.discount_minor ? usd(-order.discount_minor) : '—',
      });
      expect(order.tax_minor, `${cart.name}: taxed`).toBeGreaterThan(0);
      await expect(counter.locator('#order-total').textContent()).resolves.toBe(usd(order.total_minor));
      await cancelAndStartOver();
    }
  }

  it('prices eleven carts as the orders they create charge: modifiers, discounts, every tip choice, prices before tax and including it', async () => {
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    chainPort = await freePort();
    instance = await startInstance({ port: await freePort(), dataDir: join(dir, 'data'), chainPort, env: { POS_WATCH_INTERVAL_MS: '0' } });
    base = instance.base;
    const xpub = HD.fromRandom().derive("m/44'/236'/0'").toPublic().toString();
    const onboarded = await api(base, 'POST', '/api/v1/onboard', undefined, {
      name: 'Blue Bottle Cafe',
      wallet_xpub: xpub,
      jurisdiction: 'US-CA',
    });
    expect(onboarded.status, JSON.stringify(onboarded.body)).toBe(201);
    key = onboarded.body.api_key.key;
    handle = onboarded.body.organization.handle;
    for (const item of [
      {
        name: 'Oat milk latte',
        price_cents: 575,
        category: 'coffee',
        modifiers: [
          { name: 'Regular', price_cents: 0, group: 'Size' },
          { name: 'Large', price_cents: 75, group: 'Size' },
          { name: 'Extra shot', price_cents: 100 },
        ],
      },
      { name: 'Croissant', price_cents: 425, category: 'bakery' },
    ]) {
      const created = await api(base, 'POST', `/api/v1/orgs/${handle}/items`, key, item);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }

    browser = await openChromium(dir, { width: 1366, height: 900 });
    counter = browser.pages()[0] ?? (await browser.newPage());
    counter.on('pageerror', (error) => problems.push(error.message));
    counter.on('console', (message) => {
      // An identifier is looked up as both kinds of card: the other kind's 404 is an answer the screen handles
      // and Chromium logs. Anything else is a problem.
      const handled = /\/api\/pos\/prepaid-cards\/lookup\//.test(message.location().url) && /status of 404/.test(message.text());
      if (message.type() === 'error' && !handled) problems.push(`${message.text()} ${message.location().url}`);
    });
    await counter.goto(`${base}/pos`);
    await counter.getByLabel('API key').fill(key);
    await counter.getByLabel('API key').press('Enter');
    await counter.getByRole('button', { name: /Oat milk latte/ }).waitFor();
    // The merchant's tip choices: the default 10, 15 and 20%, between None and Custom.
    await expect(
      counter.locator('#tip-choices input[name="tip"]').evaluateAll((radios) => radios.map((radio) => (radio as HTMLInputElement).value)),
    ).resolves.toEqual(['none', '1000', '1500', '2000', 'custom']);
    // The cart tells no estimate of its own.
    expect(await counter.locator('#sell-view').textContent()).not.toContain('worked out when the order is created');

    await sellEach(EXCLUDING_TAX, false);
    const patched = await api(base, 'PATCH', `/api/v1/organizations/${handle}`, key, { prices_include_tax: true });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    await sellEach(INCLUDING_TAX, true);
    expect(EXCLUDING_TAX.length + INCLUDING_TAX.length).toBeGreaterThanOrEqual(10);
    expect(problems).toEqual([]);
  }, 900_000);

  it('redeems a loyalty reward on the order being sold: a discount line in the cart, the order, the receipt and the books', async () => {
    // Prices before tax again; a free croissant for one visit.
    expect((await api(base, 'PATCH', `/api/v1/organizations/${handle}`, key, { prices_include_tax: false })).status).toBe(200);
    const program = await api(base, 'PUT', `/api/v1/orgs/${handle}/loyalty-program`, key, {
      stamp_rule: 'visit',
      stamps_for_reward: 1,
      reward: 'A free croissant',
      reward_value_minor: 425,
    });
    expect(program.status, JSON.stringify(program.body)).toBe(200);
    const issued = await api(base, 'POST', '/api/pos/loyalty-cards', key, { org_handle: handle });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    const card = issued.body;
    // A paid visit stamps it: one reward.
    await wallet(chainPort, customerWallet, 'create');
    await wallet(chainPort, customerWallet, 'faucet', '100000000');
    const visit = await api(base, 'POST', '/api/pos/orders', key, {
      org_handle: handle,
      lines: [{ name: 'Drip coffee', unit_price_minor: 300 }],
      loyalty_card_id: card.id,
    });
    expect(visit.status).toBe(201);
    await wallet(chainPort, customerWallet, 'pay', visit.body.pay_uri);
    await until(
      async () => (await api(base, 'GET', `/api/pos/loyalty-cards/${card.id}`)).body,
      (read) => read.rewards_available === 1,
      'the stamp of the paid visit',
    );

    // At the counter: a latte and a croissant, 15%; the customer shows the card and takes the reward.
    await fillCart({ name: 'reward', picks: [{ item: 'latte', modifiers: ['Large'] }, { item: 'croissant' }], tip: '15' });
    const without = await shown();
    await counter.getByLabel('Card or address').fill(card.identifier);
    await counter.getByRole('button', { name: 'Look up' }).click();
    await counter.getByRole('button', { name: 'Redeem reward on this order' }).click();
    await expect.poll(() => text('sum-reward-label')).toBe('Reward: A free croissant');
    const withReward = await shown();
    expect(await text('sum-reward')).toBe(usd(-425));
    expect(withReward.total).not.toBe(without.total);
    for (const viewport of [
      { width: 1366, height: 900 },
      { width: 375, height: 800 },
    ]) {
      await counter.setViewportSize(viewport);
      await counter.locator('#cart-totals').scrollIntoViewIfNeeded();
      await counter.screenshot({ path: join(ARTIFACTS, `cart-with-reward-${viewport.width}.png`) });
      await counter.screenshot({ path: join(ARTIFACTS, `cart-with-reward-${viewport.width}-full.png`), fullPage: true });
    }
    await counter.setViewportSize({ width: 1366, height: 900 });

    const order = await createOrder();
    expect(order).toMatchObject({ reward_minor: 425, reward: 'A free croissant', discount_minor: 0 });
    expect(withReward.total).toBe(usd(order.total_minor));
    expect(withReward.tip).toBe(usd(order.tip_minor));
    // The reward is taken off before tax: the lines' discounts are the reward, and tax is on what is left.
    expect(order.lines.reduce((sum: number, line: Json) => sum + line.discount_minor, 0)).toBe(425);
    expect((await api(base, 'GET', `/api/pos/loyalty-cards/${card.id}`)).body).toMatchObject({ stamps: 0, rewards_available: 0 });
    await counter.locator('#card-list li', { hasText: `Reward redeemed on order ${order.order_number}` }).waitFor();

    // Paid, the receipt and the books show the reward.
    await wallet(chainPort, customerWallet, 'pay', order.pay_uri);
    await counter.locator('#order-status').filter({ hasText: /^Paid/ }).waitFor({ timeout: 30_000 });
    await counter.getByRole('button', { name: 'Receipt' }).click();
    expect(await counter.locator('#receipt-text').textContent()).toMatch(/Reward: A free croissant\s+-\$4\.25/);
    await counter.screenshot({ path: join(ARTIFACTS, 'receipt-with-reward.png'), fullPage: true });
    const entry = await until(
      async () =>
        ((await api(base, 'GET', `/api/v1/orgs/${handle}/ledger`, key)).body.data as Json[]).find(
          (candidate) => candidate.description === `Order ${order.order_number}`,
        ),
      (found) => Boolean(found),
      'the ledger entry of the order',
      150,
      200,
    );
    const lines = entry!.lines.map((line: Json) => [line.account_code, line.debit_minor, line.credit_minor]);
    expect(lines).toContainEqual(['4200', 425, 0]);
    expect(lines).toContainEqual(['1010', order.total_minor, 0]);
    expect(lines).toContainEqual(['4000', 0, order.total_minor - order.tax_minor - order.tip_minor + 425]);
    const debits = entry!.lines.reduce((sum: number, line: Json) => sum + line.debit_minor, 0);
    expect(debits).toBe(entry!.lines.reduce((sum: number, line: Json) => sum + line.credit_minor, 0));
    const trial = (await api(base, 'GET', `/api/v1/orgs/${handle}/reports/trial-balance`, key)).body;
    const usdRow = trial.data.find((row: Json) => row.currency === 'USD');
    expect(usdRow.accounts.find((account: Json) => account.code === '4200')).toMatchObject({ name: 'Loyalty rewards', balance_minor: 425 });
    expect(usdRow.total_debit_minor).toBe(usdRow.total_credit_minor);
    expect(problems).toEqual([]);
  }, 600_000);
});
