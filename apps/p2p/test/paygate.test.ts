import { randomUUID } from 'node:crypto';
import {
  KeyDeriver,
  LockingScript,
  P2PKH,
  PrivateKey,
  ProtoWallet,
  PublicKey,
  Random,
  Transaction,
  Utils,
  type WalletProtocol,
} from '@bsv/sdk';
import { mineBlocks } from '@ctk/chain/local';
import { PaymentEvent, PaymentEventType } from '@ctk/proto/ctk/events/v1/payment_event';
import type { CheckGateRequestResponse, GateAccount, GateGrant } from '@ctk/proto/ctk/p2p/v1/p2p';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, fundedCustomer, merchantWallet, startStack, eventFor, type TestStack } from './support.js';

let stack: TestStack;
const received: PaymentEvent[] = [];
beforeAll(async () => {
  stack = await startStack();
  await stack.transport.consume('test-listener', async (message) => {
    received.push(PaymentEvent.decode(message.data));
  });
});
afterAll(() => stack.close());

async function newAccount(): Promise<{ account: GateAccount; wallet: ReturnType<typeof merchantWallet> }> {
  const wallet = merchantWallet();
  return { account: { org: await stack.orgRef(wallet), accountId: randomUUID() }, wallet };
}

async function priced(account: GateAccount, fields: { path?: string; price?: bigint; calls?: number; seconds?: number } = {}) {
  const { resource } = await stack.client.createGateResource({
    account,
    method: 'GET',
    path: fields.path ?? '/weather/*',
    priceSatoshis: fields.price ?? 1n,
    grant: grant(fields),
    description: 'Weather',
  });
  return resource!;
}

/** What one payment buys: `seconds` of access, else `calls` calls. */
function grant(fields: { calls?: number; seconds?: number }): GateGrant {
  return {
    kind: fields.seconds
      ? { $case: 'window', value: { seconds: fields.seconds } }
      : { $case: 'calls', value: { calls: fields.calls ?? 1 } },
  };
}

/** A customer's coin, mined, so its transaction carries a merkle path into the BEEF. */
async function minedCoin(satoshis = 50_000) {
  const customer = await fundedCustomer(stack.chain, satoshis);
  await mineBlocks(stack.chain.url);
  const status = await stack.chainClient.getStatus(customer.source.id('hex'));
  customer.source.merklePath = status.merklePath;
  return customer;
}

/** A transaction paying `script` `satoshis` (output 0), change to the customer, as BEEF in base64. */
async function paying(script: string, satoshis: number, coin?: Awaited<ReturnType<typeof minedCoin>>) {
  const customer = coin ?? (await minedCoin());
  const tx = new Transaction();
  tx.addInput({
    sourceTransaction: customer.source,
    sourceOutputIndex: customer.vout,
    unlockingScriptTemplate: new P2PKH().unlock(customer.key),
  });
  tx.addOutput({ lockingScript: LockingScript.fromHex(script), satoshis });
  tx.addOutput({
    lockingScript: new P2PKH().lock(customer.key.toAddress('testnet')),
    satoshis: customer.source.outputs[customer.vout]!.satoshis! - satoshis - 100,
  });
  await tx.sign();
  return { tx, beef: Buffer.from(tx.toBEEF()).toString('base64') };
}

type Offer = { nonce: string; lockingScript: string; payTo: string; serverKey: string };

function offerOf(answer: CheckGateRequestResponse): Offer {
  const body = answer.body!;
  return { ...body.accepts[0]!.extra!, payTo: body.accepts[0]!.payTo };
}

function x402Header(offer: Offer, beef: string, vout = 0) {
  const accepted = {
    scheme: 'exact',
    network: 'bsv:local',
    amount: '1',
    asset: 'BSV',
    payTo: offer.payTo,
    maxTimeoutSeconds: 300,
    extra: offer,
  };
  return Buffer.from(JSON.stringify({ x402Version: 2, accepted, payload: { transaction: beef, vout } })).toString('base64');
}

const check = (account: GateAccount, headers: Record<string, string> = {}, url = 'https://api.example.com/weather/today?city=Oakland') =>
  stack.client.checkGateRequest({ account, method: 'GET', url, headers });

