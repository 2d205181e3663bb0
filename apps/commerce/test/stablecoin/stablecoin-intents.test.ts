import { randomBytes } from 'node:crypto';
import { Transaction, UnlockingScript } from '@bsv/sdk';
import { tokenTransferOutput } from '@ctk/chain';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import type { StablecoinIntent } from '@ctk/proto/ctk/commerce/v1/commerce';
import { eventually } from '@ctk/shared/testing';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, PUBLIC_URL, startCommerceStack, type CommerceStack } from '../commerce-stack.js';
import { stablecoinCustomer } from './stablecoin-wallet.js';

let stack: CommerceStack;
beforeAll(async () => {
  stack = await startCommerceStack();
}, 120_000);
afterAll(async () => stack?.close());

/** The shop's staff, as the gateway names them to commerce. */
const owner = { createdBy: 'user-owner', callerRole: 'owner', publicUrl: PUBLIC_URL };

async function shop(): Promise<OrgRef> {
  return stack.walletOrg({ jurisdiction: 'US-CA', pricesIncludeTax: true });
}

async function intentFor(org: OrgRef, amountCents: bigint, description = 'Catering deposit'): Promise<StablecoinIntent> {
  const { intent } = await stack.client.createStablecoinIntent({ org, amountCents, description, ...owner });
  return intent!;
}

const settle = (intent: StablecoinIntent, transaction: { toHexEF(): string }) =>
  stack.client.settleStablecoinIntent({ paymentId: intent.id, transaction: transaction.toHexEF(), publicUrl: PUBLIC_URL });

async function entries(org: OrgRef) {
  return (await stack.books.listJournalEntries({ org, limit: 100 })).entries;
}

