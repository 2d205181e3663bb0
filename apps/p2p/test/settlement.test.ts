import { randomUUID } from 'node:crypto';
import { HD, P2PKH, PrivateKey } from '@bsv/sdk';
import { mineBlocks } from '@ctk/chain/local';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import type { SettlePaymentRequest } from '@ctk/proto/ctk/p2p/v1/p2p';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, fundedCustomer, merchantWallet, payOutputs, startStack, type TestStack } from './support.js';

const GAP_LIMIT = 3;
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ P2P_GAP_LIMIT: String(GAP_LIMIT) });
});
afterAll(() => stack.close());

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const childAddress = (xpub: string, index: number) => HD.fromString(xpub).derive(`m/0/${index}`).pubKey.toAddress('testnet') as string;
const randomScript = () => new P2PKH().lock(PrivateKey.fromRandom().toAddress('testnet')).toHex();
const order = () => ({ purpose: 'pos.order', sourceId: randomUUID() });
const allocate = (org: OrgRef) => stack.client.allocateDestination({ org, expiresAt: inMinutes(15), staff: true, purpose: 'pos.order' });

/** A customer's transaction paying `outputs`, signed and not yet broadcast. */
async function paying(outputs: { script: string; satoshis: number }[]) {
  return payOutputs(await fundedCustomer(stack.chain, 50_000), outputs);
}

function settle(org: OrgRef, fields: Partial<SettlePaymentRequest>) {
  return stack.client.settlePayment({ org, claim: order(), expected: [], transaction: '', txid: '', ...fields });
}