describe('priced resources', () => {
  it('are created, listed newest first, refused twice for one method and path, and removed only by their account', async () => {
    const { account } = await newAccount();
    const setup = async () =>
      (await stack.client.getSetup({ org: account.org })).capabilities.find((c) => c.capabilityId === 'paygate_402');
    expect(await setup()).toMatchObject({ setUp: false });
    const weather = await priced(account);
    expect(await setup()).toEqual({ capabilityId: 'paygate_402', setUp: true, nextStep: '' });
    const news = await priced(account, { path: '/news', seconds: 3600, price: 5n });
    expect(news).toMatchObject({ grant: { kind: { $case: 'window', value: { seconds: 3600 } } }, priceSatoshis: 5n });
    const listed = await stack.client.listGateResources({ account });
    expect(listed.resources.map((resource) => resource.id)).toEqual([news.id, weather.id]);
    expect(await failure(priced(account))).toMatchObject({ code: 'already_exists' });

    const other = (await newAccount()).account;
    expect(await failure(stack.client.deleteGateResource({ account: other, id: weather.id }))).toMatchObject({ code: 'not_found' });
    await stack.client.deleteGateResource({ account, id: weather.id });
    expect((await stack.client.listGateResources({ account })).resources.map((resource) => resource.id)).toEqual([news.id]);
    expect(await failure(stack.client.deleteGateResource({ account, id: weather.id }))).toMatchObject({ code: 'not_found' });
  });

  it('refuses a bad method, path, price or grant, naming the field', async () => {
    const { account } = await newAccount();
    const base = {
      account,
      method: 'GET',
      path: '/a',
      priceSatoshis: 1n,
      grant: grant({ calls: 1 }),
      description: '',
    };
    for (const [fields, field] of [
      [{ method: 'TRACE' }, 'method'],
      [{ path: 'weather' }, 'path'],
      [{ path: '/a*b' }, 'path'],
      [{ path: '/a\u0000' }, 'path'],
      [{ path: `/${'w'.repeat(512)}` }, 'path'],
      [{ path: '/weather?city=oakland' }, 'path'],
      [{ path: '/weather/*/today' }, 'path'],
      // Shown to people in lists, a path must not display as another: no C1 control, no bidirectional override, even escaped.
      [{ path: '/weather/\u202etxt.exe' }, 'path'],
      [{ path: '/weather/\u2067x' }, 'path'],
      [{ path: '/weather\u0085' }, 'path'],
      [{ path: '/weather/%E2%80%AEtxt.exe' }, 'path'],
      [{ priceSatoshis: 2_100_000_000_000_001n }, 'price_satoshis'],
      [{ grant: grant({ calls: 1_000_001 }) }, 'grant.calls'],
      [{ grant: grant({ seconds: 31_536_001 }) }, 'grant.seconds'],
      [{ description: 'w'.repeat(501) }, 'description'],
      [{ description: 'Ten \u202estsacerof' }, 'description'],
      [{ priceSatoshis: 0n }, 'price_satoshis'],
      [{ grant: { kind: { $case: 'calls', value: { calls: 0 } } } }, 'grant.calls'],
      [{ grant: { kind: { $case: 'window', value: { seconds: 0 } } } }, 'grant.seconds'],
      [{ description: 'x\u0007' }, 'description'],
    ] as const)
      expect(await failure(stack.client.createGateResource({ ...base, ...fields }))).toMatchObject({
        code: 'validation_failed',
        details: { field },
      });
  });
});

