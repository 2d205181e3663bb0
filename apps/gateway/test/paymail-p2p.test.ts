import { BSM, LockingScript, P2PKH, PrivateKey, Transaction, Utils } from '@bsv/sdk';
import { mineBlocks, requestFaucet } from '@ctk/chain/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, onboard, type Onboarded } from './harness.js';
import { http, merchantKeys, startPaymailStack, type HttpAnswer, type PaymailStack } from './paymail-harness.js';
import { startReceiptInstance } from './receipts-harness.js';
import { uniqueName } from './support.js';

let stack: PaymailStack;
let merchant: Onboarded;
let paymail: string;
const keys = merchantKeys();

beforeAll(async () => {
  // The rate-limit test below asks for well over the anonymous cap of destinations (decision 0022, tested in
  // p2p's address-holds.test.ts): a wallet scanning 500 addresses ahead keeps them all answerable.
  stack = await startPaymailStack({ p2pEnv: { P2P_GAP_LIMIT: '500' } });
  const alias = `cafe${Math.floor(Math.random() * 1e6)}`;
  merchant = await onboard(stack.gateway, uniqueName('Harbour Coffee'), { paymail_alias: alias });
  const patched = await http(
    'PATCH',
    `${stack.base}/api/v1/organizations/${merchant.handle}`,
    {
      wallet_xpub: keys.xpub,
      identity_public_key: keys.identity.toPublicKey().toString(),
      avatar_url: 'https://img.example/cafe.png',
    },
    bearer(merchant.key),
  );
  expect(patched.status).toBe(200);
  paymail = patched.json.paymail;
  expect(paymail).toBe(`${alias}@localhost`);
});
afterAll(() => stack?.close());

/** What a paying wallet does first: the capability document of the paymail's host, and the URL of a capability for this paymail. */
async function capability(id: string, pubkey = ''): Promise<string> {
  const [alias, domain] = paymail.split('@') as [string, string];
  const document = await http('GET', `${stack.base}/.well-known/bsvalias`);
  expect(document.status).toBe(200);
  const template = document.json.capabilities[id] as string;
  return template.replace('{alias}', alias).replace('{domain.tld}', domain).replace('{pubkey}', pubkey);
}

type Customer = { key: PrivateKey; source: Transaction; vout: number };

/** A customer's wallet funded by the faucet: one coin to spend. */
async function customer(satoshis = 100_000): Promise<Customer> {
  const key = PrivateKey.fromRandom();
  const paid = await requestFaucet(stack.chain.url, key.toAddress('testnet'), satoshis);
  return { key, source: Transaction.fromHex(paid.raw_tx), vout: paid.vout };
}

/** The transaction a wallet builds for a P2P destination: every output asked for, change back, signed (by `signer` for a forgery). */
async function build(from: Customer, outputs: { script: string; satoshis: number }[], signer?: PrivateKey): Promise<Transaction> {
  const tx = new Transaction();
  tx.addInput({
    sourceTransaction: from.source,
    sourceOutputIndex: from.vout,
    unlockingScriptTemplate: new P2PKH().unlock(signer ?? from.key),
  });
  for (const output of outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(output.script), satoshis: output.satoshis });
  const paid = outputs.reduce((sum, output) => sum + output.satoshis, 0);
  tx.addOutput({
    lockingScript: new P2PKH().lock(from.key.toAddress('testnet')),
    satoshis: from.source.outputs[from.vout]!.satoshis! - paid - 200,
  });
  await tx.sign();
  return tx;
}

async function destination(satoshis: number) {
  const answer = await http('POST', await capability('2a40af698840'), { satoshis });
  expect(answer.status).toBe(200);
  return answer.json as { outputs: { script: string; satoshis: number }[]; reference: string };
}

/** Submits as a wallet does: the raw transaction, the reference, and the sender's BSM signature over the txid. */
async function submit(tx: Transaction, reference: string, sender = PrivateKey.fromRandom()) {
  return http('POST', await capability('5f1323cddf31'), {
    hex: tx.toHex(),
    reference,
    metadata: {
      sender: 'bob@wallet.example',
      pubkey: sender.toPublicKey().toString(),
      signature: BSM.sign(Utils.toArray(tx.id('hex'), 'utf8'), sender),
      note: 'flat white',
    },
  });
}

