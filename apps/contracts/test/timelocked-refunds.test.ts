import { Transaction } from '@bsv/sdk';
import type { TimelockedRefund } from '@ctk/proto/ctk/contracts/v1/contracts';
import { eventually, failure } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STACK_START_MS, startTokenStack, type TokenStack } from './token-stack.js';

let stack: TokenStack;
beforeAll(async () => {
  stack = await startTokenStack();
}, STACK_START_MS);
afterAll(() => stack?.close());

type Wallet = Awaited<ReturnType<TokenStack['newWallet']>>;
type Merchant = Awaited<ReturnType<TokenStack['merchant']>>;
const DAY = 86_400;

const signed = async (wallet: Wallet, transaction: string) =>
  (await stack.walletCommand<{ transaction: string }>(wallet.file, 'sign-transaction', '--partial', transaction)).transaction;
const handIn = async (wallet: Wallet, joint: { id: string; transaction: string }) =>
  (await stack.client.signJointTransaction({ id: joint.id, transaction: await signed(wallet, joint.transaction) })).jointTransaction!;
const read = async (id: string) => (await stack.client.getTimelockedRefund({ id })).timelockedRefund!;

/** Agreed for 50,000 satoshis refundable after a day; funded by the buyer once both signed the refund. */
async function activeRefund(merchant: Merchant) {
  const buyer = await stack.newWallet(100_000);
  const refundAfter = new Date(stack.now().getTime() + DAY * 1000);
  const { timelockedRefund: agreed } = await stack.client.createTimelockedRefund({
    org: merchant.org,
    buyerPublicKey: buyer.public_key,
    satoshis: 50_000n,
    refundAfter: refundAfter.toISOString(),
    description: 'Deposit on a wedding cake',
  });
  const [coin] = await stack.chain.listUnspent(buyer.address);
  const funding = (
    await stack.client.fundTimelockedRefund({
      id: agreed!.id,
      inputs: [{ txid: coin!.txid, vout: coin!.vout }],
      changeAddress: buyer.address,
    })
  ).timelockedRefund!;
  const fundingSigned = await handIn(buyer, funding.funding!);
  // Signed, the funding stays off the chain: the buyer does not hold the refund yet.
  expect(fundingSigned.status).toBe('signed');
  expect(await stack.chain.getTransaction(fundingSigned.txid!)).toBeNull();
  const signing = await read(agreed!.id);
  expect(signing.status).toBe('signing_refund');
  await handIn(buyer, signing.refund!);
  await handIn(merchant.wallet, signing.refund!);
  const active = await read(agreed!.id);
  return { buyer, agreed: agreed!, active, fundingTxid: fundingSigned.txid! };
}

