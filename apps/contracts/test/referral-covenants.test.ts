import { LockingScript, P2PKH, PrivateKey, SatoshisPerKilobyte, Transaction } from '@bsv/sdk';
import { outputCovenantUnlock } from '@ctk/chain';
import { requestFaucet } from '@ctk/chain/local';
import type { ReferralCheckout } from '@ctk/proto/ctk/contracts/v1/contracts';
import { eventually, failure } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_URL, STACK_START_MS, startTokenStack, type TokenStack } from './token-stack.js';

let stack: TokenStack;
beforeAll(async () => {
  stack = await startTokenStack();
}, STACK_START_MS);
afterAll(() => stack?.close());

type Merchant = Awaited<ReturnType<TokenStack['merchant']>>;

/** A shop selling cold brew at $4.00 (400 satoshis a cent at the stack's fixed rate), and a 10% referral link for it. */
async function referredShop() {
  const merchant = await stack.merchant(0);
  const { item } = await stack.pos.createItem({ org: merchant.org, name: 'Cold brew', priceCents: 400n, currency: 'USD', available: true });
  const referrer = await stack.newWallet(0);
  const { referralLink } = await stack.client.createReferralLink({
    org: merchant.org,
    itemId: item!.id,
    referrerName: 'Coffee Weekly',
    referrerAddress: referrer.address,
    commissionBasisPoints: 1_000,
    publicUrl: PUBLIC_URL,
  });
  return { merchant, item: item!, referrer, link: referralLink! };
}

const checkoutThrough = async (linkId: string) =>
  (await stack.client.openReferralCheckout({ id: linkId, publicUrl: PUBLIC_URL, clientAddress: '203.0.113.7' })).referralCheckout!;

/** A buyer's transaction paying `satoshis` to `script` from a fresh faucet coin, change back to the buyer. */
async function buyerPays(script: string, satoshis: bigint) {
  const key = PrivateKey.fromRandom();
  const coin = await requestFaucet(stack.chainUrl, key.toAddress('testnet'), 1_000_000);
  const tx = new Transaction();
  tx.addInput({
    sourceTransaction: Transaction.fromHex(coin.raw_tx),
    sourceOutputIndex: coin.vout,
    unlockingScriptTemplate: new P2PKH().unlock(key),
  });
  tx.addOutput({ lockingScript: LockingScript.fromHex(script), satoshis: Number(satoshis) });
  tx.addOutput({ lockingScript: new P2PKH().lock(key.toAddress('testnet')), change: true });
  await tx.fee(new SatoshisPerKilobyte(100));
  await tx.sign();
  return tx;
}

/** A spend of the covenant that `funding` pays, to `outputs` (anyone may try one: no key signs it). */
async function spendTo(funding: Transaction, checkout: ReferralCheckout, outputs: Array<{ script: string; satoshis: bigint }>) {
  const spend = new Transaction();
  const vout = funding.outputs.findIndex((output) => output.lockingScript.toHex() === checkout.covenantScript);
  spend.addInput({ sourceTransaction: funding, sourceOutputIndex: vout, unlockingScriptTemplate: outputCovenantUnlock() });
  for (const output of outputs) spend.addOutput({ lockingScript: LockingScript.fromHex(output.script), satoshis: Number(output.satoshis) });
  await spend.sign();
  return spend;
}

const pay = (checkout: ReferralCheckout, tx: Transaction) =>
  stack.client.payReferralCheckout({ id: checkout.id, transaction: tx.toHex(), memo: '', merchantData: '', refundTo: '' });

async function entriesOf(merchant: Merchant, count: number) {
  return eventually(async () => {
    const { entries } = await stack.books.listJournalEntries({ org: merchant.org, limit: 10 });
    expect(entries).toHaveLength(count);
    return entries;
  });
}

