import { Transaction } from '@bsv/sdk';
import { randomUUID } from 'node:crypto';
import type { Escrow } from '@ctk/proto/ctk/contracts/v1/contracts';
import { eventually, failure } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_URL, STACK_START_MS, startTokenStack, type TokenStack } from './token-stack.js';

let stack: TokenStack;
beforeAll(async () => {
  stack = await startTokenStack();
}, STACK_START_MS);
afterAll(() => stack?.close());

type Wallet = Awaited<ReturnType<TokenStack['newWallet']>>;
type Merchant = Awaited<ReturnType<TokenStack['merchant']>>;

const signed = async (wallet: Wallet, transaction: string) =>
  (await stack.walletCommand<{ transaction: string }>(wallet.file, 'sign-transaction', '--partial', transaction)).transaction;
const handIn = async (wallet: Wallet, joint: { id: string; transaction: string }) =>
  (await stack.client.signJointTransaction({ id: joint.id, transaction: await signed(wallet, joint.transaction) })).jointTransaction!;
const escrowOf = async (id: string) => (await stack.client.getEscrow({ id })).escrow!;

/** An escrow of 50,000 satoshis between the shop, a buyer and an arbiter, funded by the buyer's wallet. */
async function fundedEscrow(merchant: Merchant) {
  const [buyer, arbiter] = [await stack.newWallet(100_000), await stack.newWallet(0)];
  const { escrow } = await stack.client.createEscrow({
    org: merchant.org,
    buyerPublicKey: buyer.public_key,
    arbiterPublicKey: arbiter.public_key,
    satoshis: 50_000n,
    description: 'Custom table, delivered in March',
  });
  const [coin] = await stack.chain.listUnspent(buyer.address);
  const funding = (
    await stack.client.fundEscrow({ id: escrow!.id, inputs: [{ txid: coin!.txid, vout: coin!.vout }], changeAddress: buyer.address })
  ).escrow!;
  await handIn(buyer, funding.funding!);
  return { buyer, arbiter, escrow: await escrowOf(escrow!.id), funding };
}

const settle = async (escrow: Escrow, outcome: 'release' | 'refund') =>
  (await stack.client.settleEscrow({ id: escrow.id, outcome })).escrow!;