describe('AllocateDestination: a receiving output for an order, under the gap limit', () => {
  it('hands out fresh children up to the gap limit, then none while all are held (decision 0022); a settlement paying a child moves the window', async () => {
    const wallet = merchantWallet();
    const org = await stack.orgRef(wallet);
    const first = await Promise.all(Array.from({ length: GAP_LIMIT }, () => allocate(org)));
    expect(first.map((answer) => answer.derivationIndex).sort()).toEqual([0, 1, 2]);
    for (const answer of first) {
      expect(answer.address).toBe(childAddress(wallet.xpub, answer.derivationIndex!));
      expect(answer.script).toBe(new P2PKH().lock(answer.address).toHex());
    }
    const full = await failure(allocate(org));
    expect(full.code).toBe('failed_precondition');
    expect(full.details).toMatchObject({ awaited_payments: GAP_LIMIT, gap_limit: GAP_LIMIT });

    const highest = first.find((answer) => answer.derivationIndex === 2)!;
    const tx = await paying([{ script: highest.script, satoshis: 1_000 }]);
    await settle(org, { expected: [{ script: highest.script, minSatoshis: 1_000n }], transaction: tx.toHex() });
    const fresh = await Promise.all(Array.from({ length: GAP_LIMIT }, () => allocate(org)));
    expect(fresh.map((answer) => answer.derivationIndex).sort()).toEqual([3, 4, 5]);
  });

  it('answers the single receiving address without an xpub, and says how to register a wallet without either', async () => {
    const address = PrivateKey.fromRandom().toAddress('testnet');
    expect(await allocate(await stack.orgRef({ receivingAddress: address }))).toEqual({
      address,
      script: new P2PKH().lock(address).toHex(),
    });
    const refused = await failure(allocate(await stack.orgRef()));
    expect(refused.code).toBe('failed_precondition');
    expect(refused.message).toMatch(/wallet_xpub .* receiving_address with PATCH \/api\/v1\/organizations\//);
  });

  it.each([
    ['not RFC 3339', '2026-11-23 16:00'],
    ['NUL', `${inMinutes(10)}\u0000`],
    ['in the past', inMinutes(-1)],
    ['more than 7 days ahead', inMinutes(7 * 24 * 60 + 5)],
  ])('refuses expires_at %s', async (_, expiresAt) => {
    const refused = await failure(stack.client.allocateDestination({ org: await stack.orgRef(merchantWallet()), expiresAt }));
    expect(refused).toMatchObject({ code: 'validation_failed', details: { field: 'expires_at' } });
  });
});

describe('SettlePayment: a transaction pays one claim', () => {
  it('verifies, broadcasts and records a submitted transaction, with the satoshis paid to each expected output', async () => {
    const org = await stack.orgRef(merchantWallet());
    const destination = await allocate(org);
    const receipt = randomScript();
    // Two outputs to the order's script: both count.
    const tx = await paying([
      { script: destination.script, satoshis: 3_000 },
      { script: destination.script, satoshis: 2_500 },
      { script: receipt, satoshis: 1 },
    ]);
    const answer = await settle(org, {
      expected: [
        { script: destination.script, minSatoshis: 3_000n },
        { script: receipt.toUpperCase(), minSatoshis: 0n },
      ],
      transaction: tx.toHex(),
    });
    expect(answer).toEqual({ txid: tx.id('hex'), paidSatoshis: [5_500n, 1n], status: 'seen', alreadyRecorded: false });
    expect(await stack.client.getTransactionStatus({ txid: tx.id('hex') })).toEqual({
      txid: tx.id('hex'),
      status: 'seen',
      confirmations: 0n,
    });
  });

  it('settles a transaction named by txid once the chain has it, and a retry answers the same, already recorded', async () => {
    const org = await stack.orgRef(merchantWallet());
    const destination = await allocate(org);
    const tx = await paying([{ script: destination.script, satoshis: 4_000 }]);
    await stack.chainClient.broadcast(tx);
    const { height } = await mineBlocks(stack.chain.url, 1);
    const claim = order();
    const request = { claim, expected: [{ script: destination.script, minSatoshis: 4_000n }], txid: tx.id('hex').toUpperCase() };
    const first = await settle(org, request);
    expect(first).toEqual({ txid: tx.id('hex'), paidSatoshis: [4_000n], status: 'mined', blockHeight: height, alreadyRecorded: false });
    expect(await settle(org, request)).toEqual({ ...first, alreadyRecorded: true });
    expect(await settle(org, { ...request, txid: '', transaction: tx.toHex() })).toEqual({ ...first, alreadyRecorded: true });

    const other = await failure(settle(org, { ...request, claim: order() }));
    expect(other).toMatchObject({ code: 'txid_already_used', details: { txid: tx.id('hex') } });
    // Another organisation's claim with the same purpose and id is another claim.
    expect(await failure(settle(await stack.orgRef(merchantWallet()), request))).toMatchObject({ code: 'txid_already_used' });
    expect(await stack.client.getTransactionStatus({ txid: tx.id('hex') })).toEqual({
      txid: tx.id('hex'),
      status: 'mined',
      blockHeight: height,
      confirmations: 1n,
    });
  });

  it('records a transaction broadcast before a crash when the settlement is retried', async () => {
    const org = await stack.orgRef(merchantWallet());
    const destination = await allocate(org);
    const tx = await paying([{ script: destination.script, satoshis: 2_000 }]);
    await stack.chainClient.broadcast(tx); // broadcast, then the process died before recording
    const request = { claim: order(), expected: [{ script: destination.script, minSatoshis: 2_000n }], transaction: tx.toHex() };
    expect(await settle(org, request)).toMatchObject({ txid: tx.id('hex'), alreadyRecorded: false });
    expect(await settle(org, request)).toMatchObject({ txid: tx.id('hex'), alreadyRecorded: true });
  });

  it('refuses an underpaid or wrong transaction and broadcasts nothing', async () => {
    const org = await stack.orgRef(merchantWallet());
    const destination = await allocate(org);
    const tx = await paying([{ script: destination.script, satoshis: 5_000 }]);
    const underpaid = await failure(
      settle(org, { expected: [{ script: destination.script, minSatoshis: 5_001n }], transaction: tx.toHex() }),
    );
    expect(underpaid).toMatchObject({ code: 'payment_underpaid', details: { required_satoshis: 5_001, paid_satoshis: 5_000 } });
    const wrong = await failure(
      settle(org, {
        expected: [
          { script: destination.script, minSatoshis: 5_000n },
          { script: randomScript(), minSatoshis: 0n },
        ],
        transaction: tx.toHex(),
      }),
    );
    expect(wrong).toMatchObject({ code: 'payment_wrong_output', details: { expected_output: 1 } });
    expect(await failure(stack.client.getTransactionStatus({ txid: tx.id('hex') }))).toMatchObject({ code: 'not_found' });
    // A txid the chain does not know is not a payment.
    expect(await failure(settle(org, { expected: [{ script: destination.script, minSatoshis: 1n }], txid: tx.id('hex') }))).toMatchObject({
      code: 'not_found',
    });
  });

  it('lets exactly one of 20 concurrent claims on one transaction win', { tags: ['concurrency'] }, async () => {
    const org = await stack.orgRef(merchantWallet());
    const destination = await allocate(org);
    const tx = await paying([{ script: destination.script, satoshis: 1_500 }]);
    const expected = [{ script: destination.script, minSatoshis: 1_500n }];
    const claims = Array.from({ length: 20 }, () => order());
    const results = await Promise.allSettled(claims.map((claim) => settle(org, { claim, expected, transaction: tx.toHex() })));
    const won = results.flatMap((result, index) => (result.status === 'fulfilled' ? [index] : []));
    expect(won).toHaveLength(1);
    for (const result of results)
      if (result.status === 'rejected') expect((result.reason as { code: string }).code).toBe('txid_already_used');
    // The winner's retry is recognised; every other claim stays refused.
    expect(await settle(org, { claim: claims[won[0]!], expected, txid: tx.id('hex') })).toMatchObject({ alreadyRecorded: true });
    expect(await failure(settle(org, { claim: claims[(won[0]! + 1) % 20], expected, txid: tx.id('hex') }))).toMatchObject({
      code: 'txid_already_used',
    });
  });

  it('refuses a transaction that already paid a paymail reference', async () => {
    const wallet = merchantWallet();
    const org = await stack.orgRef(wallet);
    const target = { org, paymail: 'cafe@shop.example' };
    const destination = await stack.client.createP2pDestination({ target, satoshis: 1_000n });
    const tx = await paying(destination.outputs.map((output) => ({ script: output.script, satoshis: Number(output.satoshis) })));
    await stack.client.receiveP2pTransaction({ target, reference: destination.reference, hex: tx.toHex() });
    const script = destination.outputs[0]!.script;
    expect(await failure(settle(org, { expected: [{ script, minSatoshis: 1_000n }], txid: tx.id('hex') }))).toMatchObject({
      code: 'txid_already_used',
    });
  });

  it.each<[string, Partial<SettlePaymentRequest>, string]>([
    ['both transaction and txid', { transaction: '00', txid: 'a'.repeat(64) }, 'transaction'],
    ['neither transaction nor txid', { txid: '' }, 'transaction'],
    ['a txid that is not hex', { txid: 'g'.repeat(64) }, 'txid'],
    ['a transaction that is not hex', { transaction: 'zz' }, 'transaction'],
    ['a transaction that is not one', { transaction: '0100' }, 'transaction'],
    ['no expected output', { expected: [] }, 'expected'],
    ['11 expected outputs', { expected: Array.from({ length: 11 }, () => ({ script: '6a', minSatoshis: 0n })) }, 'expected'],
    ['a script that is not hex', { expected: [{ script: '76a9zz', minSatoshis: 1n }] }, 'expected[0].script'],
    ['negative satoshis', { expected: [{ script: '6a', minSatoshis: -1n }] }, 'expected[0].min_satoshis'],
    ['a purpose without a service', { claim: { purpose: 'paymail', sourceId: 'x' } }, 'claim.purpose'],
    ['an empty source id', { claim: { purpose: 'pos.order', sourceId: '' } }, 'claim.source_id'],
    ['a NUL in the source id', { claim: { purpose: 'pos.order', sourceId: 'order\u00001' } }, 'claim.source_id'],
    ['a source id of 201 characters', { claim: { purpose: 'pos.order', sourceId: 'x'.repeat(201) } }, 'claim.source_id'],
  ])('refuses %s', async (_, fields, field) => {
    const request = { expected: [{ script: randomScript(), minSatoshis: 1n }], txid: 'a'.repeat(64), ...fields };
    expect(await failure(settle(await stack.orgRef(merchantWallet()), request))).toMatchObject({
      code: 'validation_failed',
      details: { field },
    });
  });
});

describe('FindPayments and GetTransactionStatus: chain reads for the watcher', () => {
  it('finds a payment to an allocated address, and its height once mined', async () => {
    const org = await stack.orgRef(merchantWallet());
    const [paid, unpaid] = [await allocate(org), await allocate(org)];
    const tx = await paying([{ script: paid.script, satoshis: 1_200 }]);
    await stack.chainClient.broadcast(tx);
    expect(await stack.client.findPayments({ addresses: [paid.address, unpaid.address] })).toEqual({
      payments: [{ address: paid.address, txid: tx.id('hex') }],
    });
    const { height } = await mineBlocks(stack.chain.url, 1);
    expect((await stack.client.findPayments({ addresses: [paid.address] })).payments).toEqual([
      { address: paid.address, txid: tx.id('hex'), height },
    ]);
  });

  it.each([
    ['a mainnet address on the local chain', PrivateKey.fromRandom().toAddress('mainnet') as string],
    // The last character changed, never left as it was (an address ending in 1 kept it valid 1 time in 58).
    [
      'a bad checksum',
      ((address: string) => `${address.slice(0, -1)}${address.endsWith('1') ? '2' : '1'}`)(
        PrivateKey.fromRandom().toAddress('testnet') as string,
      ),
    ],
    ['a NUL', `${PrivateKey.fromRandom().toAddress('testnet')}\u0000`],
    ['a long string', 'm'.repeat(10_000)],
  ])('refuses %s, naming it', async (_, bad) => {
    const good = PrivateKey.fromRandom().toAddress('testnet') as string;
    expect(await failure(stack.client.findPayments({ addresses: [good, bad] }))).toMatchObject({
      code: 'validation_failed',
      details: { field: 'addresses[1]' },
    });
  });

  it('refuses more than 100 addresses', async () => {
    const addresses = Array.from({ length: 101 }, () => PrivateKey.fromRandom().toAddress('testnet') as string);
    expect(await failure(stack.client.findPayments({ addresses }))).toMatchObject({
      code: 'validation_failed',
      details: { field: 'addresses' },
    });
  });

  it('answers 404 for a transaction the chain does not know, and 422 for what is not a txid', async () => {
    expect(await failure(stack.client.getTransactionStatus({ txid: 'ab'.repeat(32) }))).toMatchObject({ code: 'not_found' });
    expect(await failure(stack.client.getTransactionStatus({ txid: 'ab\u0000' }))).toMatchObject({
      code: 'validation_failed',
      details: { field: 'txid' },
    });
  });
});
