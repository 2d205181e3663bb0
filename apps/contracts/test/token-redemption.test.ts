import { P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { tokenLock } from '@ctk/chain';
import { requestFaucet } from '@ctk/chain/local';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { eventually, failure } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_URL, STACK_START_MS, startTokenStack, type TokenStack } from './token-stack.js';

let stack: TokenStack;
beforeAll(async () => {
  stack = await startTokenStack();
}, STACK_START_MS);
afterAll(() => stack?.close());

type Merchant = Awaited<ReturnType<TokenStack['merchant']>>;
/** Credits worth $1.00 each. */
const credits = {
  symbol: 'BEAN',
  name: 'Bean credits',
  kind: 'credits',
  decimals: 0,
  supply: 1_000n,
  unitValueMinor: 100n,
  currency: 'USD',
};
const membership = { symbol: 'CLUB', name: 'Club', kind: 'membership', decimals: 0, supply: 100n };

async function mint(merchant: Merchant, fields: Record<string, unknown> = credits) {
  const { token: draft } = await stack.client.draftTokenMint({ org: merchant.org, ...fields });
  const signed = await stack.walletCommand<{ transaction: string }>(merchant.wallet.file, 'sign-transaction', draft!.draft!.transaction);
  const { txid } = await stack.p2p.broadcastTransaction({ transaction: signed.transaction });
  return (await stack.client.confirmTokenMint({ org: merchant.org, draftId: draft!.id, txid })).token!;
}

/** A customer's wallet holding `units` of the token, sent by the merchant's wallet. */
async function customerWith(merchant: Merchant, tokenId: string, units: number) {
  const customer = await stack.newWallet(50_000);
  await stack.walletCommand(merchant.wallet.file, 'send-token', '--token', tokenId, '--to', customer.address, '--amount', String(units));
  return customer;
}

const send = (file: string, tokenId: string, to: string, units: number) =>
  stack.walletCommand<{ txid: string }>(file, 'send-token', '--token', tokenId, '--to', to, '--amount', String(units));

/** A pos order at the counter: one keypad line of `cents`, taxed as the shop's jurisdiction says. */
async function orderOf(org: OrgRef, cents: bigint) {
  const { order } = await stack.pos.createOrder({
    org,
    lines: [{ name: 'Catering tray', quantity: 1n, unitPriceMinor: cents, modifiers: [] }],
    staff: true,
    publicUrl: PUBLIC_URL,
  });
  return order!;
}

/** What the books hold on an account for the shop: credits less debits (a liability's balance). */
async function owed(org: OrgRef, accountCode: string) {
  const { entries } = await stack.books.listJournalEntries({ org, limit: 100 });
  const lines = entries.flatMap((entry) => entry.lines).filter((line) => line.accountCode === accountCode);
  return lines.reduce((sum, line) => sum + line.creditMinor - line.debitMinor, 0n);
}

async function entriesOf(org: OrgRef, count: number) {
  return eventually(async () => {
    const { entries } = await stack.books.listJournalEntries({ org, limit: 100 });
    expect(entries).toHaveLength(count);
    return entries;
  });
}

const redeem = (merchant: Merchant, tokenId: string, orderNumber: string, txid: string, amount?: bigint) =>
  stack.client.redeemTokens({ org: merchant.org, tokenId, orderNumber, txid, amount, publicUrl: PUBLIC_URL });