describe('an escrow', () => {
  it('is agreed as a 2-of-3 lock of the buyer’s, the shop’s and the arbiter’s keys, funded by the buyer, and released by buyer and seller', async () => {
    const merchant = await stack.merchant();
    const { buyer, arbiter, escrow, funding } = await fundedEscrow(merchant);
    expect(funding).toMatchObject({ status: 'funding', satoshis: 50_000n, sellerPublicKey: merchant.wallet.public_key });
    expect(funding.funding!.outputs[0]).toMatchObject({ satoshis: 50_000n, script: escrow.lockScript });
    expect(funding.funding!.outputs[1]).toMatchObject({ address: buyer.address });
    expect(escrow.lockScript).toBe(`5221${buyer.public_key}21${merchant.wallet.public_key}21${arbiter.public_key}53ae`);
    expect(escrow).toMatchObject({ status: 'funded', releaseAddress: merchant.wallet.address, refundAddress: buyer.address });

    const releasing = await settle(escrow, 'release');
    expect(releasing.status).toBe('settling');
    expect(releasing.release!.outputs).toEqual([expect.objectContaining({ address: merchant.wallet.address })]);
    // The seller alone: one signature of two, the lock holds.
    const sellerOnly = await handIn(merchant.wallet, releasing.release!);
    expect(sellerOnly.status).toBe('collecting');
    await expect(
      stack.chain.broadcast(Transaction.fromHexEF(await signed(merchant.wallet, releasing.release!.transaction))),
    ).rejects.toMatchObject({
      code: 'chain_rejected',
    });
    const released = await handIn(buyer, releasing.release!);
    expect(released.status).toBe('broadcast');
    expect(await escrowOf(escrow.id)).toMatchObject({ status: 'released', nextSteps: [] });
    const paid = await stack.chain.listUnspent(merchant.wallet.address);
    expect(paid.find((coin) => coin.txid === released.txid)?.satoshis).toBe(Number(released.outputs[0]!.satoshis));
    expect(released.outputs[0]!.satoshis).toBeGreaterThan(49_900n);
    // The shop's books: the sale the release paid, in BSV, once.
    const [entry] = await eventually(async () => {
      const { entries } = await stack.books.listJournalEntries({ org: merchant.org, limit: 10 });
      expect(entries).toHaveLength(1);
      return entries;
    });
    expect(entry).toMatchObject({ eventType: 'payment.received', currency: 'BSV', sourceService: 'contracts', txid: released.txid });
    expect(entry!.lines.map((line) => [line.accountCode, line.debitMinor, line.creditMinor])).toEqual([
      ['1010', released.outputs[0]!.satoshis, 0n],
      ['4000', 0n, released.outputs[0]!.satoshis],
    ]);

    // Settled: no refund now, and asking again for the release answers it as it is.
    expect(await failure(stack.client.settleEscrow({ id: escrow.id, outcome: 'refund' }))).toMatchObject({ code: 'failed_precondition' });
    expect((await settle(escrow, 'release')).status).toBe('released');
  });

  it('is refunded by the buyer and the arbiter without the seller', async () => {
    const merchant = await stack.merchant();
    const { buyer, arbiter, escrow } = await fundedEscrow(merchant);
    const refunding = await settle(escrow, 'refund');
    expect(refunding.refund!.outputs).toEqual([expect.objectContaining({ address: buyer.address })]);
    await handIn(arbiter, refunding.refund!);
    const refunded = await handIn(buyer, refunding.refund!);
    expect(refunded.status).toBe('broadcast');
    expect(await escrowOf(escrow.id)).toMatchObject({ status: 'refunded' });
    // The shop never had the money: its books hold nothing.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await stack.books.listJournalEntries({ org: merchant.org, limit: 10 })).entries).toEqual([]);
    // A release proposed now spends what is spent.
    expect(await failure(stack.client.settleEscrow({ id: escrow.id, outcome: 'release' }))).toMatchObject({ code: 'failed_precondition' });
  });

  it('refuses terms that are no escrow, a settlement before funding, and keys nobody holds', async () => {
    const merchant = await stack.merchant();
    const buyer = await stack.newWallet(0);
    const create = (fields: Record<string, unknown>) =>
      failure(
        stack.client.createEscrow({
          org: merchant.org,
          buyerPublicKey: buyer.public_key,
          arbiterPublicKey: buyer.public_key,
          satoshis: 50_000n,
          ...fields,
        }),
      );
    expect(await create({})).toMatchObject({ code: 'validation_failed', details: { field: 'arbiter_public_key' } });
    expect(await create({ arbiterPublicKey: merchant.wallet.public_key })).toMatchObject({ code: 'validation_failed' });
    expect(await create({ arbiterPublicKey: 'ab'.repeat(33) })).toMatchObject({
      code: 'validation_failed',
      details: { field: 'arbiter_public_key' },
    });
    const arbiter = (await stack.newWallet(0)).public_key;
    expect(await create({ arbiterPublicKey: arbiter, satoshis: 999n })).toMatchObject({
      code: 'validation_failed',
      details: { field: 'satoshis' },
    });
    expect(await create({ arbiterPublicKey: arbiter, releaseAddress: 'not-an-address' })).toMatchObject({ code: 'validation_failed' });
    expect(await create({ arbiterPublicKey: arbiter, description: 'x\u0000' })).toMatchObject({ code: 'validation_failed' });
    // A shop paid at one address for every order: a release there would be taken for an order's payment.
    const single = { id: randomUUID(), handle: 'single-address-shop' };
    const singleWallet = await stack.newWallet(0);
    await stack.p2p.setWallet({ org: single, receivingAddress: singleWallet.address, identityPublicKey: singleWallet.public_key });
    expect(
      await failure(
        stack.client.createEscrow({ org: single, buyerPublicKey: buyer.public_key, arbiterPublicKey: arbiter, satoshis: 50_000n }),
      ),
    ).toMatchObject({ code: 'validation_failed', details: { field: 'release_address' } });
    const noKey = { id: '7d3c6a0e-3a43-4c1f-9f3e-2f1f4d1c9b11', handle: 'no-wallet-shop' };
    expect(
      await failure(
        stack.client.createEscrow({ org: noKey, buyerPublicKey: buyer.public_key, arbiterPublicKey: arbiter, satoshis: 50_000n }),
      ),
    ).toMatchObject({
      code: 'failed_precondition',
      details: { reason: 'no_identity_key' },
    });

    const { escrow } = await stack.client.createEscrow({
      org: merchant.org,
      buyerPublicKey: buyer.public_key,
      arbiterPublicKey: arbiter,
      satoshis: 50_000n,
    });
    expect(escrow).toMatchObject({ status: 'awaiting_funding' });
    expect(await failure(stack.client.settleEscrow({ id: escrow!.id, outcome: 'release' }))).toMatchObject({ code: 'failed_precondition' });
    expect(await failure(stack.client.settleEscrow({ id: escrow!.id, outcome: 'steal' }))).toMatchObject({ code: 'validation_failed' });
    expect(await failure(stack.client.getEscrow({ id: 'esc_AAAAAAAAAAAAAAAAAAAAAAAA' }))).toMatchObject({ code: 'not_found' });
    // The buyer's wallet has nothing to fund it with: the funding names a coin the chain does not have.
    expect(
      await failure(
        stack.client.fundEscrow({ id: escrow!.id, inputs: [{ txid: 'ab'.repeat(32), vout: 0 }], changeAddress: buyer.address }),
      ),
    ).toMatchObject({
      code: 'failed_precondition',
    });
    expect((await escrowOf(escrow!.id)).status).toBe('awaiting_funding');
  });
});

