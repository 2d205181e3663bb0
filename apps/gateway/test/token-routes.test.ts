import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, onboard } from './harness.js';
import { uniqueName } from './support.js';
import { startTokenStack, type TokenStack } from './token-harness.js';

let stack: TokenStack;
beforeAll(async () => {
  stack = await startTokenStack();
}, 120_000);
afterAll(async () => stack?.close());

type Merchant = Awaited<ReturnType<TokenStack['merchant']>>;
const call = (method: 'GET' | 'POST', url: string, key?: string, payload?: unknown) =>
  stack.gateway.app.inject({
    method,
    url,
    headers: key ? bearer(key) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const brew = { symbol: 'BREW', name: 'Brew Club membership', kind: 'membership', decimals: 0, supply: 500 };
/** Credits worth $1.00 each. */
const bean = { symbol: 'BEAN', name: 'Bean credits', kind: 'credits', decimals: 0, supply: 1000, unit_value_minor: 100, currency: 'USD' };

/** A counter order of one keypad line, made by the shop's staff. */
async function counterOrder(handle: string, key: string, cents: number) {
  const made = await call('POST', '/api/pos/orders', key, {
    org_handle: handle,
    lines: [{ name: 'Catering tray', unit_price_minor: cents }],
  });
  expect(made.statusCode, made.body).toBe(201);
  return made.json();
}

/** The merchant's side of a draft: its wallet signs the transaction, the wallet API broadcasts it. */
async function signAndBroadcast(merchant: Merchant, transaction: string): Promise<string> {
  const signed = await stack.walletCommand<{ transaction: string }>(merchant.wallet.file, 'sign-transaction', transaction);
  const broadcast = await call('POST', '/api/v1/wallet/broadcast', merchant.key, { transaction: signed.transaction });
  expect(broadcast.statusCode, broadcast.body).toBe(200);
  return broadcast.json().txid;
}

/** Drafts, signs, broadcasts and confirms a mint: the active token. */
async function mint(merchant: Merchant, body: Record<string, unknown> = brew) {
  const drafted = await call('POST', `/api/v1/orgs/${merchant.handle}/tokens`, merchant.key, body);
  expect(drafted.statusCode, drafted.body).toBe(201);
  const txid = await signAndBroadcast(merchant, drafted.json().draft.transaction);
  const confirmed = await call('POST', `/api/v1/orgs/${merchant.handle}/tokens/${drafted.json().id}/deployed`, merchant.key, { txid });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return confirmed.json();
}

describe('minting a token through the API', () => {
  it('drafts a mint for an admin, which the merchant’s wallet signs and broadcasts, and confirms it active under its token id', async () => {
    const merchant = await stack.merchant('Token Roasters');
    const admin = await addMember(stack.gateway, merchant, 'admin');
    const drafted = await call('POST', `/api/v1/orgs/${merchant.handle}/tokens`, admin.key, { ...brew, supply: '1000000', decimals: 2 });
    expect(drafted.statusCode, drafted.body).toBe(201);
    const draft = drafted.json();
    expect(draft).toMatchObject({
      id: expect.stringMatching(/^tkd_[A-Za-z0-9_-]{24}$/),
      status: 'draft',
      kind: 'membership',
      symbol: 'BREW',
      decimals: 2,
      supply: 1_000_000,
      owner_derivation_path: 'm/0/0',
      token_id: null,
      draft: {
        mint_vout: 0,
        change_address: merchant.wallet.address,
        inputs: [{ address: merchant.wallet.address, derivation_path: "m/0'", satoshis: 1_000_000 }],
      },
    });
    expect(draft.draft.next_steps[2]).toBe(
      `Confirm the mint: POST /api/v1/orgs/${merchant.handle}/tokens/${draft.id}/deployed {"txid": "<txid>"}`,
    );

    const txid = await signAndBroadcast(merchant, draft.draft.transaction);
    const confirmed = await call('POST', `/api/v1/orgs/${merchant.handle}/tokens/${draft.id}/deployed`, admin.key, { txid });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ id: draft.id, status: 'active', token_id: `${txid}_0`, txid, supply: 1_000_000 });
    expect(confirmed.json().draft).toBeUndefined();
    const again = await call('POST', `/api/v1/orgs/${merchant.handle}/tokens/${draft.id}/deployed`, merchant.key, { txid });
    expect(again.json()).toEqual(confirmed.json());
  });

  it('takes a supply past 2^53 as digits, and answers it as digits', async () => {
    const merchant = await stack.merchant('Big Supply');
    const token = await mint(merchant, { ...brew, kind: 'community', supply: '9223372036854775807' });
    expect(token).toMatchObject({ status: 'active', kind: 'community', supply: '9223372036854775807' });
  });

  it('lets only the shop’s admins mint: 401 without a key, 403 for staff and for another shop, 404 for no shop', async () => {
    const merchant = await stack.merchant('Admins Only');
    const staff = await addMember(stack.gateway, merchant, 'staff');
    const stranger = await onboard(stack.gateway, uniqueName('Elsewhere'));
    const url = `/api/v1/orgs/${merchant.handle}/tokens`;
    expect((await call('POST', url, undefined, brew)).statusCode).toBe(401);
    expect((await call('POST', url, staff.key, brew)).json().error.code).toBe('forbidden');
    expect((await call('POST', url, stranger.key, brew)).json().error.code).toBe('forbidden');
    expect((await call('POST', '/api/v1/orgs/no-such-shop-anywhere/tokens', merchant.key, brew)).statusCode).toBe(404);
    const drafted = (await call('POST', url, merchant.key, brew)).json();
    const confirm = (key: string) => call('POST', `${url}/${drafted.id}/deployed`, key, { txid: 'a'.repeat(64) });
    expect((await confirm(staff.key)).statusCode).toBe(403);
    expect((await confirm(stranger.key)).statusCode).toBe(403);
  });

  it('answers 404 for another shop’s draft, and 422 naming what differs for a txid that is not the draft’s mint', async () => {
    const merchant = await stack.merchant('Draft Keeper');
    const other = await stack.merchant('Other Shop');
    const drafted = (await call('POST', `/api/v1/orgs/${merchant.handle}/tokens`, merchant.key, brew)).json();
    const theirs = await call('POST', `/api/v1/orgs/${other.handle}/tokens/${drafted.id}/deployed`, other.key, { txid: 'a'.repeat(64) });
    expect(theirs.statusCode).toBe(404);

    const elsewhere = await mint(other, { ...brew, symbol: 'ELSE', supply: 42 });
    const wrong = await call('POST', `/api/v1/orgs/${merchant.handle}/tokens/${drafted.id}/deployed`, merchant.key, {
      txid: elsewhere.txid,
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().error).toMatchObject({ code: 'validation_failed', details: { field: 'txid' } });
    expect(wrong.json().error.details.differences).toEqual(
      expect.arrayContaining([
        { field: 'symbol', expected: 'BREW', found: 'ELSE' },
        { field: 'supply', expected: '500', found: '42' },
      ]),
    );
  });

  it('says how to fund the wallet (409) when it has no spendable satoshis', async () => {
    const broke = await stack.merchant('Empty Wallet', 0);
    const refused = await call('POST', `/api/v1/orgs/${broke.handle}/tokens`, broke.key, brew);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: 'failed_precondition', details: { reason: 'no_funds' } });
    expect(refused.json().error.message).toContain(`send a little BSV to ${broke.wallet.address}`);
  });

  it('refuses bad input with a 4xx, never a 500: symbol, decimals, supply, kind, name, NUL and control characters', async () => {
    const merchant = await stack.merchant('Bad Input');
    const refusals: Array<Record<string, unknown>> = [
      { ...brew, symbol: 'TWO WORDS' },
      { ...brew, symbol: 'S'.repeat(17) },
      { ...brew, symbol: '' },
      { ...brew, symbol: 'BR\u0000EW' },
      { ...brew, symbol: 'BR\u0007EW' },
      { ...brew, decimals: 9 },
      { ...brew, decimals: -1 },
      { ...brew, decimals: 2.5 },
      { ...brew, supply: 0 },
      { ...brew, supply: -5 },
      { ...brew, supply: 12.5 },
      { ...brew, supply: '12.5' },
      { ...brew, supply: 2 ** 60 },
      { ...brew, supply: '9223372036854775808' },
      { ...brew, kind: 'gold' },
      { ...brew, name: '' },
      { ...brew, name: 'Brew\u0000Club' },
      { ...brew, name: 'Brew\u001bClub' },
      { ...brew, colour: 'gold' },
      { symbol: 'BREW', kind: 'credits', name: 'No supply' },
    ];
    for (const body of refusals) {
      const answer = await call('POST', `/api/v1/orgs/${merchant.handle}/tokens`, merchant.key, body);
      expect([answer.statusCode >= 400 && answer.statusCode < 500, JSON.stringify(body)]).toEqual([true, JSON.stringify(body)]);
      expect(answer.json().error.code).toMatch(/^(bad_request|validation_failed)$/);
    }
    for (const [id, body] of [
      ['tkd_short', { txid: 'a'.repeat(64) }],
      [`tkd_${'A'.repeat(23)}\u0000`, { txid: 'a'.repeat(64) }],
      [`tkd_${'A'.repeat(24)}`, { txid: 'zz' }],
      [`tkd_${'A'.repeat(24)}`, { txid: 'A'.repeat(64) }],
      [`tkd_${'A'.repeat(24)}`, {}],
    ] as const) {
      const answer = await call('POST', `/api/v1/orgs/${merchant.handle}/tokens/${encodeURIComponent(id)}/deployed`, merchant.key, body);
      expect([answer.statusCode >= 400 && answer.statusCode < 500, id, JSON.stringify(body)]).toEqual([true, id, JSON.stringify(body)]);
    }
  });
});