describe('credits in the books', () => {
  it('sold for money they are owed (2350); redeemed against an order they pay it and become its revenue and tax', async () => {
    const merchant = await stack.merchant(undefined, 'US-CA');
    const token = await mint(merchant);
    expect(token).toMatchObject({ kind: 'credits', unitValueMinor: 100n, currency: 'USD' });
    const tokenId = token.tokenId!;

    // The sale: an untaxed order for 20 credits' face value, paid in bitcoin.
    const { sale } = await stack.client.sellCredits({ org: merchant.org, tokenId, units: 20n, publicUrl: PUBLIC_URL });
    expect(sale).toMatchObject({ tokenId, symbol: 'BEAN', units: 20n, valueMinor: 2000n, currency: 'USD' });
    expect(sale!.order).toMatchObject({ totalMinor: 2000n, taxMinor: 0n, creditsTokenId: tokenId, status: 'open' });
    expect(sale!.order!.lines).toEqual([expect.objectContaining({ name: '20 BEAN credits', taxMinor: 0n })]);
    expect(sale!.nextSteps.join(' ')).toContain(`send-token --token ${tokenId}`);
    await stack.payOrder(sale!.order!.orderNumber);
    const [sold] = await entriesOf(merchant.org, 1);
    expect(sold).toMatchObject({ eventType: 'credits.sold' });
    expect(sold!.lines.map((line) => [line.accountCode, line.debitMinor, line.creditMinor])).toEqual(
      expect.arrayContaining([
        ['1010', 2000n, 0n],
        ['2350', 0n, 2000n],
      ]),
    );
    expect(await owed(merchant.org, '2350')).toBe(2000n);

    // The merchant's wallet sends the 20 credits; the customer spends 5 of them on a $12.50 order.
    const customer = await customerWith(merchant, tokenId, 20);
    const order = await orderOf(merchant.org, 1250n);
    expect(order.taxMinor).toBeGreaterThan(0n);
    const { redemptionAddress } = await stack.client.openTokenRedemption({ org: merchant.org, tokenId, orderNumber: order.orderNumber });
    const { txid } = await send(customer.file, tokenId, redemptionAddress!.address, 5);
    const { redemption } = await redeem(merchant, tokenId, order.orderNumber, txid, 5n);
    expect(redemption).toMatchObject({ amount: 5n, valueMinor: 500n, currency: 'USD' });
    expect(redemption!.order).toMatchObject({ orderNumber: order.orderNumber, status: 'open', cardPaidMinor: 500n });
    expect(redemption!.order!.satoshis).toBe((order.totalMinor - 500n) * 100n);

    const [redeemed] = (await entriesOf(merchant.org, 2)).filter((entry) => entry.eventType === 'credits.redeemed');
    const lines = Object.fromEntries(redeemed!.lines.map((line) => [line.accountCode, line.debitMinor - line.creditMinor]));
    expect(lines['2350']).toBe(500n);
    expect(lines['2100']).toBeLessThan(0n);
    expect(lines['4000']! + lines['2100']!).toBe(-500n);
    expect(await owed(merchant.org, '2350')).toBe(1500n);

    // The same transfer again: the redemption as it was, nothing paid or posted twice.
    const again = await redeem(merchant, tokenId, order.orderNumber, txid);
    expect(again.redemption).toMatchObject({ id: redemption!.id, valueMinor: 500n });
    expect(again.redemption!.order).toMatchObject({ cardPaidMinor: 500n });

    // Bitcoin pays the rest: the order is paid, and its tax adds up across the two entries.
    await stack.payOrder(order.orderNumber);
    const entries = await entriesOf(merchant.org, 3);
    const paid = entries.find((entry) => entry.eventType === 'payment.received')!;
    expect(paid.lines.find((line) => line.accountCode === '1010')?.debitMinor).toBe(order.totalMinor - 500n);
    const tax = entries.flatMap((entry) => entry.lines).filter((line) => line.accountCode === '2100');
    expect(tax.reduce((sum, line) => sum + line.creditMinor - line.debitMinor, 0n)).toBe(order.taxMinor);
    expect(await owed(merchant.org, '2350')).toBe(1500n);
    expect((await stack.pos.getOrder({ orderNumber: order.orderNumber })).order).toMatchObject({ status: 'paid' });
  });

  it('pays an order once when the same transfer is redeemed 20 times at once, and never past what it owes', async () => {
    const merchant = await stack.merchant();
    const tokenId = (await mint(merchant)).tokenId!;
    const customer = await customerWith(merchant, tokenId, 30);
    const order = await orderOf(merchant.org, 1000n);
    const { redemptionAddress } = await stack.client.openTokenRedemption({ org: merchant.org, tokenId, orderNumber: order.orderNumber });
    const { txid } = await send(customer.file, tokenId, redemptionAddress!.address, 6);
    const answers = await Promise.all(Array.from({ length: 20 }, () => redeem(merchant, tokenId, order.orderNumber, txid)));
    expect(new Set(answers.map((answer) => answer.redemption!.id)).size).toBe(1);
    expect((await stack.pos.getOrder({ orderNumber: order.orderNumber })).order).toMatchObject({ cardPaidMinor: 600n });
    // Two more transfers of 4 each, redeemed at once: only one fits in the 400 the order still owes.
    const [a, b] = [
      await send(customer.file, tokenId, redemptionAddress!.address, 4),
      await send(customer.file, tokenId, redemptionAddress!.address, 4),
    ];
    const outcomes = await Promise.allSettled([
      redeem(merchant, tokenId, order.orderNumber, a.txid),
      redeem(merchant, tokenId, order.orderNumber, b.txid),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const { order: paid } = await stack.pos.getOrder({ orderNumber: order.orderNumber });
    // Nothing in bitcoin to wait for: paid in full by credits, the order is confirmed at once.
    expect(paid).toMatchObject({ cardPaidMinor: 1000n, status: 'confirmed' });
    const refused = outcomes.find((outcome) => outcome.status === 'rejected')!.reason as { code: string; details: unknown };
    expect(refused).toMatchObject({ code: 'failed_precondition', details: { reason: 'confirmed' } });
    const entries = await entriesOf(merchant.org, 2);
    expect(entries.map((entry) => entry.eventType)).toEqual(['credits.redeemed', 'credits.redeemed']);
    expect(await owed(merchant.org, '2350')).toBe(-1000n);
  });

  it('owes the credits again when the order they paid part of is cancelled', async () => {
    const merchant = await stack.merchant();
    const tokenId = (await mint(merchant)).tokenId!;
    const customer = await customerWith(merchant, tokenId, 10);
    const order = await orderOf(merchant.org, 1000n);
    const { redemptionAddress } = await stack.client.openTokenRedemption({ org: merchant.org, tokenId, orderNumber: order.orderNumber });
    const { txid } = await send(customer.file, tokenId, redemptionAddress!.address, 4);
    await redeem(merchant, tokenId, order.orderNumber, txid);
    await entriesOf(merchant.org, 1);
    const { order: cancelled } = await stack.pos.cancelOrder({ org: merchant.org, orderNumber: order.orderNumber, publicUrl: PUBLIC_URL });
    expect(cancelled).toMatchObject({ status: 'cancelled', cardPaidMinor: 0n });
    const entries = await entriesOf(merchant.org, 2);
    expect(entries.map((entry) => entry.eventType).sort()).toEqual(['credits.redeemed', 'credits.restored']);
    expect(await owed(merchant.org, '2350')).toBe(0n);
    expect(await owed(merchant.org, '4000')).toBe(400n);
    expect(await owed(merchant.org, '4100')).toBe(-400n);
    // A cancelled order takes no more credits.
    const late = await failure(
      redeem(merchant, tokenId, order.orderNumber, (await send(customer.file, tokenId, redemptionAddress!.address, 1)).txid),
    );
    expect(late).toMatchObject({ code: 'failed_precondition', details: { reason: 'cancelled' } });
  });

  it('refuses credits worth more than the order still needs, an order of another shop, and sales of more than was minted', async () => {
    const merchant = await stack.merchant();
    const tokenId = (await mint(merchant)).tokenId!;
    const customer = await customerWith(merchant, tokenId, 30);
    const order = await orderOf(merchant.org, 1000n);
    const { redemptionAddress } = await stack.client.openTokenRedemption({ org: merchant.org, tokenId, orderNumber: order.orderNumber });
    const { txid } = await send(customer.file, tokenId, redemptionAddress!.address, 11);
    const tooMuch = await failure(redeem(merchant, tokenId, order.orderNumber, txid));
    expect(tooMuch).toMatchObject({ code: 'failed_precondition', details: { reason: 'worth_more_than_due', due_minor: 1000 } });
    expect((await stack.pos.getOrder({ orderNumber: order.orderNumber })).order).toMatchObject({ cardPaidMinor: 0n, status: 'open' });

    const theirs = await orderOf((await stack.merchant(0)).org, 1000n);
    const opened = await stack.client.openTokenRedemption({ org: merchant.org, tokenId, orderNumber: theirs.orderNumber });
    const sent = await send(customer.file, tokenId, opened.redemptionAddress!.address, 2);
    expect(await failure(redeem(merchant, tokenId, theirs.orderNumber, sent.txid))).toMatchObject({ code: 'not_found' });
    expect((await stack.pos.getOrder({ orderNumber: theirs.orderNumber })).order).toMatchObject({ cardPaidMinor: 0n });

    expect(await failure(stack.client.sellCredits({ org: merchant.org, tokenId, units: 1_001n }))).toMatchObject({
      code: 'validation_failed',
      details: { field: 'units' },
    });
    expect(await failure(stack.client.sellCredits({ org: merchant.org, tokenId, units: 0n }))).toMatchObject({ code: 'validation_failed' });
  });

  it('fixes a face value for credits alone', async () => {
    const merchant = await stack.merchant();
    const noValue = await failure(stack.client.draftTokenMint({ org: merchant.org, ...credits, unitValueMinor: undefined, currency: '' }));
    expect(noValue).toMatchObject({ code: 'validation_failed' });
    expect(noValue.message).toContain('unit_value_minor');
    expect(noValue.message).toContain('currency');
    const valued = await failure(stack.client.draftTokenMint({ org: merchant.org, ...membership, unitValueMinor: 100n }));
    expect(valued).toMatchObject({ code: 'validation_failed', details: { field: 'unit_value_minor' } });
    for (const currency of ['usd', 'US', 'USD\u0000'])
      expect(await failure(stack.client.draftTokenMint({ org: merchant.org, ...credits, currency }))).toMatchObject({
        code: 'validation_failed',
        details: { field: 'currency' },
      });
    const membershipId = (await mint(merchant, membership)).tokenId!;
    expect(await failure(stack.client.sellCredits({ org: merchant.org, tokenId: membershipId, units: 1n }))).toMatchObject({
      code: 'failed_precondition',
      details: { kind: 'membership' },
    });
  });
});

describe('redeeming credits against an order', () => {
  it('holds an address per order, verifies the customer’s transfer to it and records it once', async () => {
    const merchant = await stack.merchant();
    const token = await mint(merchant);
    const tokenId = token.tokenId!;
    const customer = await customerWith(merchant, tokenId, 100);
    const [first, second] = [await orderOf(merchant.org, 5000n), await orderOf(merchant.org, 5000n)];

    const { redemptionAddress: opened } = await stack.client.openTokenRedemption({
      org: merchant.org,
      tokenId,
      orderNumber: first.orderNumber,
    });
    expect(opened).toMatchObject({ tokenId, orderNumber: first.orderNumber });
    expect([merchant.wallet.address, token.ownerAddress, first.address]).not.toContain(opened!.address);
    expect(
      (await stack.client.openTokenRedemption({ org: merchant.org, tokenId, orderNumber: first.orderNumber })).redemptionAddress,
    ).toEqual(opened);
    const other = (await stack.client.openTokenRedemption({ org: merchant.org, tokenId, orderNumber: second.orderNumber }))
      .redemptionAddress!;
    expect(other.address).not.toBe(opened!.address);

    const { txid } = await send(customer.file, tokenId, opened!.address, 40);
    const { redemption } = await redeem(merchant, tokenId, first.orderNumber, txid, 40n);
    expect(redemption).toMatchObject({
      id: expect.stringMatching(/^tkr_[A-Za-z0-9_-]{24}$/),
      tokenId,
      orderNumber: first.orderNumber,
      address: opened!.address,
      txid,
      vout: 0,
      amount: 40n,
      valueMinor: 4000n,
    });
    const again = await redeem(merchant, tokenId, first.orderNumber, txid);
    expect(again.redemption).toEqual(redemption);
    expect((await stack.client.getTokenBalance({ tokenId, address: opened!.address })).balance).toBe(40n);

    const elsewhere = await failure(redeem(merchant, tokenId, second.orderNumber, txid));
    expect(elsewhere.code).toBe('payment_wrong_output');
  });

  it('refuses too few units, a transfer the indexer holds void, and an order without a redemption address', async () => {
    const merchant = await stack.merchant();
    const tokenId = (await mint(merchant)).tokenId!;
    const customer = await customerWith(merchant, tokenId, 10);
    const order = await orderOf(merchant.org, 5000n);
    const { redemptionAddress } = await stack.client.openTokenRedemption({ org: merchant.org, tokenId, orderNumber: order.orderNumber });
    const { txid } = await send(customer.file, tokenId, redemptionAddress!.address, 10);
    const short = await failure(redeem(merchant, tokenId, order.orderNumber, txid, 11n));
    expect(short).toMatchObject({ code: 'payment_underpaid', details: { token_amount: '10', expected: '11' } });

    const forged = await forgedTransfer(tokenId, redemptionAddress!.address, 500n);
    const refused = await failure(redeem(merchant, tokenId, order.orderNumber, forged));
    expect(refused.code).toBe('stablecoin_transfer_invalid');
    expect(refused.message).toContain('moves tokens its inputs do not hold');

    const unopened = await failure(redeem(merchant, tokenId, 'ZZZZZZZZZZ', txid));
    expect(unopened).toMatchObject({ code: 'failed_precondition', details: { field: 'order_number' } });
  });

  it('redeems only the shop’s own credits: not another shop’s token, nor a membership', async () => {
    const merchant = await stack.merchant();
    const membershipId = (await mint(merchant, membership)).tokenId!;
    const refused = await failure(
      stack.client.openTokenRedemption({ org: merchant.org, tokenId: membershipId, orderNumber: 'A1B2C3D4E5' }),
    );
    expect(refused).toMatchObject({ code: 'failed_precondition', details: { kind: 'membership' } });
    const theirs = (await mint(await stack.merchant())).tokenId!;
    expect(
      await failure(stack.client.openTokenRedemption({ org: merchant.org, tokenId: theirs, orderNumber: 'A1B2C3D4E5' })),
    ).toMatchObject({
      code: 'not_found',
    });
    for (const orderNumber of ['', 'A-1042', 'A1B2C3D4E\u0000', 'x'.repeat(41)])
      expect(await failure(stack.client.openTokenRedemption({ org: merchant.org, tokenId: membershipId, orderNumber }))).toMatchObject({
        code: 'validation_failed',
      });
  });
});

/** A transfer of `units` the sender never held: the chain mines it, the token indexer holds it void. */
async function forgedTransfer(tokenId: string, to: string, units: bigint): Promise<string> {
  const key = PrivateKey.fromRandom();
  const funded = await requestFaucet(stack.chainUrl, key.toAddress('testnet'), 10_000);
  const tx = new Transaction();
  tx.addInput({
    sourceTransaction: Transaction.fromHex(funded.raw_tx),
    sourceOutputIndex: funded.vout,
    unlockingScriptTemplate: new P2PKH().unlock(key),
  });
  tx.addOutput({ satoshis: 1, lockingScript: tokenLock({ ownerAddress: to, inscription: { op: 'transfer', tokenId, amount: units } }) });
  tx.addOutput({ satoshis: 9_500, lockingScript: new P2PKH().lock(key.toAddress('testnet')) });
  await tx.sign();
  return (await stack.chain.broadcast(tx)).txid;
}