describe('check and verify', () => {
  it('refuses a check or a payment breaking a rule, naming the field', async () => {
    const { account } = await newAccount();
    const request = { account, method: 'GET', url: '/weather/today', headers: {}, payeeKey: '' };
    for (const [fields, field] of [
      [{ method: 'get' }, 'method'],
      [{ url: 'weather/today' }, 'url'],
      [{ url: '//evil.example/weather' }, 'url'],
      [{ url: '/weather today' }, 'url'],
      [{ headers: { 'x-forwarded-for': '203.0.113.7' } }, 'headers.x-forwarded-for'],
      [{ headers: { 'x-bsv-nonce': 'n'.repeat(8_193) } }, 'headers.x-bsv-nonce'],
      [{ payeeKey: `04${'ab'.repeat(64)}` }, 'payee_key'],
    ] as const)
      expect(await failure(stack.client.checkGateRequest({ ...request, ...fields }))).toMatchObject({
        code: 'validation_failed',
        details: { field },
      });
    const payment = { account, transaction: Buffer.from('beef'), vout: 0, nonce: 'q7Lh0V3pX9cJ2mR8tY4wKA', sender: '', time: '' };
    const sender = `02${'ab'.repeat(32)}`;
    for (const [fields, field] of [
      [{ transaction: Buffer.alloc(0) }, 'transaction'],
      [{ vout: 100_001 }, 'vout'],
      [{ nonce: 'q7Lh0V3p+9cJ2mR8tY4wKA' }, 'nonce'],
      [{ nonce: '', sender }, 'time'],
      [{ nonce: '', time: '1795511100000' }, 'sender'],
      [{ nonce: '', sender, time: '2026-11-24' }, 'time'],
      [{ nonce: '' }, 'nonce'],
    ] as const)
      expect(await failure(stack.client.verifyGatePayment({ ...payment, ...fields }))).toMatchObject({
        code: 'validation_failed',
        details: { field },
      });
  });

  it('lets an unpriced URL through and answers a priced one with a fresh payment request in both protocols', async () => {
    const { account, wallet } = await newAccount();
    await priced(account);
    expect(await check(account, {}, 'https://api.example.com/free')).toMatchObject({ outcome: 'free', status: 200 });
    const first = await check(account);
    const second = await check(account);
    expect(first).toMatchObject({ outcome: 'payment_required', status: 402 });
    expect(first.headers['x-bsv-sats']).toBe('1');
    const offer = offerOf(first);
    expect(first.headers['x-bsv-server']).toBe(offer.serverKey);
    expect(offer.lockingScript).toBe(new P2PKH().lock(wallet.account.derive('m/0/0').pubKey.toHash() as number[]).toHex());
    expect(offerOf(second).lockingScript).not.toBe(offer.lockingScript);
    const document = JSON.parse(Buffer.from(first.headers['payment-required']!, 'base64').toString('utf8'));
    expect(document).toEqual(first.body);
    expect(document).toMatchObject({ x402Version: 2, accepts: [{ scheme: 'exact', network: 'bsv:local', amount: '1', asset: 'BSV' }] });
  });

  it('accepts one satoshi over x402, emits payment.received, and counts the calls bought on the credential', async () => {
    const { account } = await newAccount();
    const resource = await priced(account, { calls: 3 });
    const offer = offerOf(await check(account));
    const { tx, beef } = await paying(offer.lockingScript, 1);
    const paid = await check(account, { 'payment-signature': x402Header(offer, beef) });
    expect(paid).toMatchObject({ outcome: 'paid', status: 200, payment: { txid: tx.id('hex'), satoshis: 1n, calls: 3, protocol: 'x402' } });
    const response = JSON.parse(Buffer.from(paid.headers['payment-response']!, 'base64').toString('utf8'));
    expect(response).toEqual({ success: true, transaction: tx.id('hex'), network: 'bsv:local' });
    const token = paid.headers['x-ctk-credential']!;
    expect(paid.credential?.token).toBe(token);

    expect(await check(account, { 'x-ctk-credential': token })).toMatchObject({ outcome: 'paid' });
    expect(await check(account, { 'x-ctk-credential': token })).toMatchObject({ outcome: 'paid', payment: { callsUsed: 3 } });
    const spent = await check(account, { 'x-ctk-credential': token });
    expect(spent).toMatchObject({ outcome: 'payment_required', status: 402, refusal: { code: 'payment_required' } });
    expect(spent.refusal?.message).toMatch(/3 call\(s\) are used up/);

    const event = await eventFor(received, paid.payment!.id);
    expect(event).toMatchObject({
      type: PaymentEventType.PAYMENT_EVENT_TYPE_PAYMENT_RECEIVED,
      organizationId: account.org!.id,
      currency: 'BSV',
      amountMinor: 1n,
      satoshis: 1n,
      txid: tx.id('hex'),
    });
    expect(await stack.chainClient.getStatus(tx.id('hex'))).toMatchObject({ state: expect.stringMatching(/seen|mined|pending/) });
    const payments = await stack.client.listGatePayments({ account });
    expect(payments.payments).toMatchObject([{ txid: tx.id('hex'), resourceId: resource.id }]);
  });

  it('keeps what an overpayment paid and flags it, as orders do: the price and overpaid travel with the payment', async () => {
    const { account } = await newAccount();
    await priced(account, { price: 5n });
    const exact = offerOf(await check(account));
    const paidExactly = await check(account, { 'payment-signature': x402Header(exact, (await paying(exact.lockingScript, 5)).beef) });
    expect(paidExactly.payment).toMatchObject({ satoshis: 5n, priceSatoshis: 5n, overpaid: false });
    const over = offerOf(await check(account));
    const { tx, beef } = await paying(over.lockingScript, 12);
    const paid = await check(account, { 'payment-signature': x402Header(over, beef) });
    expect(paid.payment).toMatchObject({ txid: tx.id('hex'), satoshis: 12n, priceSatoshis: 5n, overpaid: true });
    const listed = (await stack.client.listGatePayments({ account })).payments;
    expect(listed.find((payment) => payment.txid === tx.id('hex'))).toMatchObject({ satoshis: 12n, priceSatoshis: 5n, overpaid: true });
  });

  it('refuses a replayed transaction, a stale nonce, an underpayment and a payment to the wrong output, clearly', async () => {
    const { account } = await newAccount();
    await priced(account, { price: 10n });
    const offer = offerOf(await check(account));
    const { beef } = await paying(offer.lockingScript, 10);
    expect(await check(account, { 'payment-signature': x402Header(offer, beef) })).toMatchObject({ outcome: 'paid' });

    const replay = await check(account, { 'payment-signature': x402Header(offerOf(await check(account)), beef) });
    expect(replay).toMatchObject({ outcome: 'payment_required', status: 402, refusal: { code: 'txid_already_used' } });
    expect(replay.body!.error).toMatch(/^txid_already_used: .*pays once/);

    const stale = await paying(offer.lockingScript, 10);
    expect(await check(account, { 'payment-signature': x402Header(offer, stale.beef) })).toMatchObject({
      refusal: { code: 'payment_expired', message: expect.stringMatching(/already paid/) },
    });

    const fresh = offerOf(await check(account));
    const under = await paying(fresh.lockingScript, 9);
    expect(await check(account, { 'payment-signature': x402Header(fresh, under.beef) })).toMatchObject({
      refusal: { code: 'payment_underpaid' },
    });
    const elsewhere = await paying(new P2PKH().lock(PrivateKey.fromRandom().toAddress('testnet')).toHex(), 10);
    expect(await check(account, { 'payment-signature': x402Header(fresh, elsewhere.beef) })).toMatchObject({
      refusal: { code: 'payment_wrong_output' },
    });
    expect(await stack.chainClient.getTransaction(under.tx.id('hex'))).toBeNull();
    expect(
      await failure(
        stack.client.verifyGatePayment({
          account,
          transaction: Buffer.from(under.beef, 'base64'),
          vout: 0,
          nonce: fresh.nonce,
          sender: '',
          time: '',
        }),
      ),
    ).toMatchObject({
      code: 'payment_underpaid',
    });
  });

  it('accepts BRC-121 headers paying the x-bsv-server key within 30 s, and refuses a stale time', async () => {
    const { account } = await newAccount();
    await priced(account, { seconds: 60 });
    const answer = await check(account);
    const script = new P2PKH().lock(PrivateKey.fromRandom().toPublicKey().toHash() as number[]).toHex();
    expect(script).not.toBe(offerOf(answer).lockingScript);
    const serverScript = new P2PKH().lock(PublicKey.fromString(answer.headers['x-bsv-server']!).toHash() as number[]).toHex();
    const { beef, tx } = await paying(serverScript, 1);
    const sender = PrivateKey.fromRandom().toPublicKey().toString();
    const headers = { 'x-bsv-beef': beef, 'x-bsv-sender': sender, 'x-bsv-nonce': 'bm9uY2U=', 'x-bsv-vout': '0' };
    expect(await check(account, { ...headers, 'x-bsv-time': String(Date.now() - 60_000) })).toMatchObject({
      refusal: { code: 'payment_expired', message: expect.stringMatching(/within 30 s/) },
    });
    const paid = await check(account, { ...headers, 'x-bsv-time': String(Date.now()) });
    expect(paid).toMatchObject({ outcome: 'paid', payment: { txid: tx.id('hex'), protocol: 'brc121', payer: sender } });
    // A time window's payment counts no calls: absent (the API's null), not 0.
    expect(paid.payment?.calls).toBeUndefined();
    expect(await check(account, { 'x-ctk-credential': paid.credential!.token })).toMatchObject({ outcome: 'paid' });
  });

  it('accepts a payment made as @bsv/402-pay makes it, to the BRC-42 key the merchant derives with its own identity key', async () => {
    const { account } = await newAccount();
    await priced(account, { calls: 2, price: 3n });
    const merchantIdentity = PrivateKey.fromRandom();
    const BRC29: WalletProtocol = [2, '3241645161d8'];
    // The client, as @bsv/402-pay's constructPaymentHeaders: a random nonce, the time, a BRC-42 child of x-bsv-server.
    const client = new ProtoWallet(PrivateKey.fromRandom());
    const nonce = Utils.toBase64(Random(8));
    const time = String(Date.now());
    const keyID = `${nonce} ${Utils.toBase64(Utils.toArray(time, 'utf8'))}`;
    const serverKey = merchantIdentity.toPublicKey().toString();
    const { publicKey: derived } = await client.getPublicKey({ protocolID: BRC29, keyID, counterparty: serverKey });
    const { publicKey: sender } = await client.getPublicKey({ identityKey: true });
    const { beef, tx } = await paying(new P2PKH().lock(PublicKey.fromString(derived).toHash() as number[]).toHex(), 3);
    const headers = { 'x-bsv-beef': beef, 'x-bsv-sender': sender, 'x-bsv-nonce': nonce, 'x-bsv-time': time, 'x-bsv-vout': '0' };

    // The merchant's middleware derives the same key with its identity key; the service holds none.
    const payeeKey = new KeyDeriver(merchantIdentity).derivePublicKey(BRC29, keyID, sender, true).toString();
    expect(payeeKey).toBe(derived);
    const wrongKey = new KeyDeriver(PrivateKey.fromRandom()).derivePublicKey(BRC29, keyID, sender, true).toString();
    expect(await stack.client.checkGateRequest({ account, method: 'GET', url: '/weather/now', headers, payeeKey: wrongKey })).toMatchObject(
      {
        refusal: { code: 'payment_wrong_output' },
      },
    );
    const paid = await stack.client.checkGateRequest({ account, method: 'GET', url: '/weather/now', headers, payeeKey });
    expect(paid).toMatchObject({
      outcome: 'paid',
      payment: {
        txid: tx.id('hex'),
        satoshis: 3n,
        protocol: 'brc121',
        payer: sender,
        derivationPrefix: nonce,
        derivationSuffix: keyID.split(' ')[1],
      },
    });
    // The merchant's wallet can spend it: the remittance gives the private key's derivation.
    const spendKey = merchantIdentity.deriveChild(PublicKey.fromString(sender), `2-3241645161d8-${keyID}`);
    expect(spendKey.toPublicKey().toString()).toBe(derived);
    const replay = await stack.client.checkGateRequest({ account, method: 'GET', url: '/weather/now', headers, payeeKey });
    expect(replay).toMatchObject({ outcome: 'payment_required', refusal: { code: 'txid_already_used' } });
  });

  it(
    'of 50 concurrent checks offering one payment, one payment is recorded and each check is answered with it, as a call',
    { tags: ['concurrency'], timeout: 90_000 },
    async () => {
      const { account } = await newAccount();
      await priced(account, { calls: 50 });
      const offer = offerOf(await check(account));
      const { tx, beef } = await paying(offer.lockingScript, 1);
      const answers = await Promise.all(
        // Fifty at once wait their turn for the xpub's lock: longer than one call's default deadline on a loaded machine.
        Array.from({ length: 50 }, () =>
          stack.client.checkGateRequest(
            {
              account,
              method: 'GET',
              url: 'https://api.example.com/weather/today',
              headers: { 'payment-signature': x402Header(offer, beef) },
            },
            { timeoutMs: 60_000 },
          ),
        ),
      );
      // The first records it; the copies are the same payment offered again: answered with it, never recorded twice.
      for (const answer of answers) expect(answer, JSON.stringify(answer.refusal)).toMatchObject({ outcome: 'paid' });
      expect(new Set(answers.map((answer) => answer.payment!.id)).size).toBe(1);
      expect(new Set(answers.map((answer) => answer.credential!.token)).size).toBe(1);
      const payments = (await stack.client.listGatePayments({ account })).payments;
      expect(payments).toMatchObject([{ txid: tx.id('hex'), calls: 50, callsUsed: 50 }]);
      await eventFor(received, payments[0]!.id);
      expect(received.filter((event) => event.txid === tx.id('hex'))).toHaveLength(1);
    },
  );

  it('revokes the credentials of a removed resource in the published document, and another account cannot use them', async () => {
    const { account } = await newAccount();
    const resource = await priced(account, { seconds: 3600 });
    const offer = offerOf(await check(account));
    const { beef } = await paying(offer.lockingScript, 1);
    const paid = await check(account, { 'payment-signature': x402Header(offer, beef) });
    const other = (await newAccount()).account;
    await priced(other, { seconds: 3600 });
    expect(await check(other, { 'x-ctk-credential': paid.credential!.token })).toMatchObject({ outcome: 'payment_required' });

    const published = async () => (await stack.client.getGateKeys({ publicUrl: 'https://pay.example.com/' })).published!;
    const before = await published();
    expect(before).toMatchObject({ issuer: 'https://pay.example.com', maxAgeSeconds: 30 });
    expect(before.keys).toEqual([{ kid: expect.any(String), alg: 'EdDSA', crv: 'Ed25519', x: expect.stringMatching(/^[\w-]{43}$/) }]);
    expect(before.revoked!.resources).not.toContain(resource.id);
    await stack.client.deleteGateResource({ account, id: resource.id });
    expect((await published()).revoked!.resources).toContain(resource.id);
    expect(await check(account, { 'x-ctk-credential': paid.credential!.token })).toMatchObject({ outcome: 'free' });
  });
});