describe('a referral covenant', () => {
  it('sells the item through the link: the buyer pays the covenant, whose spend pays the shop and the referrer their 10%, and the books show the commission', async () => {
    const { merchant, item, referrer, link } = await referredShop();
    expect(link).toMatchObject({ itemName: 'Cold brew', priceMinor: 400n, currency: 'USD', commissionBasisPoints: 1_000, sales: 0n });
    expect(link.url).toBe(`${PUBLIC_URL}/r/${link.id}`);
    expect((await stack.client.getReferralLink({ id: link.id })).referralLink).toMatchObject({
      itemId: item.id,
      referrerName: 'Coffee Weekly',
    });

    const checkout = await checkoutThrough(link.id);
    // $4.00 at 100 satoshis a cent, 10% of it to the referrer; the covenant also holds its spend's fee.
    expect(checkout).toMatchObject({
      status: 'awaiting_payment',
      totalMinor: 400n,
      commissionMinor: 40n,
      satoshis: 40_000n,
      commissionSatoshis: 4_000n,
      itemName: 'Cold brew',
    });
    expect(checkout.outputs.map((output) => [output.satoshis, output.description])).toEqual([
      [36_000n, `Order ${checkout.orderNumber} at ${merchant.org.handle}`],
      [4_000n, 'Referral commission'],
      [0n, 'Receipt'],
    ]);
    expect(checkout.outputs[1]!.address).toBe(referrer.address);
    expect(checkout.fundingSatoshis).toBe(40_000n + checkout.feeSatoshis);
    expect(checkout.feeSatoshis).toBeGreaterThan(0n);
    const request = await stack.client.getReferralPaymentRequest({ id: checkout.id, publicUrl: PUBLIC_URL });
    expect(request.outputs).toEqual([
      { script: checkout.covenantScript, amount: checkout.fundingSatoshis, description: 'Covenant paying the shop and the referrer' },
    ]);
    expect(request.paymentUrl).toBe(`${PUBLIC_URL}/api/v1/referral-checkouts/${checkout.id}/payment`);

    const funding = await buyerPays(checkout.covenantScript, checkout.fundingSatoshis);
    const ack = await pay(checkout, funding);
    expect(ack).toMatchObject({ error: 0, memo: `Order ${checkout.orderNumber} at ${merchant.org.handle} is paid. Thank you.` });
    const paid = (await stack.client.getReferralCheckout({ id: checkout.id, publicUrl: PUBLIC_URL })).referralCheckout!;
    expect(paid).toMatchObject({ status: 'paid', fundingTxid: funding.id('hex') });
    // The referrer holds their commission on the chain, from the covenant's spend.
    const coins = await stack.chain.listUnspent(referrer.address);
    expect(coins).toEqual([expect.objectContaining({ txid: paid.spendTxid, satoshis: 4_000 })]);
    const { order } = await stack.pos.getOrder({ orderNumber: checkout.orderNumber });
    expect(order).toMatchObject({ status: 'paid', paidSatoshis: 40_000n, commissionMinor: 40n, referralLinkId: link.id });

    const [entry] = await entriesOf(merchant, 1);
    expect(entry).toMatchObject({ eventType: 'payment.received', currency: 'USD', txid: paid.spendTxid });
    expect(entry!.lines.map((line) => [line.accountCode, line.debitMinor, line.creditMinor])).toEqual([
      ['1010', 360n, 0n],
      ['5100', 40n, 0n],
      ['4000', 0n, 400n],
    ]);
    const [listed] = (await stack.client.listReferralLinks({ org: merchant.org })).data;
    expect(listed).toMatchObject({ id: link.id, sales: 1n, commissionPaidSatoshis: 4_000n });
    const [history] = (await stack.client.listReferralCheckouts({ org: merchant.org, publicUrl: PUBLIC_URL })).data;
    expect(history).toMatchObject({ id: checkout.id, status: 'paid', spendTxid: paid.spendTxid });
  });

  it('holds on the chain: a spend without the referrer’s output, or paying them less, is refused; only the covenant’s outputs go through', async () => {
    const { merchant, referrer, link } = await referredShop();
    const checkout = await checkoutThrough(link.id);
    const funding = await buyerPays(checkout.covenantScript, checkout.fundingSatoshis);
    await stack.chain.broadcast(funding);
    const [shop, commission, receipt] = checkout.outputs.map((output) => ({ script: output.script, satoshis: output.satoshis }));

    // All of it to the shop, the referrer's output removed.
    await expect(
      stack.chain.broadcast(await spendTo(funding, checkout, [{ ...shop!, satoshis: 40_000n }, receipt!])),
    ).rejects.toMatchObject({
      code: 'chain_rejected',
    });
    // The referrer paid a satoshi less, the shop a satoshi more.
    const shortChanged = [{ ...shop!, satoshis: 36_001n }, { ...commission!, satoshis: 3_999n }, receipt!];
    await expect(stack.chain.broadcast(await spendTo(funding, checkout, shortChanged))).rejects.toMatchObject({ code: 'chain_rejected' });
    // The referrer's output moved to another address.
    const elsewhere = { ...commission!, script: new P2PKH().lock(PrivateKey.fromRandom().toAddress('testnet')).toHex() };
    await expect(stack.chain.broadcast(await spendTo(funding, checkout, [shop!, elsewhere, receipt!]))).rejects.toMatchObject({
      code: 'chain_rejected',
    });
    expect(await stack.chain.listUnspent(referrer.address)).toEqual([]);

    // The checkout's own payment of that funding spends it as agreed.
    expect((await pay(checkout, funding)).error).toBe(0);
    const paid = (await stack.client.getReferralCheckout({ id: checkout.id, publicUrl: PUBLIC_URL })).referralCheckout!;
    expect(paid.status).toBe('paid');
    expect(await stack.chain.listUnspent(referrer.address)).toEqual([expect.objectContaining({ satoshis: 4_000 })]);
    await entriesOf(merchant, 1);
  });

  it('takes one payment: the same again is acknowledged, another is refused, as are a payment elsewhere and one short', async () => {
    const { merchant, link } = await referredShop();
    const checkout = await checkoutThrough(link.id);
    expect(
      await failure(pay(checkout, await buyerPays(new P2PKH().lock(PrivateKey.fromRandom().toAddress('testnet')).toHex(), 50_000n))),
    ).toMatchObject({
      code: 'payment_wrong_output',
    });
    expect(await failure(pay(checkout, await buyerPays(checkout.covenantScript, checkout.fundingSatoshis - 1n)))).toMatchObject({
      code: 'payment_underpaid',
    });
    expect(
      await failure(stack.client.payReferralCheckout({ id: checkout.id, transaction: 'zz', memo: '', merchantData: '', refundTo: '' })),
    ).toMatchObject({ code: 'validation_failed', details: { field: 'transaction' } });
    const funding = await buyerPays(checkout.covenantScript, checkout.fundingSatoshis);
    const second = await buyerPays(checkout.covenantScript, checkout.fundingSatoshis);
    const [first, again] = await Promise.all([pay(checkout, funding), pay(checkout, funding)]);
    expect([first.error, again.error]).toEqual([0, 0]);
    expect(await failure(pay(checkout, second))).toMatchObject({ code: 'failed_precondition', details: { reason: 'paid' } });
    expect(await failure(stack.client.getReferralPaymentRequest({ id: checkout.id, publicUrl: PUBLIC_URL }))).toMatchObject({
      code: 'failed_precondition',
    });
    // One sale, posted once.
    await entriesOf(merchant, 1);
    const { order } = await stack.pos.getOrder({ orderNumber: checkout.orderNumber });
    expect(order).toMatchObject({ status: 'paid', paidSatoshis: 40_000n, flags: [] });
  });

  it('pays the shop and the referrer all the same when staff cancelled the order while the buyer paid: pos keeps it for a refund', async () => {
    const { merchant, referrer, link } = await referredShop();
    const checkout = await checkoutThrough(link.id);
    await stack.pos.cancelOrder({ org: merchant.org, orderNumber: checkout.orderNumber, publicUrl: PUBLIC_URL });
    expect((await pay(checkout, await buyerPays(checkout.covenantScript, checkout.fundingSatoshis))).error).toBe(0);
    const spent = (await stack.client.getReferralCheckout({ id: checkout.id, publicUrl: PUBLIC_URL })).referralCheckout!;
    expect(spent.status).toBe('paid');
    expect(await stack.chain.listUnspent(referrer.address)).toEqual([expect.objectContaining({ txid: spent.spendTxid, satoshis: 4_000 })]);
    // pos's watcher sees the spend at the cancelled order's address: kept and flagged for the merchant to refund, no sale posted.
    await eventually(async () => {
      const { order } = await stack.pos.getOrder({ orderNumber: checkout.orderNumber });
      expect(order).toMatchObject({ status: 'cancelled', flags: ['refund_due'] });
    });
    expect((await stack.books.listJournalEntries({ org: merchant.org, limit: 10 })).entries).toEqual([]);
  });

  it('stops a link staff disable: it opens no checkout, while one already open stays payable; no other shop can disable it', async () => {
    const { merchant, link } = await referredShop();
    const open = await checkoutThrough(link.id);
    const other = await stack.merchant(0);
    expect(await failure(stack.client.disableReferralLink({ org: other.org, id: link.id, publicUrl: PUBLIC_URL }))).toMatchObject({
      code: 'not_found',
    });
    const { referralLink: disabled } = await stack.client.disableReferralLink({ org: merchant.org, id: link.id, publicUrl: PUBLIC_URL });
    expect(disabled!.disabledAt).toBeDefined();
    // Disabled again: the same link, disabled when it first was.
    const again = (await stack.client.disableReferralLink({ org: merchant.org, id: link.id, publicUrl: PUBLIC_URL })).referralLink!;
    expect(again.disabledAt).toBe(disabled!.disabledAt);
    expect((await stack.client.getReferralLink({ id: link.id, publicUrl: PUBLIC_URL })).referralLink).toMatchObject({
      disabledAt: disabled!.disabledAt,
    });
    expect(await failure(checkoutThrough(link.id))).toMatchObject({ code: 'failed_precondition', details: { reason: 'link_disabled' } });

    const funding = await buyerPays(open.covenantScript, open.fundingSatoshis);
    await pay(open, funding);
    expect((await stack.client.getReferralCheckout({ id: open.id, publicUrl: PUBLIC_URL })).referralCheckout).toMatchObject({
      status: 'paid',
    });
  });

  it('refuses links that cannot be paid: another shop’s item, a share of 0 or above half, an address of no network', async () => {
    const { merchant, item, referrer } = await referredShop();
    const other = await stack.merchant(0);
    const create = (overrides: Record<string, unknown>, org = merchant.org) =>
      failure(
        stack.client.createReferralLink({
          org,
          itemId: item.id,
          referrerName: 'Coffee Weekly',
          referrerAddress: referrer.address,
          commissionBasisPoints: 1_000,
          ...overrides,
        }),
      );
    expect(await create({}, other.org)).toMatchObject({ code: 'validation_failed', details: { field: 'item_id' } });
    expect(await create({ commissionBasisPoints: 0 })).toMatchObject({
      code: 'validation_failed',
      details: { field: 'commission_basis_points' },
    });
    expect(await create({ commissionBasisPoints: 5_001 })).toMatchObject({
      code: 'validation_failed',
      details: { field: 'commission_basis_points' },
    });
    expect(await create({ referrerAddress: 'not-an-address' })).toMatchObject({
      code: 'validation_failed',
      details: { field: 'referrer_address' },
    });
    expect(await create({ referrerName: 'Coffee\u0000Weekly' })).toMatchObject({
      code: 'validation_failed',
      details: { field: 'referrer_name' },
    });
    expect(await create({ referrerName: '  ' })).toMatchObject({ code: 'validation_failed', details: { field: 'referrer_name' } });
    expect(await failure(checkoutThrough('ref_AAAAAAAAAAAAAAAAAAAAAAAA'))).toMatchObject({ code: 'not_found' });
    expect((await stack.client.listReferralLinks({ org: other.org })).data).toEqual([]);
    // A 1% share of a 50-cent item comes to nothing: the checkout says so rather than pay the referrer 0.
    const { item: mint } = await stack.pos.createItem({
      org: merchant.org,
      name: 'Mint',
      priceCents: 50n,
      currency: 'USD',
      available: true,
    });
    const { referralLink } = await stack.client.createReferralLink({
      org: merchant.org,
      itemId: mint!.id,
      referrerName: 'Coffee Weekly',
      referrerAddress: referrer.address,
      commissionBasisPoints: 100,
    });
    expect(await failure(checkoutThrough(referralLink!.id))).toMatchObject({
      code: 'validation_failed',
      details: { field: 'commission_basis_points' },
    });
  });
});