describe('a time-locked refund', () => {
  it('is signed by both before the buyer’s money moves, refused by the chain before its date and broadcast after it', async () => {
    const merchant = await stack.merchant();
    const { buyer, agreed, active, fundingTxid } = await activeRefund(merchant);
    expect(agreed).toMatchObject({ status: 'awaiting_funding', lockScript: `5221${buyer.public_key}21${merchant.wallet.public_key}52ae` });
    expect(active).toMatchObject({ status: 'active', funding: { status: 'broadcast', txid: fundingTxid } });
    const refund = Transaction.fromHex(active.refund!.signedTransaction!);
    expect(refund.lockTime).toBe(Math.floor(Date.parse(active.refundAfter) / 1000));
    expect(refund.inputs[0]!.sequence).toBe(0xfffffffe);
    expect(active.refund!.outputs).toEqual([expect.objectContaining({ address: buyer.address })]);

    // The buyer broadcasting it now: the chain refuses it as not final.
    await expect(stack.chain.broadcast(refund)).rejects.toMatchObject({
      code: 'chain_rejected',
      message: expect.stringContaining('non-final'),
    });
    expect((await read(agreed.id)).status).toBe('active');

    // Two days on, the chain's median time past passes the date: reading it broadcasts the refund.
    await stack.advance(2 * DAY);
    const refunded = await read(agreed.id);
    expect(refunded).toMatchObject({ status: 'refunded', refund: { status: 'broadcast' }, nextSteps: [] });
    expect((await stack.chain.listUnspent(buyer.address)).some((coin) => coin.txid === refunded.refund!.txid)).toBe(true);
  });

  it('is never taken once both released the lock to the shop, and cancelling early needs both', async () => {
    const merchant = await stack.merchant();
    const { buyer, agreed } = await activeRefund(merchant);
    const cancelling = (await stack.client.settleTimelockedRefund({ id: agreed.id, outcome: 'cancel' })).timelockedRefund!;
    // The buyer alone cannot cancel: still active.
    expect((await handIn(buyer, cancelling.cancel!)).status).toBe('collecting');
    expect((await read(agreed.id)).status).toBe('active');

    const releasing = (await stack.client.settleTimelockedRefund({ id: agreed.id, outcome: 'release' })).timelockedRefund!;
    await handIn(buyer, releasing.release!);
    await handIn(merchant.wallet, releasing.release!);
    const released: TimelockedRefund = await read(agreed.id);
    expect(released).toMatchObject({
      status: 'released',
      release: { status: 'broadcast', outputs: [{ address: merchant.wallet.address }] },
    });
    // The shop's books: the sale the release paid, in BSV.
    const { entries } = await eventually(async () => {
      const found = await stack.books.listJournalEntries({ org: merchant.org, limit: 10 });
      expect(found.entries).toHaveLength(1);
      return found;
    });
    expect(entries[0]).toMatchObject({ eventType: 'payment.received', currency: 'BSV', sourceService: 'contracts' });
    expect(entries[0]!.lines.find((line) => line.accountCode === '1010')?.debitMinor).toBe(released.release!.outputs[0]!.satoshis);

    // Past its date the refund spends what is spent: the chain refuses it, and it stays released.
    await stack.advance(2 * DAY);
    expect((await read(agreed.id)).status).toBe('released');
    await expect(stack.chain.broadcast(Transaction.fromHex(released.refund!.signedTransaction!))).rejects.toMatchObject({
      code: 'chain_rejected',
    });
  });

  it('refuses a date too near or too far, the shop’s own key as the buyer’s, and settling before funding', async () => {
    const merchant = await stack.merchant();
    const buyer = await stack.newWallet(0);
    const agree = (fields: Record<string, unknown>) =>
      failure(
        stack.client.createTimelockedRefund({
          org: merchant.org,
          buyerPublicKey: buyer.public_key,
          satoshis: 50_000n,
          refundAfter: new Date(stack.now().getTime() + DAY * 1000).toISOString(),
          ...fields,
        }),
      );
    for (const refundAfter of [
      new Date(stack.now().getTime() + 60_000).toISOString(),
      new Date(stack.now().getTime() + 800 * DAY * 1000).toISOString(),
      'tomorrow',
      '',
    ])
      expect(await agree({ refundAfter })).toMatchObject({ code: 'validation_failed', details: { field: 'refund_after' } });
    expect(await agree({ buyerPublicKey: merchant.wallet.public_key })).toMatchObject({ code: 'validation_failed' });
    expect(await agree({ satoshis: 10n })).toMatchObject({ code: 'validation_failed', details: { field: 'satoshis' } });
    const { timelockedRefund } = await stack.client.createTimelockedRefund({
      org: merchant.org,
      buyerPublicKey: buyer.public_key,
      satoshis: 50_000n,
      refundAfter: new Date(stack.now().getTime() + DAY * 1000).toISOString(),
    });
    expect(await failure(stack.client.settleTimelockedRefund({ id: timelockedRefund!.id, outcome: 'release' }))).toMatchObject({
      code: 'failed_precondition',
      details: { reason: 'awaiting_funding' },
    });
    expect(await failure(stack.client.getTimelockedRefund({ id: 'tlr_AAAAAAAAAAAAAAAAAAAAAAAA' }))).toMatchObject({ code: 'not_found' });
  });
});

describe('the watcher', () => {
  let watched: TokenStack;
  beforeAll(async () => {
    watched = await startTokenStack({ watchIntervalMs: 200 });
  }, STACK_START_MS);
  afterAll(() => watched?.close());

  it('broadcasts a refund past its date without anyone reading it', async () => {
    const merchant = await watched.merchant();
    const buyer = await watched.newWallet(100_000);
    const sign = async (wallet: Wallet, joint: { id: string; transaction: string }) => {
      const { transaction } = await watched.walletCommand<{ transaction: string }>(
        wallet.file,
        'sign-transaction',
        '--partial',
        joint.transaction,
      );
      return (await watched.client.signJointTransaction({ id: joint.id, transaction })).jointTransaction!;
    };
    const { timelockedRefund: agreed } = await watched.client.createTimelockedRefund({
      org: merchant.org,
      buyerPublicKey: buyer.public_key,
      satoshis: 40_000n,
      refundAfter: new Date(watched.now().getTime() + DAY * 1000).toISOString(),
    });
    const [coin] = await watched.chain.listUnspent(buyer.address);
    const funding = (
      await watched.client.fundTimelockedRefund({
        id: agreed!.id,
        inputs: [{ txid: coin!.txid, vout: coin!.vout }],
        changeAddress: buyer.address,
      })
    ).timelockedRefund!;
    await sign(buyer, funding.funding!);
    // The watcher builds the refund to sign, then broadcasts the funding once both signed it.
    const listed = async () => (await watched.client.listTimelockedRefunds({ org: merchant.org })).data[0]!;
    const signing = await eventually(async () => {
      const found = await listed();
      expect(found.status).toBe('signing_refund');
      return found;
    });
    await sign(buyer, signing.refund!);
    await sign(merchant.wallet, signing.refund!);
    await eventually(async () => expect((await listed()).status).toBe('active'));
    await watched.advance(2 * DAY);
    await eventually(async () => expect((await listed()).status).toBe('refunded'));
  });
});