describe('reading tokens through the API', () => {
  it('shows anyone the holders and a balance check; a customer’s share appears once the merchant’s wallet sends it', async () => {
    const merchant = await stack.merchant('Holders Cafe');
    const token = await mint(merchant, { ...brew, symbol: 'CLUB', supply: 300 });
    const holders = await call('GET', `/api/v1/tokens/${token.token_id}/holders`);
    expect(holders.statusCode, holders.body).toBe(200);
    expect(holders.json()).toEqual({
      token_id: token.token_id,
      symbol: 'CLUB',
      decimals: 0,
      holders: [{ address: token.owner_address, balance: 300 }],
    });

    const customer = await stack.newWallet(0);
    const balance = (address: string) => call('GET', `/api/v1/tokens/${token.token_id}/balance/${address}`);
    expect((await balance(customer.address)).json()).toMatchObject({ balance: 0, holds: false });
    await stack.walletCommand(merchant.wallet.file, 'send-token', '--token', token.token_id, '--to', customer.address, '--amount', '1');
    expect((await call('GET', `/api/v1/tokens/${token.token_id}/holders`)).json().holders).toEqual([
      { address: merchant.wallet.address, balance: 299 },
      { address: customer.address, balance: 1 },
    ]);
    expect((await call('GET', `/api/v1/tokens/${token.token_id}/holders?limit=1&offset=1`)).json().holders).toEqual([
      { address: customer.address, balance: 1 },
    ]);
    expect((await balance(customer.address)).json()).toEqual({
      token_id: token.token_id,
      address: customer.address,
      symbol: 'CLUB',
      decimals: 0,
      balance: 1,
      confirmed: 0,
      holds: true,
    });
  });

  it('lists the shop’s tokens to its staff (401 without a key, 403 for another shop)', async () => {
    const merchant = await stack.merchant('Listing Cafe');
    const staff = await addMember(stack.gateway, merchant, 'staff');
    const stranger = await onboard(stack.gateway, uniqueName('Elsewhere'));
    const token = await mint(merchant, { ...bean, symbol: 'CRED' });
    const listed = await call('GET', `/api/v1/orgs/${merchant.handle}/tokens`, staff.key);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toEqual({ data: [token] });
    expect((await call('GET', `/api/v1/orgs/${merchant.handle}/tokens`)).statusCode).toBe(401);
    expect((await call('GET', `/api/v1/orgs/${merchant.handle}/tokens`, stranger.key)).statusCode).toBe(403);
  });

  it('answers 404 for a token not minted here and a 4xx for a bad token id, address or page, never a 500', async () => {
    const merchant = await stack.merchant('Reads Refused');
    const token = await mint(merchant);
    const unknown = `${'ab'.repeat(32)}_0`;
    expect((await call('GET', `/api/v1/tokens/${unknown}/holders`)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/tokens/${unknown}/balance/${merchant.wallet.address}`)).statusCode).toBe(404);
    for (const url of [
      `/api/v1/tokens/BREW/holders`,
      `/api/v1/tokens/${token.token_id}%00/holders`,
      `/api/v1/tokens/${token.token_id}/holders?limit=0`,
      `/api/v1/tokens/${token.token_id}/holders?limit=101`,
      `/api/v1/tokens/${token.token_id}/holders?offset=-1`,
      `/api/v1/tokens/${token.token_id}/holders?colour=gold`,
      `/api/v1/tokens/${token.token_id}/balance/not-an-address`,
      `/api/v1/tokens/${token.token_id}/balance/${'1'.repeat(34)}`,
      `/api/v1/tokens/${token.token_id}/balance/${merchant.wallet.address}%07`,
    ]) {
      const answer = await call('GET', url);
      expect([answer.statusCode >= 400 && answer.statusCode < 500, url]).toEqual([true, url]);
    }
  });
});

describe('selling and redeeming credits through the API', () => {
  it('sells credits in an untaxed order, and redeems a customer’s transfer against a counter order once', async () => {
    const merchant = await stack.merchant('Credits Cafe');
    const staff = await addMember(stack.gateway, merchant, 'staff');
    const token = await mint(merchant, bean);
    expect(token).toMatchObject({ kind: 'credits', unit_value_minor: 100, currency: 'USD' });
    const base = `/api/v1/orgs/${merchant.handle}/tokens/${token.token_id}`;

    const sold = await call('POST', `${base}/sales`, staff.key, { units: 25 });
    expect(sold.statusCode, sold.body).toBe(201);
    expect(sold.json()).toMatchObject({
      token_id: token.token_id,
      symbol: 'BEAN',
      units: 25,
      value_minor: 2500,
      currency: 'USD',
      order: { status: 'open', total_minor: 2500, tax_minor: 0, credits_token_id: token.token_id, lines: [{ name: '25 BEAN credits' }] },
    });
    expect(sold.json().next_steps[1]).toContain(`send-token --token ${token.token_id}`);

    const customer = await stack.newWallet(50_000);
    await stack.walletCommand(merchant.wallet.file, 'send-token', '--token', token.token_id, '--to', customer.address, '--amount', '25');
    const order = await counterOrder(merchant.handle, staff.key, 5000);
    const opened = await call('POST', `${base}/redemption-addresses`, staff.key, { order_number: order.order_number });
    expect(opened.statusCode, opened.body).toBe(201);
    expect(opened.json()).toMatchObject({ token_id: token.token_id, order_number: order.order_number, address: expect.any(String) });
    expect(opened.json().address).not.toBe(order.address);
    const { txid } = await stack.walletCommand<{ txid: string }>(
      customer.file,
      'send-token',
      '--token',
      token.token_id,
      '--to',
      opened.json().address,
      '--amount',
      '25',
    );
    const redeemed = await call('POST', `${base}/redemptions`, staff.key, { order_number: order.order_number, txid, amount: 25 });
    expect(redeemed.statusCode, redeemed.body).toBe(201);
    expect(redeemed.json()).toMatchObject({
      token_id: token.token_id,
      order_number: order.order_number,
      txid,
      vout: 0,
      amount: 25,
      value_minor: 2500,
      currency: 'USD',
      order: { order_number: order.order_number, status: 'open', card_paid_minor: 2500 },
    });
    const again = await call('POST', `${base}/redemptions`, staff.key, { order_number: order.order_number, txid });
    expect(again.json()).toEqual(redeemed.json());
    const tooMuch = await call('POST', `${base}/redemptions`, staff.key, { order_number: order.order_number, txid, amount: 26 });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().error.code).toBe('payment_underpaid');
  });

  it('needs the shop’s staff, and refuses bad input with a 4xx', async () => {
    const merchant = await stack.merchant('Redeem Guard');
    const token = await mint(merchant, { ...bean, symbol: 'CRED' });
    const stranger = await onboard(stack.gateway, uniqueName('Elsewhere'));
    const base = `/api/v1/orgs/${merchant.handle}/tokens/${token.token_id}`;
    const number = 'A1B2C3D4E5';
    expect((await call('POST', `${base}/redemption-addresses`, undefined, { order_number: number })).statusCode).toBe(401);
    expect((await call('POST', `${base}/redemption-addresses`, stranger.key, { order_number: number })).statusCode).toBe(403);
    expect((await call('POST', `${base}/redemptions`, stranger.key, { order_number: number, txid: 'a'.repeat(64) })).statusCode).toBe(403);
    expect((await call('POST', `${base}/sales`, undefined, { units: 1 })).statusCode).toBe(401);
    expect((await call('POST', `${base}/sales`, stranger.key, { units: 1 })).statusCode).toBe(403);
    for (const body of [
      {},
      { order_number: 'A 1' },
      { order_number: 'A-1042' },
      { order_number: `${number}\u0000` },
      { order_number: 7 },
    ]) {
      const answer = await call('POST', `${base}/redemption-addresses`, merchant.key, body);
      expect([answer.statusCode >= 400 && answer.statusCode < 500, JSON.stringify(body)]).toEqual([true, JSON.stringify(body)]);
    }
    for (const body of [
      { order_number: number },
      { order_number: number, txid: 'zz' },
      { order_number: number, txid: 'a'.repeat(64), amount: 0 },
      { order_number: number, txid: 'a'.repeat(64), amount: 1.5 },
    ]) {
      const answer = await call('POST', `${base}/redemptions`, merchant.key, body);
      expect([answer.statusCode >= 400 && answer.statusCode < 500, JSON.stringify(body)]).toEqual([true, JSON.stringify(body)]);
    }
    for (const body of [
      {},
      { units: 0 },
      { units: -1 },
      { units: 1.5 },
      { units: 1001 },
      { units: '1\u0000' },
      { units: 1, extra: true },
    ]) {
      const answer = await call('POST', `${base}/sales`, merchant.key, body);
      expect([answer.statusCode, JSON.stringify(body)]).toEqual([422, JSON.stringify(body)]);
    }
    const club = await mint(merchant, { ...brew, symbol: 'CLUB' });
    const notCredits = await call('POST', `/api/v1/orgs/${merchant.handle}/tokens/${club.token_id}/sales`, merchant.key, { units: 1 });
    expect([notCredits.statusCode, notCredits.json().error.code]).toEqual([409, 'failed_precondition']);
  });
});

describe('the tokens capability in the descriptors', () => {
  type Capability = { id: string; maturity: string; note?: string; endpoints: Array<{ method: string; path: string }> };
  const tokensOf = (body: { rungs: Array<{ capabilities: Capability[] }> }) =>
    body.rungs.flatMap((rung) => rung.capabilities).find((capability) => capability.id === 'tokens') as Capability & {
      set_up?: boolean;
      next_step?: string | null;
    };

  it('lists its routes at maturity preview with no "not built" note, and is set up for a shop once it has a token', async () => {
    const tokens = tokensOf((await call('GET', '/api/v1/capabilities')).json());
    expect(tokens.maturity).toBe('preview');
    expect(tokens.note).toBeUndefined();
    expect(tokens.endpoints.map((e) => `${e.method} ${e.path}`)).toEqual([
      'POST /api/v1/orgs/:handle/tokens',
      'POST /api/v1/orgs/:handle/tokens/:draft_id/deployed',
      'GET /api/v1/orgs/:handle/tokens',
      'GET /api/v1/tokens/:token_id/holders',
      'POST /api/v1/orgs/:handle/tokens/:token_id/redemption-addresses',
      'POST /api/v1/orgs/:handle/tokens/:token_id/sales',
      'POST /api/v1/orgs/:handle/tokens/:token_id/redemptions',
      'GET /api/v1/tokens/:token_id/balance/:address',
    ]);
    const merchant = await stack.merchant('Descriptor Cafe');
    const before = tokensOf((await call('GET', `/api/v1/orgs/${merchant.handle}/capabilities`, merchant.key)).json());
    expect(before).toMatchObject({ set_up: false, next_step: expect.stringContaining('Mint a token') });
    await mint(merchant);
    const after = tokensOf((await call('GET', `/api/v1/orgs/${merchant.handle}/capabilities`, merchant.key)).json());
    expect(after.set_up).toBe(true);
  });
});