/** Makes the record of a gate payment by `txid` fail (as if the process died after the broadcast) until the answer is called. */
async function failingRecordOf(txid: string): Promise<() => Promise<void>> {
  const name = `fail_record_${txid.slice(0, 16)}`;
  await stack.prisma.$executeRawUnsafe(
    `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $body$ BEGIN RAISE EXCEPTION 'the record failed (test)'; END $body$`,
  );
  await stack.prisma.$executeRawUnsafe(
    `CREATE TRIGGER ${name} BEFORE INSERT ON gate_payments FOR EACH ROW WHEN (NEW.txid = '${txid}') EXECUTE FUNCTION ${name}()`,
  );
  return async () => {
    await stack.prisma.$executeRawUnsafe(`DROP TRIGGER ${name} ON gate_payments`);
    await stack.prisma.$executeRawUnsafe(`DROP FUNCTION ${name}()`);
  };
}

/** The payment.received events of a transaction, once the relay has had time to publish any. */
async function eventsOf(txid: string): Promise<PaymentEvent[]> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  return received.filter((event) => event.txid === txid);
}

describe('a payment offered again (its answer lost, or its record)', () => {
  it('once recorded, is answered as the first time: the same payment and credential, no second event, one call counted', async () => {
    const { account } = await newAccount();
    await priced(account, { calls: 3 });
    const offer = offerOf(await check(account));
    const { tx, beef } = await paying(offer.lockingScript, 1);
    const txid = tx.id('hex');
    const payment = { 'payment-signature': x402Header(offer, beef) };
    const first = await check(account, payment);
    expect(first).toMatchObject({ outcome: 'paid', payment: { txid, calls: 3, callsUsed: 1 } });

    // The answer was lost; the client sends exactly the same request again.
    const again = await check(account, payment);
    expect(again, JSON.stringify(again.refusal)).toMatchObject({
      outcome: 'paid',
      status: 200,
      payment: { id: first.payment!.id, txid, calls: 3, callsUsed: 2, expiresAt: first.payment!.expiresAt },
    });
    // The same credential: the same claims, so the same grant and the same end, not a second grant.
    expect(again.credential).toEqual(first.credential);
    expect(again.headers).toEqual(first.headers);
    expect(await check(account, { 'x-ctk-credential': first.credential!.token })).toMatchObject({
      outcome: 'paid',
      payment: { callsUsed: 3 },
    });
    expect(await check(account, { 'x-ctk-credential': first.credential!.token })).toMatchObject({
      refusal: { code: 'payment_required', message: expect.stringMatching(/3 call\(s\) are used up/) },
    });
    expect((await stack.client.listGatePayments({ account })).payments).toMatchObject([{ id: first.payment!.id }]);
    expect(await eventsOf(txid)).toHaveLength(1);
  });

  it('buys no more than it bought: a one-call payment resent passes once more, then never; a window is never extended', async () => {
    const { account } = await newAccount();
    await priced(account, { calls: 1 });
    const offer = offerOf(await check(account));
    const { tx, beef } = await paying(offer.lockingScript, 1);
    const payment = { 'payment-signature': x402Header(offer, beef) };
    const first = await check(account, payment);
    expect(first).toMatchObject({ outcome: 'paid', payment: { calls: 1, callsUsed: 1 } });
    // The lost answer's call may never have been served: the resend may take it, once.
    expect(await check(account, payment)).toMatchObject({ outcome: 'paid', payment: { id: first.payment!.id, callsUsed: 2 } });
    for (const headers of [payment, { 'x-ctk-credential': first.credential!.token }])
      expect(await check(account, headers)).toMatchObject({ outcome: 'payment_required', status: 402 });
    expect(await check(account, payment)).toMatchObject({
      refusal: { code: 'payment_expired', message: expect.stringMatching(/used up, expired or revoked/) },
    });
    expect((await stack.client.listGatePayments({ account })).payments).toMatchObject([{ callsUsed: 2 }]);
    expect(await eventsOf(tx.id('hex'))).toHaveLength(1);

    const windowed = (await newAccount()).account;
    await priced(windowed, { seconds: 3600 });
    const windowOffer = offerOf(await check(windowed));
    const windowPayment = { 'payment-signature': x402Header(windowOffer, (await paying(windowOffer.lockingScript, 1)).beef) };
    const bought = await check(windowed, windowPayment);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const resent = await check(windowed, windowPayment);
    expect(resent).toMatchObject({ outcome: 'paid', payment: { id: bought.payment!.id, expiresAt: bought.payment!.expiresAt } });
    expect(resent.credential).toEqual(bought.credential);
  });

  it("refuses it with another request's nonce, a second transaction for a paid request, at /verify, and over BRC-121", async () => {
    const { account } = await newAccount();
    await priced(account, { calls: 5 });
    const offer = offerOf(await check(account));
    const { tx, beef } = await paying(offer.lockingScript, 1);
    const paid = await check(account, { 'payment-signature': x402Header(offer, beef) });
    expect(paid).toMatchObject({ outcome: 'paid' });

    // Someone holding this transaction (anyone may read it) and a nonce of their own buys nothing with it.
    const other = offerOf(await check(account));
    const elsewhere = await check(account, { 'payment-signature': x402Header(other, beef) });
    expect(elsewhere).toMatchObject({ outcome: 'payment_required', refusal: { code: 'txid_already_used' } });
    // The request is paid: another transaction for it is refused before it is broadcast.
    const second = await paying(offer.lockingScript, 1);
    expect(await check(account, { 'payment-signature': x402Header(offer, second.beef) })).toMatchObject({
      refusal: { code: 'payment_expired', message: expect.stringMatching(/already paid by another transaction/) },
    });
    expect(await stack.chainClient.getTransaction(second.tx.id('hex'))).toBeNull();
    // /verify answers what it answers the copies of a payment offered at once.
    const verify = { account, transaction: Buffer.from(beef, 'base64'), vout: 0, nonce: offer.nonce, sender: '', time: '' };
    expect(await failure(stack.client.verifyGatePayment(verify))).toMatchObject({ code: 'txid_already_used' });
    // BRC-121 names the request by its script, which anyone reads on the chain: no credential for it again.
    const sender = PrivateKey.fromRandom().toPublicKey().toString();
    const brc121 = {
      'x-bsv-beef': beef,
      'x-bsv-vout': '0',
      'x-bsv-sender': sender,
      'x-bsv-nonce': 'bm9uY2U=',
      'x-bsv-time': String(Date.now()),
    };
    expect(await check(account, brc121)).toMatchObject({ outcome: 'payment_required', refusal: { code: 'txid_already_used' } });
    expect((await stack.client.listGatePayments({ account })).payments).toMatchObject([{ txid: tx.id('hex'), callsUsed: 1 }]);
    expect(await eventsOf(tx.id('hex'))).toHaveLength(1);
  });

  it('of a request offered to more than one payer, gives the credential to the first offer only: its nonce proves nothing', async () => {
    const { account } = await newAccount();
    await priced(account, { calls: 5 });
    // Anonymous opens hold at most 15 addresses (decision 0022): past them, an open request is offered again, nonce and all.
    const nonces = new Set<string>();
    for (let i = 0; i < 15; i++) nonces.add(offerOf(await check(account)).nonce);
    const shared = offerOf(await check(account));
    expect(nonces.has(shared.nonce)).toBe(true);
    const { tx, beef } = await paying(shared.lockingScript, 1);
    const payment = { 'payment-signature': x402Header(shared, beef) };
    // Paid as any payment is, by whichever holder of the nonce offers its transaction first.
    expect(await check(account, payment)).toMatchObject({ outcome: 'paid', payment: { txid: tx.id('hex') } });
    // Offered again, it may come from another holder of the nonce who read the transaction on the chain.
    expect(await check(account, payment)).toMatchObject({
      outcome: 'payment_required',
      refusal: { code: 'txid_already_used', message: expect.stringMatching(/offered to more than one payer/) },
    });
    expect((await stack.client.listGatePayments({ account })).payments).toMatchObject([{ txid: tx.id('hex'), callsUsed: 1 }]);
  });

  it('broadcast but not recorded, is recorded once when offered again after a block mined it, however many offer it at once', async () => {
    const { account } = await newAccount();
    await priced(account, { calls: 10 });
    const offer = offerOf(await check(account));
    const { tx, beef } = await paying(offer.lockingScript, 1);
    const txid = tx.id('hex');
    const payment = { 'payment-signature': x402Header(offer, beef) };
    const recordWorks = await failingRecordOf(txid);
    try {
      expect(await failure(check(account, payment))).toMatchObject({ code: 'internal' });
    } finally {
      await recordWorks();
    }
    // The money moved: the merchant's address is paid, and nothing is recorded.
    expect(await stack.chainClient.getStatus(txid)).toMatchObject({ state: expect.stringMatching(/seen|pending/) });
    expect((await stack.client.listGatePayments({ account })).payments).toEqual([]);
    await mineBlocks(stack.chain.url);
    expect(await stack.chainClient.getStatus(txid)).toMatchObject({ state: 'mined' });

    const answers = await Promise.all(Array.from({ length: 5 }, () => check(account, payment)));
    for (const answer of answers)
      expect(answer, JSON.stringify(answer.refusal)).toMatchObject({ outcome: 'paid', payment: { txid, calls: 10 } });
    expect(new Set(answers.map((answer) => answer.payment!.id)).size).toBe(1);
    const payments = (await stack.client.listGatePayments({ account })).payments;
    expect(payments).toMatchObject([{ txid, callsUsed: 5 }]);
    expect(await eventsOf(txid)).toMatchObject([{ sourceId: payments[0]!.id, satoshis: 1n }]);
    expect(await check(account, { 'x-ctk-credential': answers[0]!.credential!.token })).toMatchObject({ outcome: 'paid' });
  });

  it('mined and never claimed for the request (or claimed only after its block), is refused as today', async () => {
    const { account } = await newAccount();
    await priced(account);
    const offer = offerOf(await check(account));
    const { tx, beef } = await paying(offer.lockingScript, 1);
    const txid = tx.id('hex');
    // Someone else's payment to the address, broadcast and mined before it was offered here.
    await stack.chainClient.broadcast(tx);
    await mineBlocks(stack.chain.url);
    const payment = { 'payment-signature': x402Header(offer, beef) };
    const refused = { outcome: 'payment_required', refusal: { code: 'payment_invalid', message: expect.stringMatching(/already mined/) } };
    expect(await check(account, payment)).toMatchObject(refused);
    // A claim naming it, made hours after its block (as if a process died offering it then), does not make it this request's.
    await stack.prisma.gatePaymentRequest.update({
      where: { nonce: offer.nonce },
      data: { claimedTxid: txid, claimedAt: new Date(Date.now() + 3 * 3_600_000) },
    });
    expect(await check(account, payment)).toMatchObject(refused);
    expect((await stack.client.listGatePayments({ account })).payments).toEqual([]);
    expect(await eventsOf(txid)).toEqual([]);
  });
});