async function ledger() {
  const answer = await http('GET', `${stack.base}/api/v1/orgs/${merchant.handle}/ledger`, undefined, bearer(merchant.key));
  expect(answer.status).toBe(200);
  return answer.json.data as {
    txid: string;
    currency: string;
    satoshis: number;
    event_type: string;
    lines: { account_code: string; debit_minor: number; credit_minor: number }[];
  }[];
}

async function ledgerWith(count: number) {
  for (let i = 0; i < 200; i++) {
    const entries = await ledger();
    if (entries.length >= count) return entries;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return ledger();
}

function expectBsvaliasError(answer: HttpAnswer, status: number, code: string) {
  expect({ status: answer.status, code: answer.json?.code }).toEqual({ status, code });
  expect(answer.json.message).toEqual(expect.any(String));
  expect(answer.json.error).toBeUndefined();
}

describe("a customer wallet pays a merchant's paymail through the P2P flow, end to end through the gateway", () => {
  let paidTxid: string;
  let paidTx: Transaction;
  let paidReference: string;

  it('serves the capability document and the identity routes in the bsvalias shapes', async () => {
    const document = await http('GET', `${stack.base}/.well-known/bsvalias`);
    expect(document.json).toMatchObject({
      bsvalias: '1.0',
      capabilities: {
        pki: `${stack.base}/api/v1/bsvalias/id/{alias}@{domain.tld}`,
        '2a40af698840': expect.any(String),
        '5f1323cddf31': expect.any(String),
      },
    });
    const pubkey = keys.identity.toPublicKey().toString();
    expect((await http('GET', await capability('pki'))).json).toEqual({ bsvalias: '1.0', handle: paymail, pubkey });
    expect((await http('GET', await capability('f12f968c92d6'))).json).toEqual({
      name: expect.stringContaining('Harbour Coffee'),
      avatar: 'https://img.example/cafe.png',
    });
    expect((await http('GET', await capability('a9f510c16bde', pubkey))).json).toEqual({
      bsvalias: '1.0',
      handle: paymail,
      pubkey,
      match: true,
    });
    const other = PrivateKey.fromRandom().toPublicKey().toString();
    expect((await http('GET', await capability('a9f510c16bde', other))).json).toMatchObject({ match: false });
    const payTo = await http('POST', await capability('paymentDestination'), {
      senderHandle: 'bob@wallet.example',
      dt: new Date().toISOString(),
      amount: 1000,
      purpose: 'tip',
    });
    expect(payTo.json.output).toMatch(/^76a914[0-9a-f]{40}88ac$/);
    expectBsvaliasError(await http('GET', `${stack.base}/api/v1/bsvalias/id/nobody@localhost`), 404, 'not_found');
    expectBsvaliasError(await http('GET', `${stack.base}/api/v1/bsvalias/id/${paymail.split('@')[0]}@elsewhere.example`), 404, 'not_found');
    expectBsvaliasError(
      await http('POST', await capability('paymentDestination'), { senderHandle: 'bob@wallet.example', dt: '2020-01-01T00:00:00Z' }),
      422,
      'validation_failed',
    );
  });

  it('accepts the payment: the local chain has the transaction and the ledger shows the balanced entry', async () => {
    const asked = await destination(25_000);
    expect(asked.outputs).toHaveLength(2);
    const tx = await build(await customer(), asked.outputs);
    const answer = await submit(tx, asked.reference);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ txid: tx.id('hex'), note: expect.any(String) });
    paidTxid = tx.id('hex');
    paidTx = tx;
    paidReference = asked.reference;
    expect((await stack.chainClient.getStatus(paidTxid)).state).toBe('seen');

    const entries = await ledgerWith(1);
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry).toMatchObject({ event_type: 'payment.received', currency: 'BSV', txid: paidTxid, satoshis: 25_000 });
    expect(entry!.lines.map((line) => [line.account_code, line.debit_minor, line.credit_minor])).toEqual([
      ['1010', 25_000, 0],
      ['4000', 0, 25_000],
    ]);
    const debits = entry!.lines.reduce((sum, line) => sum + line.debit_minor, 0);
    expect(debits).toBe(entry!.lines.reduce((sum, line) => sum + line.credit_minor, 0));

    // The merchant's derived address holds the coin, as the wallet API shows.
    const address = Utils.toBase58Check(LockingScript.fromHex(asked.outputs[0]!.script).chunks[2]!.data!, [0x6f]);
    const utxos = await http('GET', `${stack.base}/api/v1/wallet/utxos?address=${address}`);
    expect(utxos.json).toEqual({ address, data: [{ txid: paidTxid, vout: 0, satoshis: 25_000, height: null }] });
  });

  it('verifies the purchase from its txid on this instance and on a second instance pointed at the same chain', async () => {
    await mineBlocks(stack.chain.url);
    // Another instance of the service: its own gateway and p2p on their own databases, the same chain.
    const elsewhere = await startReceiptInstance({ CHAIN_NETWORK: 'local', CHAIN_LOCAL_URL: stack.chain.url });
    try {
      const here = await http('GET', `${stack.base}/api/v1/receipts/${paidTxid}`);
      const there = (await elsewhere.app.inject({ method: 'GET', url: `/api/v1/receipts/${paidTxid}` })).json();
      for (const answer of [here.json, there]) {
        expect(answer).toMatchObject({
          txid: paidTxid,
          merchant: paymail,
          reference: paidReference,
          status: 'mined',
          confirmations: 1,
          merkle_proof: 'valid',
          verified: true,
        });
        expect(answer.paid_outputs).toEqual(expect.arrayContaining([expect.objectContaining({ satoshis: 25_000 })]));
      }
      expect(there).toEqual(here.json);
    } finally {
      await elsewhere.close();
    }
  });

  it('refuses a double spend, a bad signature, an underpayment and a reused txid, each clearly, and none reaches the books', async () => {
    // Double spend: the customer's coin went elsewhere first.
    const spender = await customer();
    const first = await build(spender, [
      { script: new P2PKH().lock(PrivateKey.fromRandom().toAddress('testnet')).toHex(), satoshis: 1_000 },
    ]);
    expect((await http('POST', `${stack.base}/api/v1/wallet/broadcast`, { transaction: first.toHex() })).status).toBe(200);
    const doubleSpendDestination = await destination(10_000);
    const doubleSpend = await submit(await build(spender, doubleSpendDestination.outputs), doubleSpendDestination.reference);
    expectBsvaliasError(doubleSpend, 422, 'chain_rejected');
    expect(doubleSpend.json.details).toMatchObject({ tx_status: 'DOUBLE_SPEND_ATTEMPTED', competing_txs: [first.id('hex')] });

    // A bad signature: the input is signed by a key that does not own the coin.
    const forgedDestination = await destination(10_000);
    const forged = await submit(
      await build(await customer(), forgedDestination.outputs, PrivateKey.fromRandom()),
      forgedDestination.reference,
    );
    expectBsvaliasError(forged, 422, 'chain_rejected');
    expect(forged.json.details).toMatchObject({ arc_status: 461 });

    // A bad sender signature: signed by someone else than the pubkey given.
    const senderDestination = await destination(10_000);
    const honest = await build(await customer(), senderDestination.outputs);
    const badSender = await http('POST', await capability('5f1323cddf31'), {
      hex: honest.toHex(),
      reference: senderDestination.reference,
      metadata: {
        sender: 'bob@wallet.example',
        pubkey: PrivateKey.fromRandom().toPublicKey().toString(),
        signature: BSM.sign(Utils.toArray(honest.id('hex'), 'utf8'), PrivateKey.fromRandom()),
      },
    });
    expectBsvaliasError(badSender, 401, 'invalid_signature');

    // An underpayment.
    const underDestination = await destination(10_000);
    const [payment, receipt] = underDestination.outputs as [{ script: string; satoshis: number }, { script: string; satoshis: number }];
    const under = await submit(await build(await customer(), [{ ...payment, satoshis: 9_000 }, receipt]), underDestination.reference);
    expectBsvaliasError(under, 422, 'payment_underpaid');
    expect(under.json.details).toMatchObject({ required_satoshis: 10_000, paid_satoshis: 9_000 });

    // A reused txid: the transaction that paid already, offered for a new destination.
    const reuseDestination = await destination(25_000);
    const reused = await submit(paidTx, reuseDestination.reference);
    expectBsvaliasError(reused, 409, 'txid_already_used');
    expect(reused.json.details).toMatchObject({ txid: paidTxid });

    await new Promise((resolve) => setTimeout(resolve, 300));
    const entries = await ledger();
    expect(entries.map((entry) => entry.txid)).toEqual([paidTxid]);
  });

  it("answers odd input with a 4xx and a stable code, never internal: control characters in a paymail or a reference, a NUL in the sender's note", async () => {
    const alias = paymail.split('@')[0]!;
    for (const odd of [`\u0000${alias}@localhost`, `${alias}\u0007@localhost`, `${alias}@local\u0000host`]) {
      expectBsvaliasError(await http('GET', `${stack.base}/api/v1/bsvalias/id/${encodeURIComponent(odd)}`), 422, 'validation_failed');
    }
    const asked = await destination(3_000);
    const tx = await build(await customer(), asked.outputs);
    const url = await capability('5f1323cddf31');
    expectBsvaliasError(await http('POST', url, { hex: tx.toHex(), reference: `${asked.reference}\u0000` }), 404, 'not_found');
    expect((await stack.chainClient.getStatus(tx.id('hex'))).state).toBe('unknown');
    const paid = await http('POST', url, {
      hex: tx.toHex(),
      reference: asked.reference,
      metadata: { sender: 'bob\u0000@wallet.example', note: 'flat\u0000white' },
    });
    expect({ status: paid.status, txid: paid.json.txid }).toEqual({ status: 200, txid: tx.id('hex') });
    expect((await ledgerWith(2)).map((entry) => entry.txid)).toContain(tx.id('hex'));
  });

  it("passes allowlisted chain reads through, refuses other routes, and answers the wallet API's bad input with 422", async () => {
    const info = await http('GET', `${stack.base}/api/v1/bsv/chain/info`);
    expect(info.status).toBe(200);
    expect(info.json).toMatchObject({ blocks: expect.any(Number) });
    const tx = await http('GET', `${stack.base}/api/v1/bsv/tx/${paidTxid}/hex`);
    expect(tx.text).toContain(paidTx.toHex());
    const refused = await http('GET', `${stack.base}/api/v1/bsv/mine`);
    expect({ status: refused.status, code: refused.json.error.code }).toEqual({ status: 404, code: 'not_found' });
    expect((await http('GET', `${stack.base}/api/v1/wallet/utxos?address=nope`)).status).toBe(422);
    const notATransaction = await http('POST', `${stack.base}/api/v1/wallet/broadcast`, { transaction: '00' });
    expect({ status: notATransaction.status, code: notATransaction.json.error.code }).toEqual({ status: 422, code: 'validation_failed' });
  });
});

describe('what one client address can ask of the paymail destinations', () => {
  /** Asks until refused (at most `tries` times): how many were answered, and the refusal. */
  async function askUntilRefused(ask: () => Promise<HttpAnswer>, tries: number) {
    for (let answered = 0; answered < tries; answered++) {
      const answer = await ask();
      if (answer.status !== 200) return { answered, refusal: answer };
    }
    return { answered: tries, refusal: undefined };
  }

  it('answers at most 120 destination requests a minute per address on each route, then 429 rate_limited with retry-after', async () => {
    for (const [capabilityId, body] of [
      ['paymentDestination', { senderHandle: 'bob@wallet.example', dt: new Date().toISOString() }],
      ['2a40af698840', { satoshis: 1_000 }],
    ] as const) {
      const url = await capability(capabilityId);
      // Earlier tests in this file asked some already: the limit counts them too.
      const { answered, refusal } = await askUntilRefused(() => http('POST', url, body), 121);
      expect(answered, capabilityId).toBeGreaterThan(100);
      expect(answered, capabilityId).toBeLessThanOrEqual(120);
      expectBsvaliasError(refusal!, 429, 'rate_limited');
      expect(Number(refusal!.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});