describe('a stablecoin intent', () => {
  it('for $12.50 is paid by a cosigned transfer: it succeeds once, its order is paid, and the books post the stablecoin with tax', async () => {
    const org = await shop();
    const intent = await intentFor(org, 1250n);
    expect(intent).toMatchObject({ status: 'requires_payment', amountCents: 1250n, currency: 'USD', orgHandle: org.handle });
    expect(intent.payment).toMatchObject({ symbol: 'USDX', decimals: 5, tokenAmount: '1250000' });
    // The intent's own address, never the order's bitcoin one.
    const { order } = await stack.pos.getOrder({ orderNumber: intent.orderNumber });
    expect(intent.payment!.address).not.toBe(order!.address);
    expect(intent.taxCents).toBe(order!.taxMinor);
    expect(intent.taxCents).toBeGreaterThan(0n);

    const customer = await stablecoinCustomer(stack.chainUrl, 5_000_000n);
    const transfer = await customer.transfer([{ address: intent.payment!.address, amount: 1_250_000n }]);
    const { intent: paid } = await settle(intent, transfer);
    expect(paid).toMatchObject({ status: 'succeeded', succeededAt: expect.any(String) });
    expect(paid!.transfers).toEqual([expect.objectContaining({ txid: transfer.id('hex'), tokenAmount: '1250000', outcome: 'accepted' })]);
    const { order: paidOrder } = await stack.pos.getOrder({ orderNumber: intent.orderNumber });
    expect(paidOrder).toMatchObject({ status: 'paid_elsewhere', paidElsewhereBy: 'stablecoin' });

    const [entry] = await eventually(async () => {
      const found = await entries(org);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(entry).toMatchObject({ eventType: 'payment.received', currency: 'USD', sourceService: 'commerce', txid: transfer.id('hex') });
    const lines = entry!.lines.map((line) => [line.accountCode, line.debitMinor, line.creditMinor]);
    expect(lines).toEqual(
      expect.arrayContaining([
        ['1030', 1250n, 0n],
        ['4000', 0n, 1250n - intent.taxCents],
        ['2100', 0n, intent.taxCents],
      ]),
    );

    // The same transfer again, by its txid or whole: the intent as it is, and nothing posted twice.
    const again = await stack.client.settleStablecoinIntent({ paymentId: intent.id, txid: transfer.id('hex') });
    expect(again.intent).toEqual(paid);
    expect((await settle(intent, transfer)).intent).toEqual(paid);
    expect((await stack.client.getStablecoinIntent({ paymentId: intent.id })).intent).toEqual(paid);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await entries(org)).toHaveLength(1);
  });

  it('refuses a transfer of another token, too little, to another address, without the cosigner, and after expiry, each by its code', async () => {
    const org = await shop();
    const intent = await intentFor(org, 1250n);
    const to = intent.payment!.address;

    const other = await stablecoinCustomer(stack.chainUrl, 5_000_000n);
    expect(await failure(settle(intent, await other.mintOwnToken(to, 1_250_000n)))).toMatchObject({
      code: 'stablecoin_wrong_token',
      details: { expected: intent.payment!.tokenId },
    });
    const short = await stablecoinCustomer(stack.chainUrl, 5_000_000n);
    expect(await failure(settle(intent, await short.transfer([{ address: to, amount: 1_249_999n }])))).toMatchObject({
      code: 'payment_underpaid',
      details: { token_amount: '1249999', expected: '1250000' },
    });
    const elsewhere = await stablecoinCustomer(stack.chainUrl, 5_000_000n);
    expect(await failure(settle(intent, await elsewhere.transfer([{ address: elsewhere.address, amount: 1_250_000n }])))).toMatchObject({
      code: 'payment_wrong_output',
    });
    const unapproved = await stablecoinCustomer(stack.chainUrl, 5_000_000n);
    expect(
      await failure(settle(intent, await unapproved.transfer([{ address: to, amount: 1_250_000n }], { cosigned: false }))),
    ).toMatchObject({
      code: 'stablecoin_not_approved',
      details: { input: 0 },
    });
    // None of them paid it, and none was broadcast as a payment of it.
    expect((await stack.client.getStablecoinIntent({ paymentId: intent.id })).intent).toMatchObject({
      status: 'requires_payment',
      transfers: [],
    });

    const late = await stablecoinCustomer(stack.chainUrl, 5_000_000n);
    const onTime = await late.transfer([{ address: to, amount: 1_250_000n }]);
    stack.advance(16 * 60);
    try {
      expect((await stack.client.getStablecoinIntent({ paymentId: intent.id })).intent?.status).toBe('expired');
      expect(await failure(settle(intent, onTime))).toMatchObject({ code: 'payment_expired' });
    } finally {
      stack.advance(-16 * 60);
    }
  });

  it(
    'settles once under 100 concurrent settles of one transfer: one accepted transfer, one journal entry',
    { tags: ['concurrency'] },
    async () => {
      const org = await shop();
      const intent = await intentFor(org, 990n);
      const customer = await stablecoinCustomer(stack.chainUrl, 5_000_000n);
      const transfer = await customer.transfer([{ address: intent.payment!.address, amount: 990_000n }]);
      const answers = await Promise.allSettled(Array.from({ length: 100 }, () => settle(intent, transfer)));
      const refused = answers.flatMap((answer) => (answer.status === 'rejected' ? [answer.reason as { code: string }] : []));
      // They settle one after another in commerce: the first records the transfer, the others find it recorded and
      // answer the intent; none fails on its own, nor waits its turn on the order's row in pos.
      expect(refused).toEqual([]);
      for (const answer of answers) if (answer.status === 'fulfilled') expect(answer.value.intent?.status).toBe('succeeded');
      const { intent: read } = await stack.client.getStablecoinIntent({ paymentId: intent.id });
      expect(read!.transfers.filter((transfer) => transfer.outcome === 'accepted')).toHaveLength(1);
      await eventually(async () => expect(await entries(org)).toHaveLength(1));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await entries(org)).toHaveLength(1);
    },
  );

  it('refuses a handed-over transfer of more than 100 inputs before looking any of them up', async () => {
    const org = await shop();
    const intent = await intentFor(org, 500n);
    const { tokenId, cosignerPublicKey } = intent.payment!;
    const tx = new Transaction();
    for (let i = 0; i < 101; i++)
      tx.addInput({ sourceTXID: randomBytes(32).toString('hex'), sourceOutputIndex: 0, unlockingScript: new UnlockingScript([]) });
    tx.addOutput(tokenTransferOutput({ address: intent.payment!.address, tokenId, amount: 500_000n, cosignerPublicKey }));
    expect(await failure(stack.client.settleStablecoinIntent({ paymentId: intent.id, transaction: tx.toHex() }))).toMatchObject({
      code: 'validation_failed',
      details: { field: 'transaction' },
    });
  });

  it('is opened once for a checkout asked for by 30 callers at once: one intent, one address', { tags: ['concurrency'] }, async () => {
    const org = await shop();
    const scone = await stack.item(org, { name: 'Scone', priceCents: 350n });
    const { checkout } = await stack.client.createCheckout({
      org,
      lines: [{ itemId: scone.id, quantity: 1n, modifierIds: [] }],
      publicUrl: PUBLIC_URL,
    });
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        stack.client.createStablecoinIntent({ org, checkout: checkout!.publicToken, publicUrl: PUBLIC_URL, clientAddress: '203.0.113.9' }),
      ),
    );
    expect(new Set(answers.map((answer) => answer.intent!.id)).size).toBe(1);
    expect(new Set(answers.map((answer) => answer.intent!.payment!.address)).size).toBe(1);
  });

  it('is opened by anyone for a checkout, by staff only for an amount or an order, and once per order', async () => {
    const org = await shop();
    const latte = await stack.item(org, { name: 'Oat latte', priceCents: 575n });
    const { checkout } = await stack.client.createCheckout({
      org,
      lines: [{ itemId: latte.id, quantity: 2n, modifierIds: [] }],
      publicUrl: PUBLIC_URL,
    });
    const anyone = { publicUrl: PUBLIC_URL, clientAddress: '203.0.113.7' };
    const first = (await stack.client.createStablecoinIntent({ org, checkout: checkout!.publicToken, ...anyone })).intent!;
    expect(first).toMatchObject({ checkout: checkout!.publicToken, orderNumber: checkout!.order!.orderNumber, amountCents: 1150n });
    const second = (await stack.client.createStablecoinIntent({ org, checkout: checkout!.publicToken, ...anyone })).intent!;
    expect(second.id).toBe(first.id);
    expect(second.payment!.address).toBe(first.payment!.address);

    expect(await failure(stack.client.createStablecoinIntent({ org, amountCents: 500n, ...anyone }))).toMatchObject({
      code: 'unauthenticated',
    });
    expect(
      await failure(stack.client.createStablecoinIntent({ org, amountCents: 500n, createdBy: 'someone', callerRole: '', ...anyone })),
    ).toMatchObject({ code: 'forbidden' });
    // Another shop's order is not found here, and one form at a time.
    const elsewhere = await shop();
    expect(
      await failure(stack.client.createStablecoinIntent({ org: elsewhere, orderNumber: checkout!.order!.orderNumber, ...owner })),
    ).toMatchObject({ code: 'not_found', details: { field: 'order_number' } });
    expect(
      await failure(stack.client.createStablecoinIntent({ org, amountCents: 500n, orderNumber: checkout!.order!.orderNumber, ...owner })),
    ).toMatchObject({ code: 'validation_failed' });
    expect(await failure(stack.client.getStablecoinIntent({ paymentId: 'spi_not-an-intent' }))).toMatchObject({ code: 'not_found' });
  });

  it('answers its address as a QR code for a wallet to scan, to anyone holding its id', async () => {
    const intent = await intentFor(await shop(), 250n, 'Scone');
    const svg = await stack.client.getStablecoinIntentQr({ paymentId: intent.id, format: '' });
    expect(svg.contentType).toBe('image/svg+xml');
    // The address alone: what a token wallet reads, as the order's QR is drawn.
    const drawn = await QRCode.toString(intent.payment!.address, { errorCorrectionLevel: 'M', margin: 2, type: 'svg' });
    expect(Buffer.from(svg.body).toString('utf8')).toBe(drawn);
    const png = await stack.client.getStablecoinIntentQr({ paymentId: intent.id, format: 'png' });
    expect([png.contentType, Buffer.from(png.body).subarray(1, 4).toString()]).toEqual(['image/png', 'PNG']);
    expect(await failure(stack.client.getStablecoinIntentQr({ paymentId: intent.id, format: 'gif' }))).toMatchObject({
      code: 'validation_failed',
      details: { field: 'format' },
    });
    expect(await failure(stack.client.getStablecoinIntentQr({ paymentId: `spi_${'Q'.repeat(32)}`, format: '' }))).toMatchObject({
      code: 'not_found',
    });
  });
});
