import { randomUUID } from 'node:crypto';
import { BSM, HD, P2PKH, PrivateKey, Utils } from '@bsv/sdk';
import { parseReceipt } from '@ctk/chain';
import { PaymentEvent } from '@ctk/proto/ctk/events/v1/payment_event';
import type { OrgRef } from '@ctk/proto/ctk/common/v1/common';
import { grpcHealthStatus } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundedCustomer, failure, merchantWallet, payOutputs, startStack, eventFor, type TestStack } from './support.js';

// One p2p and one local chain for the file. Each test makes its own organisation (a fresh wallet) and its own
// references, and reads only the events of its own references, so no test depends on what another left.
let stack: TestStack;
const received: PaymentEvent[] = [];
beforeAll(async () => {
  stack = await startStack();
  await stack.transport.consume('test-listener', async (message) => {
    received.push(PaymentEvent.decode(message.data));
  });
});
afterAll(() => stack.close());

const target = (org: OrgRef, alias = 'cafe') => ({ org, paymail: `${alias}@shop.example` });
const childScript = (xpub: string, index: number) =>
  new P2PKH().lock(HD.fromString(xpub).derive(`m/0/${index}`).pubKey.toHash() as number[]).toHex();
const bsm = (message: string, key: PrivateKey) => BSM.sign(Utils.toArray(message, 'utf8'), key) as string;

describe('paymentDestination: a fresh output of the organisation per request', () => {
  it(
    'derives the next child of the xpub each time, 0/0, 0/1, ..., never the same twice even at once',
    { tags: ['concurrency'] },
    async () => {
      const wallet = merchantWallet();
      const org = await stack.orgRef(wallet);
      const first = await stack.client.getPaymentDestination({ target: target(org) });
      expect(first.output).toBe(childScript(wallet.xpub, 0));
      const many = await Promise.all(Array.from({ length: 8 }, () => stack.client.getPaymentDestination({ target: target(org) })));
      const scripts = new Set(many.map((answer) => answer.output));
      expect(scripts.size).toBe(8);
      expect(scripts).toEqual(new Set(Array.from({ length: 8 }, (_, i) => childScript(wallet.xpub, i + 1))));
    },
  );

  it('pays a single receiving address when the organisation registered no xpub, and refuses when it registered nothing', async () => {
    const address = PrivateKey.fromRandom().toAddress('testnet');
    expect((await stack.client.getPaymentDestination({ target: target(await stack.orgRef({ receivingAddress: address })) })).output).toBe(
      new P2PKH().lock(address).toHex(),
    );
    expect(await failure(stack.client.getPaymentDestination({ target: target(await stack.orgRef()) }))).toMatchObject({
      code: 'failed_precondition',
    });
  });

  it("checks a sender's request: a BSM signature over senderHandle + amount + dt + purpose, and a current dt", async () => {
    const wallet = merchantWallet();
    const org = await stack.orgRef(wallet);
    const sender = PrivateKey.fromRandom();
    const dt = new Date().toISOString();
    const fields = { senderName: 'Bob', senderHandle: 'bob@wallet.example', dt, amount: '5000', purpose: 'coffee', senderRequest: true };
    const signed = { ...fields, signature: bsm(`bob@wallet.example5000${dt}coffee`, sender) };
    expect((await stack.client.getPaymentDestination({ target: target(org), ...signed })).output).toBe(childScript(wallet.xpub, 0));
    // Without an amount, "0" is what was signed.
    const noAmount = { ...fields, amount: '', signature: bsm(`bob@wallet.example0${dt}coffee`, sender) };
    expect((await stack.client.getPaymentDestination({ target: target(org), ...noAmount })).output).toBe(childScript(wallet.xpub, 1));
    // Unsigned is accepted (sender validation is not required), but a signature that is not one is refused.
    expect((await stack.client.getPaymentDestination({ target: target(org), ...fields })).output).toBe(childScript(wallet.xpub, 2));
    expect(
      await failure(stack.client.getPaymentDestination({ target: target(org), ...fields, signature: 'not-a-signature' })),
    ).toMatchObject({ code: 'invalid_signature' });
  });

  it('refuses a sender request without a handle or dt, with a dt too old or in the future, or not a time at all', async () => {
    const org = await stack.orgRef(merchantWallet());
    const request = (dt: string, senderHandle = 'bob@wallet.example') =>
      stack.client.getPaymentDestination({ target: target(org), senderHandle, dt, senderRequest: true });
    expect(await failure(request(new Date().toISOString(), ''))).toMatchObject({
      code: 'validation_failed',
      details: { field: 'senderHandle' },
    });
    expect(await failure(request(''))).toMatchObject({ code: 'validation_failed', details: { field: 'dt' } });
    expect(await failure(request(new Date(Date.now() - 10 * 60_000).toISOString()))).toMatchObject({
      code: 'validation_failed',
      details: { field: 'dt' },
    });
    expect(await failure(request(new Date(Date.now() + 10 * 60_000).toISOString()))).toMatchObject({
      code: 'validation_failed',
      details: { field: 'dt' },
    });
    expect(await failure(request('yesterday'))).toMatchObject({ code: 'validation_failed', details: { field: 'dt' } });
    expect(await failure(request('1700000000'))).toMatchObject({ code: 'validation_failed', details: { field: 'dt' } });
  });
});