describe('an escrow of a pos order', () => {
  /** A shop in California, an open order of one $45.00 line at its counter, and the escrow its buyer agrees to pay it with. */
  async function orderEscrow() {
    const merchant = await stack.merchant(0, 'US-CA');
    const { order } = await stack.pos.createOrder({
      org: merchant.org,
      lines: [{ name: 'Walnut shelf', quantity: 1n, unitPriceMinor: 4_500n, modifiers: [] }],
      staff: true,
      publicUrl: PUBLIC_URL,
    });
    const [buyer, arbiter] = [await stack.newWallet(1_000_000), await stack.newWallet(0)];
    const { escrow } = await stack.client.createEscrow({
      org: merchant.org,
      buyerPublicKey: buyer.public_key,
      arbiterPublicKey: arbiter.public_key,
      orderNumber: order!.orderNumber.toLowerCase(),
    });
    return { merchant, order: order!, buyer, arbiter, escrow: escrow! };
  }

  async function fund(buyer: Wallet, escrow: Escrow) {
    const [coin] = await stack.chain.listUnspent(buyer.address);
    const funding = await stack.client.fundEscrow({
      id: escrow.id,
      inputs: [{ txid: coin!.txid, vout: coin!.vout }],
      changeAddress: buyer.address,
    });
    return handIn(buyer, funding.escrow!.funding!);
  }

  it('holds the order’s satoshis and the release’s fee; funded, pos holds the order paid; released, the order’s sale posts', async () => {
    const { merchant, order, buyer, arbiter, escrow } = await orderEscrow();
    expect(order.taxMinor).toBeGreaterThan(0n);
    expect(escrow).toMatchObject({
      status: 'awaiting_funding',
      orderNumber: order.orderNumber,
      orderTotalMinor: order.totalMinor,
      currency: 'USD',
      orderPayment: 'pending',
      description: `Order ${order.orderNumber}`,
    });
    const fee = escrow.satoshis - order.dueSatoshis;
    expect(fee).toBeGreaterThan(0n);
    expect(fee).toBeLessThan(1_000n);

    expect((await fund(buyer, escrow)).status).toBe('broadcast');
    expect(await escrowOf(escrow.id)).toMatchObject({ status: 'funded', orderPayment: 'paid' });
    // The order stops expiring and takes no other payment: pos holds it paid by this escrow.
    expect((await stack.pos.getOrder({ orderNumber: order.orderNumber })).order).toMatchObject({
      status: 'paid_elsewhere',
      paidElsewhereBy: 'escrow',
    });
    const paidElsewhere = (provider: string, paymentRef: string) =>
      stack.pos.markOrderPaidElsewhere({ org: merchant.org, orderNumber: order.orderNumber, provider, paymentRef, publicUrl: PUBLIC_URL });
    expect(await failure(paidElsewhere('card-provider', 'pi_3Q'))).toMatchObject({
      code: 'failed_precondition',
      details: { reason: 'paid_elsewhere' },
    });
    expect((await paidElsewhere('escrow', escrow.id)).order).toMatchObject({ paidElsewhereBy: 'escrow' });
    // Nothing posts while the money is in the lock.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await stack.books.listJournalEntries({ org: merchant.org, limit: 10 })).entries).toEqual([]);

    const releasing = await settle(escrow, 'release');
    await handIn(arbiter, releasing.release!);
    const released = await handIn(merchant.wallet, releasing.release!);
    expect(released.status).toBe('broadcast');
    // The release pays the shop exactly what the order was due; the fee the escrow held pays the miners.
    expect(released.outputs).toEqual([expect.objectContaining({ address: merchant.wallet.address, satoshis: order.dueSatoshis })]);
    expect(released.feeSatoshis).toBe(fee);
    const [entry] = await eventually(async () => {
      const { entries } = await stack.books.listJournalEntries({ org: merchant.org, limit: 10 });
      expect(entries).toHaveLength(1);
      return entries;
    });
    expect(entry).toMatchObject({ eventType: 'payment.received', currency: 'USD', sourceService: 'contracts', txid: released.txid });
    expect(entry!.lines.map((line) => [line.accountCode, line.debitMinor, line.creditMinor])).toEqual([
      ['1010', order.totalMinor, 0n],
      ['4000', 0n, order.totalMinor - order.taxMinor],
      ['2100', 0n, order.taxMinor],
    ]);
  });

  it('paid at the counter first, the funded escrow is not the order’s payment: it is refused a release and refunded whole', async () => {
    const { merchant, order, buyer, arbiter, escrow } = await orderEscrow();
    await stack.payOrder(order.orderNumber);
    await fund(buyer, escrow);
    const funded = await escrowOf(escrow.id);
    expect(funded).toMatchObject({ status: 'funded', orderPayment: 'refused' });
    expect(funded.orderRefusal).toContain('bitcoin payment');
    expect(funded.nextSteps[0]).toContain('refund');
    expect(await failure(stack.client.settleEscrow({ id: escrow.id, outcome: 'release' }))).toMatchObject({
      code: 'failed_precondition',
      details: { reason: 'order_refused' },
    });
    const refunding = await settle(escrow, 'refund');
    await handIn(arbiter, refunding.refund!);
    const refunded = await handIn(buyer, refunding.refund!);
    expect(refunded.outputs).toEqual([expect.objectContaining({ address: buyer.address, satoshis: order.dueSatoshis })]);
    // The books hold the counter's sale alone.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { entries } = await stack.books.listJournalEntries({ org: merchant.org, limit: 10 });
    expect(entries.map((each) => each.sourceService)).toEqual(['pos']);
  });

  it('is agreed only for an open order of the shop’s own that nothing has paid, and with satoshis or an order, not both', async () => {
    const { merchant, order, buyer, arbiter } = await orderEscrow();
    const other = await stack.merchant(0);
    const create = (org: typeof merchant.org, fields: Record<string, unknown>) =>
      failure(stack.client.createEscrow({ org, buyerPublicKey: buyer.public_key, arbiterPublicKey: arbiter.public_key, ...fields }));
    expect(await create(other.org, { orderNumber: order.orderNumber })).toMatchObject({
      code: 'validation_failed',
      details: { field: 'order_number' },
    });
    expect(await create(merchant.org, { orderNumber: order.orderNumber, satoshis: 50_000n })).toMatchObject({ code: 'validation_failed' });
    expect(await create(merchant.org, {})).toMatchObject({ code: 'validation_failed' });
    expect(await create(merchant.org, { orderNumber: 'bad\u0000' })).toMatchObject({ code: 'validation_failed' });
    expect(await create(merchant.org, { orderNumber: 'OOOOUUUUII' })).toMatchObject({
      code: 'validation_failed',
      details: { field: 'order_number' },
    });
    // One escrow an order.
    expect(await create(merchant.org, { orderNumber: order.orderNumber })).toMatchObject({
      code: 'failed_precondition',
      details: { reason: 'in_escrow' },
    });
    await stack.pos.cancelOrder({ org: merchant.org, orderNumber: order.orderNumber, publicUrl: PUBLIC_URL });
    expect(await create(merchant.org, { orderNumber: order.orderNumber })).toMatchObject({
      code: 'failed_precondition',
      details: { reason: 'cancelled' },
    });
  });
});
