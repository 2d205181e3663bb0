import { P2PKH, PrivateKey, Transaction } from '@bsv/sdk';
import { tokenLock } from '@ctk/chain';
import { requestFaucet } from '@ctk/chain/local';
import { failure } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTokenStack, type TokenStack } from './token-stack.js';

let stack: TokenStack;
beforeAll(async () => {
  stack = await startTokenStack();
}, 60_000);
afterAll(() => stack?.close());

type Merchant = Awaited<ReturnType<TokenStack['merchant']>>;
const credits = { symbol: 'BEAN', name: 'Bean credits', kind: 'credits', decimals: 0, supply: 1_000n };

async function mint(merchant: Merchant, fields = credits) {
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

describe('redeeming credits against an order', () => {
  it('holds an address per order, verifies the customer’s transfer to it and records it once', async () => {
    const merchant = await stack.merchant();
    const token = await mint(merchant);
    const tokenId = token.tokenId!;
    const customer = await customerWith(merchant, tokenId, 100);

    const { redemptionAddress: opened } = await stack.client.openTokenRedemption({ org: merchant.org, tokenId, orderNumber: 'A-1042' });
    expect(opened).toMatchObject({ tokenId, orderNumber: 'A-1042' });
    expect([merchant.wallet.address, token.ownerAddress]).not.toContain(opened!.address);
    expect((await stack.client.openTokenRedemption({ org: merchant.org, tokenId, orderNumber: 'A-1042' })).redemptionAddress).toEqual(
      opened,
    );
    const other = (await stack.client.openTokenRedemption({ org: merchant.org, tokenId, orderNumber: 'A-1043' })).redemptionAddress!;
    expect(other.address).not.toBe(opened!.address);

    const { txid } = await send(customer.file, tokenId, opened!.address, 40);
    const { redemption } = await stack.client.redeemTokens({ org: merchant.org, tokenId, orderNumber: 'A-1042', txid, amount: 40n });
    expect(redemption).toMatchObject({
      id: expect.stringMatching(/^tkr_[A-Za-z0-9_-]{24}$/),
      tokenId,
      orderNumber: 'A-1042',
      address: opened!.address,
      txid,
      vout: 0,
      amount: 40n,
    });
    const again = await stack.client.redeemTokens({ org: merchant.org, tokenId, orderNumber: 'A-1042', txid });
    expect(again.redemption).toEqual(redemption);
    expect((await stack.client.getTokenBalance({ tokenId, address: opened!.address })).balance).toBe(40n);

    const elsewhere = await failure(stack.client.redeemTokens({ org: merchant.org, tokenId, orderNumber: 'A-1043', txid }));
    expect(elsewhere.code).toBe('payment_wrong_output');
  });

  it('refuses too few units, a transfer the indexer holds void, and an order without a redemption address', async () => {
    const merchant = await stack.merchant();
    const tokenId = (await mint(merchant)).tokenId!;
    const customer = await customerWith(merchant, tokenId, 10);
    const { redemptionAddress } = await stack.client.openTokenRedemption({ org: merchant.org, tokenId, orderNumber: 'B-7' });
    const { txid } = await send(customer.file, tokenId, redemptionAddress!.address, 10);
    const short = await failure(stack.client.redeemTokens({ org: merchant.org, tokenId, orderNumber: 'B-7', txid, amount: 11n }));
    expect(short).toMatchObject({ code: 'payment_underpaid', details: { token_amount: '10', expected: '11' } });

    const forged = await forgedTransfer(tokenId, redemptionAddress!.address, 500n);
    const refused = await failure(stack.client.redeemTokens({ org: merchant.org, tokenId, orderNumber: 'B-7', txid: forged }));
    expect(refused.code).toBe('stablecoin_transfer_invalid');
    expect(refused.message).toContain('moves tokens its inputs do not hold');

    const unopened = await failure(stack.client.redeemTokens({ org: merchant.org, tokenId, orderNumber: 'C-1', txid }));
    expect(unopened).toMatchObject({ code: 'failed_precondition', details: { field: 'order_number' } });
  });

  it('redeems only the shop’s own credits: not another shop’s token, nor a membership', async () => {
    const merchant = await stack.merchant();
    const membership = (await mint(merchant, { ...credits, symbol: 'CLUB', kind: 'membership' })).tokenId!;
    const refused = await failure(stack.client.openTokenRedemption({ org: merchant.org, tokenId: membership, orderNumber: 'A-1' }));
    expect(refused).toMatchObject({ code: 'failed_precondition', details: { kind: 'membership' } });
    const theirs = (await mint(await stack.merchant())).tokenId!;
    expect(await failure(stack.client.openTokenRedemption({ org: merchant.org, tokenId: theirs, orderNumber: 'A-1' }))).toMatchObject({
      code: 'not_found',
    });
    for (const orderNumber of ['', 'A 1', 'A-1\u0000', 'x'.repeat(41)])
      expect(await failure(stack.client.openTokenRedemption({ org: merchant.org, tokenId: membership, orderNumber }))).toMatchObject({
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