describe('P2P payment destination and receive transaction', () => {
  it('issues a fresh output for the satoshis and an OP_RETURN receipt naming the paymail and the reference', async () => {
    const wallet = merchantWallet();
    const org = await stack.orgRef(wallet);
    const destination = await stack.client.createP2pDestination({ target: target(org), satoshis: 12_345n });
    expect(destination.reference).toMatch(/^[0-9a-f]{32}$/);
    expect(destination.outputs).toHaveLength(2);
    expect(destination.outputs[0]).toEqual({ script: childScript(wallet.xpub, 0), satoshis: 12_345n });
    expect(destination.outputs[1]!.satoshis).toBe(0n);
    expect(parseReceipt(destination.outputs[1]!.script)).toMatchObject({ merchant: 'cafe@shop.example', reference: destination.reference });
    // Fifteen minutes (P2P_REFERENCE_TTL_SECONDS' default) from when it was asked for.
    const ttl = Date.parse(destination.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);
    expect(await failure(stack.client.createP2pDestination({ target: target(org), satoshis: 0n }))).toMatchObject({
      code: 'validation_failed',
      details: { field: 'satoshis' },
    });
  });

  it('accepts a transaction paying the destination, signed by the sender, broadcasts it and emits payment.received in BSV', async () => {
    const org = await stack.orgRef(merchantWallet());
    const destination = await stack.client.createP2pDestination({ target: target(org), satoshis: 20_000n });
    const customer = await fundedCustomer(stack.chain);
    const tx = await payOutputs(customer, destination.outputs);
    const sender = PrivateKey.fromRandom();
    const answer = await stack.client.receiveP2pTransaction({
      target: target(org),
      reference: destination.reference,
      hex: tx.toHex(),
      sender: 'bob@wallet.example',
      pubkey: sender.toPublicKey().toString(),
      signature: bsm(tx.id('hex'), sender),
      note: 'for the coffee',
    });
    expect(answer).toEqual({ txid: tx.id('hex'), note: 'Payment received, thank you.' });
    expect((await stack.chainClient.getStatus(tx.id('hex'))).state).toBe('seen');
    expect(await eventFor(received, destination.reference)).toMatchObject({
      id: `p2p.paymail.${destination.reference}`,
      organizationId: org.id,
      sourceService: 'p2p',
      currency: 'BSV',
      amountMinor: 20_000n,
      taxMinor: 0n,
      satoshis: 20_000n,
      exchangeRate: '1',
      txid: tx.id('hex'),
      description: 'Paymail payment to cafe@shop.example from bob@wallet.example',
    });

    // The same transaction for the same reference again (a wallet retrying) answers the same and emits nothing more.
    expect(await stack.client.receiveP2pTransaction({ target: target(org), reference: destination.reference, hex: tx.toHex() })).toEqual(
      answer,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received.filter((event) => event.sourceId === destination.reference)).toHaveLength(1);
  });

  it('accepts the transaction as BEEF (5c55a7fdb7bb)', async () => {
    const org = await stack.orgRef(merchantWallet());
    const destination = await stack.client.createP2pDestination({ target: target(org), satoshis: 1_000n });
    const tx = await payOutputs(await fundedCustomer(stack.chain), destination.outputs);
    expect(
      await stack.client.receiveP2pTransaction({ target: target(org), reference: destination.reference, beef: Utils.toHex(tx.toBEEF()) }),
    ).toMatchObject({ txid: tx.id('hex') });
    expect(await eventFor(received, destination.reference)).toMatchObject({ satoshis: 1_000n });
  });

  it('refuses an underpayment, a payment without the receipt output, a bad sender signature, and emits nothing for them', async () => {
    const org = await stack.orgRef(merchantWallet());
    const destination = await stack.client.createP2pDestination({ target: target(org), satoshis: 10_000n });
    const [paymentOutput, receipt] = destination.outputs as [{ script: string; satoshis: bigint }, { script: string; satoshis: bigint }];
    const under = await payOutputs(await fundedCustomer(stack.chain), [{ ...paymentOutput, satoshis: 9_999n }, receipt]);
    expect(
      await failure(stack.client.receiveP2pTransaction({ target: target(org), reference: destination.reference, hex: under.toHex() })),
    ).toMatchObject({ code: 'payment_underpaid', details: { required_satoshis: 10_000, paid_satoshis: 9_999 } });
    expect((await stack.chainClient.getStatus(under.id('hex'))).state).toBe('unknown');

    const noReceipt = await payOutputs(await fundedCustomer(stack.chain), [paymentOutput]);
    expect(
      await failure(stack.client.receiveP2pTransaction({ target: target(org), reference: destination.reference, hex: noReceipt.toHex() })),
    ).toMatchObject({ code: 'payment_wrong_output', details: { expected_output: 1 } });

    const good = await payOutputs(await fundedCustomer(stack.chain), destination.outputs);
    const someoneElse = PrivateKey.fromRandom();
    expect(
      await failure(
        stack.client.receiveP2pTransaction({
          target: target(org),
          reference: destination.reference,
          hex: good.toHex(),
          pubkey: PrivateKey.fromRandom().toPublicKey().toString(),
          signature: bsm(good.id('hex'), someoneElse),
        }),
      ),
    ).toMatchObject({ code: 'invalid_signature' });
    expect(
      await failure(
        stack.client.receiveP2pTransaction({
          target: target(org),
          reference: destination.reference,
          hex: good.toHex(),
          signature: bsm(good.id('hex'), someoneElse),
        }),
      ),
    ).toMatchObject({ code: 'validation_failed', details: { field: 'metadata.pubkey' } });
    expect((await stack.chainClient.getStatus(good.id('hex'))).state).toBe('unknown');
    expect(
      await eventFor(received, destination.reference).then(() => received.some((event) => event.sourceId === destination.reference)),
    ).toBe(false);
  });

  it("passes on the chain's refusal of a double spend and of a transaction with a bad input signature", async () => {
    const org = await stack.orgRef(merchantWallet());
    const destination = await stack.client.createP2pDestination({ target: target(org), satoshis: 10_000n });
    const customer = await fundedCustomer(stack.chain);
    const elsewhere = await payOutputs(customer, [
      { script: new P2PKH().lock(PrivateKey.fromRandom().toAddress('testnet')).toHex(), satoshis: 5_000 },
    ]);
    await stack.chainClient.broadcast(elsewhere);
    const doubleSpend = await payOutputs(customer, destination.outputs);
    expect(
      await failure(
        stack.client.receiveP2pTransaction({ target: target(org), reference: destination.reference, hex: doubleSpend.toHex() }),
      ),
    ).toMatchObject({ code: 'chain_rejected', details: { tx_status: 'DOUBLE_SPEND_ATTEMPTED', competing_txs: [elsewhere.id('hex')] } });

    const forged = await payOutputs(await fundedCustomer(stack.chain), destination.outputs, { signer: PrivateKey.fromRandom() });
    expect(
      await failure(stack.client.receiveP2pTransaction({ target: target(org), reference: destination.reference, hex: forged.toHex() })),
    ).toMatchObject({ code: 'chain_rejected', details: { arc_status: 461 } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received.some((event) => event.sourceId === destination.reference)).toBe(false);

    // The refusals held the reference only while the chain answered: a good payment still pays it.
    const good = await payOutputs(await fundedCustomer(stack.chain), destination.outputs);
    expect(
      await stack.client.receiveP2pTransaction({ target: target(org), reference: destination.reference, hex: good.toHex() }),
    ).toMatchObject({ txid: good.id('hex') });
    expect((await eventFor(received, destination.reference))?.txid).toBe(good.id('hex'));
  });

  it('accepts a transaction the chain already has (the wallet broadcast it, or a receive stopped after broadcasting), and records it once', async () => {
    const org = await stack.orgRef(merchantWallet());
    const destination = await stack.client.createP2pDestination({ target: target(org), satoshis: 4_000n });
    const tx = await payOutputs(await fundedCustomer(stack.chain), destination.outputs);
    await stack.chainClient.broadcast(tx);
    expect(
      await stack.client.receiveP2pTransaction({ target: target(org), reference: destination.reference, hex: tx.toHex() }),
    ).toMatchObject({ txid: tx.id('hex') });
    expect((await eventFor(received, destination.reference))?.satoshis).toBe(4_000n);
  });

  it('refuses a txid already used for another payment, and a second transaction for a paid reference', async () => {
    const org = await stack.orgRef(merchantWallet());
    const first = await stack.client.createP2pDestination({ target: target(org), satoshis: 3_000n });
    const tx = await payOutputs(await fundedCustomer(stack.chain), first.outputs);
    await stack.client.receiveP2pTransaction({ target: target(org), reference: first.reference, hex: tx.toHex() });
    const second = await stack.client.createP2pDestination({ target: target(org), satoshis: 3_000n });
    expect(
      await failure(stack.client.receiveP2pTransaction({ target: target(org), reference: second.reference, hex: tx.toHex() })),
    ).toMatchObject({ code: 'txid_already_used', details: { txid: tx.id('hex') } });
    const another = await payOutputs(await fundedCustomer(stack.chain), first.outputs);
    expect(
      await failure(stack.client.receiveP2pTransaction({ target: target(org), reference: first.reference, hex: another.toHex() })),
    ).toMatchObject({ code: 'conflict', details: { paid_txid: tx.id('hex') } });
  });

  it('lets only one of two transactions sent at once for one reference pay it', { tags: ['concurrency'] }, async () => {
    const org = await stack.orgRef(merchantWallet());
    const destination = await stack.client.createP2pDestination({ target: target(org), satoshis: 2_000n });
    const [a, b] = await Promise.all([fundedCustomer(stack.chain), fundedCustomer(stack.chain)]);
    const [txA, txB] = await Promise.all([payOutputs(a, destination.outputs), payOutputs(b, destination.outputs)]);
    const results = await Promise.allSettled(
      [txA, txB].map((tx) =>
        stack.client.receiveP2pTransaction({ target: target(org), reference: destination.reference, hex: tx.toHex() }),
      ),
    );
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((results.find((result) => result.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ code: 'conflict' });
  });

  it(
    'lets one transaction paying two references at once pay only one of them, and takes the same transaction sent five times at once as one payment',
    { tags: ['concurrency'] },
    async () => {
      const org = await stack.orgRef(merchantWallet());
      const [first, second] = await Promise.all(
        [1, 2].map(() => stack.client.createP2pDestination({ target: target(org), satoshis: 1_000n })),
      );
      const both = await payOutputs(await fundedCustomer(stack.chain), [...first!.outputs, ...second!.outputs]);
      const results = await Promise.allSettled(
        [first!, second!].map((d) =>
          stack.client.receiveP2pTransaction({ target: target(org), reference: d.reference, hex: both.toHex() }),
        ),
      );
      expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect((results.find((result) => result.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({
        code: 'txid_already_used',
      });

      const again = await stack.client.createP2pDestination({ target: target(org), satoshis: 1_000n });
      const tx = await payOutputs(await fundedCustomer(stack.chain), again.outputs);
      const answers = await Promise.all(
        [1, 2, 3, 4, 5].map(() => stack.client.receiveP2pTransaction({ target: target(org), reference: again.reference, hex: tx.toHex() })),
      );
      expect(new Set(answers.map((answer) => answer.txid))).toEqual(new Set([tx.id('hex')]));
      await eventFor(received, again.reference);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(received.filter((event) => event.sourceId === again.reference)).toHaveLength(1);
    },
  );

  it('records a payment whose sender, key or note holds a NUL character (which the database cannot store) rather than fail after broadcasting it', async () => {
    const org = await stack.orgRef(merchantWallet());
    const destination = await stack.client.createP2pDestination({ target: target(org), satoshis: 1_500n });
    const tx = await payOutputs(await fundedCustomer(stack.chain), destination.outputs);
    const answer = await stack.client.receiveP2pTransaction({
      target: target(org),
      reference: destination.reference,
      hex: tx.toHex(),
      sender: 'bob\u0000@wallet.example',
      pubkey: '02\u0000',
      note: 'flat\u0000white',
    });
    expect(answer).toMatchObject({ txid: tx.id('hex') });
    expect(await eventFor(received, destination.reference)).toMatchObject({
      txid: tx.id('hex'),
      description: 'Paymail payment to cafe@shop.example from bob@wallet.example',
    });
  });

  it('answers not_found for a reference it never issued, whatever its characters, without asking the database', async () => {
    const org = await stack.orgRef(merchantWallet());
    const destination = await stack.client.createP2pDestination({ target: target(org), satoshis: 1_000n });
    const tx = await payOutputs(await fundedCustomer(stack.chain), destination.outputs);
    for (const reference of [
      `${destination.reference}\u0000`,
      '\u0000',
      destination.reference.toUpperCase(),
      `${destination.reference} `,
      'x'.repeat(100),
    ]) {
      expect(
        await failure(stack.client.receiveP2pTransaction({ target: target(org), reference, hex: tx.toHex() })),
        JSON.stringify(reference),
      ).toMatchObject({ code: 'not_found', details: { field: 'reference' } });
    }
    expect((await stack.chainClient.getStatus(tx.id('hex'))).state).toBe('unknown');
  });

  it("refuses an unknown reference, another organisation's reference, a transaction that is not hex or BEEF, and a reference that expired", async () => {
    const org = await stack.orgRef(merchantWallet());
    const destination = await stack.client.createP2pDestination({ target: target(org), satoshis: 1_000n });
    const tx = await payOutputs(await fundedCustomer(stack.chain), destination.outputs);
    expect(
      await failure(stack.client.receiveP2pTransaction({ target: target(org), reference: randomUUID(), hex: tx.toHex() })),
    ).toMatchObject({ code: 'not_found' });
    expect(
      await failure(
        stack.client.receiveP2pTransaction({
          target: target(await stack.orgRef(merchantWallet())),
          reference: destination.reference,
          hex: tx.toHex(),
        }),
      ),
    ).toMatchObject({ code: 'not_found' });
    expect(
      await failure(stack.client.receiveP2pTransaction({ target: target(org), reference: destination.reference, hex: 'zz' })),
    ).toMatchObject({ code: 'validation_failed', details: { field: 'hex' } });
    expect(
      await failure(stack.client.receiveP2pTransaction({ target: target(org), reference: destination.reference, beef: tx.toHex() })),
    ).toMatchObject({ code: 'validation_failed', details: { field: 'beef' } });

    const expiredAt = new Date(Date.now() - 1_000);
    await stack.prisma.paymailReference.update({ where: { reference: destination.reference }, data: { expiresAt: expiredAt } });
    expect(
      await failure(stack.client.receiveP2pTransaction({ target: target(org), reference: destination.reference, hex: tx.toHex() })),
    ).toMatchObject({ code: 'payment_expired', details: { expired_at: expiredAt.toISOString() } });
    expect((await stack.chainClient.getStatus(tx.id('hex'))).state).toBe('unknown');
  });

  it('answers SERVING on grpc.health.v1 and reports paymail set up once a wallet is registered', async () => {
    expect(await grpcHealthStatus(`127.0.0.1:${stack.port}`, 'ctk.p2p.v1.P2pService')).toBe('SERVING');
    const without = await stack.client.getSetup({ org: await stack.orgRef() });
    expect(without.capabilities.find((c) => c.capabilityId === 'paymail')).toMatchObject({
      setUp: false,
      nextStep: expect.stringContaining('wallet_xpub'),
    });
    const withXpub = await stack.client.getSetup({ org: await stack.orgRef(merchantWallet()) });
    expect(withXpub.capabilities.map((c) => [c.capabilityId, c.setUp])).toEqual([
      ['paygate_402', false],
      ['paymail', true],
      ['wallet_api', true],
      ['receiving_address', false],
    ]);
    // The payment gate: an xpub first, then a priced resource.
    expect(without.capabilities[0]!.nextStep).toContain('wallet_xpub');
    expect(withXpub.capabilities[0]!.nextStep).toContain('POST /api/v1/402/resources');
  });
});
