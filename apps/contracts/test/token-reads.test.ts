import { PrivateKey } from '@bsv/sdk';
import { failure } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STACK_START_MS, startTokenStack, type TokenStack } from './token-stack.js';

let stack: TokenStack;
beforeAll(async () => {
  stack = await startTokenStack();
}, STACK_START_MS);
afterAll(() => stack?.close());

type Merchant = Awaited<ReturnType<TokenStack['merchant']>>;
const credits = {
  symbol: 'BEAN',
  name: 'Bean credits',
  kind: 'credits',
  decimals: 2,
  supply: 10_000n,
  unitValueMinor: 1n,
  currency: 'USD',
};
/** A token of another kind: no face value. */
const unvalued = { symbol: 'BEAN', name: 'Bean credits', decimals: 2, supply: 10_000n };

/** Drafts a mint, has the merchant's wallet sign it, broadcasts it and confirms it: the active token. */
async function mint(merchant: Merchant, fields: Record<string, unknown> = credits) {
  const { token: draft } = await stack.client.draftTokenMint({ org: merchant.org, ...fields });
  const signed = await stack.walletCommand<{ transaction: string }>(merchant.wallet.file, 'sign-transaction', draft!.draft!.transaction);
  const { txid } = await stack.p2p.broadcastTransaction({ transaction: signed.transaction });
  return (await stack.client.confirmTokenMint({ org: merchant.org, draftId: draft!.id, txid })).token!;
}

describe('reading tokens: the shop’s list, holders and a balance check', () => {
  it('shows the merchant’s address holding the whole supply, then a customer’s share once the merchant’s wallet sends some', async () => {
    const merchant = await stack.merchant();
    const token = await mint(merchant);
    const tokenId = token.tokenId!;
    expect(await stack.client.listTokenHolders({ tokenId, limit: 0, offset: 0 })).toEqual({
      tokenId,
      symbol: 'BEAN',
      decimals: 2,
      holders: [{ address: token.ownerAddress, balance: 10_000n }],
    });

    const customer = await stack.newWallet(0);
    const sent = await stack.walletCommand<{ txid: string }>(
      merchant.wallet.file,
      'send-token',
      '--token',
      tokenId,
      '--to',
      customer.address,
      '--amount',
      '2500',
    );
    expect(sent.txid).toMatch(/^[0-9a-f]{64}$/);
    const { holders } = await stack.client.listTokenHolders({ tokenId, limit: 0, offset: 0 });
    expect(holders).toEqual([
      { address: merchant.wallet.address, balance: 7_500n },
      { address: customer.address, balance: 2_500n },
    ]);
    expect((await stack.client.listTokenHolders({ tokenId, limit: 1, offset: 1 })).holders).toEqual([holders[1]]);

    expect(await stack.client.getTokenBalance({ tokenId, address: customer.address })).toEqual({
      tokenId,
      address: customer.address,
      symbol: 'BEAN',
      decimals: 2,
      balance: 2_500n,
      confirmed: 0n,
      holds: true,
    });
    await stack.mine();
    expect(await stack.client.getTokenBalance({ tokenId, address: customer.address })).toMatchObject({
      balance: 2_500n,
      confirmed: 2_500n,
    });
    const nobody = PrivateKey.fromRandom().toAddress('testnet');
    expect(await stack.client.getTokenBalance({ tokenId, address: nobody })).toMatchObject({ balance: 0n, holds: false });
  });

  it('lists the shop’s tokens newest first, drafts and active ones, and no other shop’s', async () => {
    const merchant = await stack.merchant();
    const active = await mint(merchant, { ...unvalued, symbol: 'CLUB', kind: 'membership', decimals: 0, supply: 100n });
    const { token: draft } = await stack.client.draftTokenMint({ org: merchant.org, ...unvalued, kind: 'community', symbol: 'TOWN' });
    await mint(await stack.merchant(), { ...credits, symbol: 'ELSE' });
    const { data } = await stack.client.listTokens({ org: merchant.org });
    expect(data.map((token) => [token.symbol, token.kind, token.status, token.supply])).toEqual([
      ['TOWN', 'community', 'draft', 10_000n],
      ['CLUB', 'membership', 'active', 100n],
    ]);
    expect(data[0]).toEqual(draft);
    expect(data[1]).toEqual(active);
  });

  it('answers not found for a token not minted here, and refuses an address of another network or none', async () => {
    const unknown = `${'ab'.repeat(32)}_0`;
    expect(await failure(stack.client.listTokenHolders({ tokenId: unknown, limit: 0, offset: 0 }))).toMatchObject({ code: 'not_found' });
    expect(await failure(stack.client.getTokenBalance({ tokenId: unknown, address: 'mkHS9ne12qx9pS9VojpwU5xtRd4T7X7ZUt' }))).toMatchObject({
      code: 'not_found',
    });
    const token = await mint(await stack.merchant());
    const mainnet = PrivateKey.fromRandom().toAddress('mainnet');
    for (const address of [mainnet, 'not-an-address', ''])
      expect(await failure(stack.client.getTokenBalance({ tokenId: token.tokenId!, address }))).toMatchObject({
        code: 'validation_failed',
        details: { field: 'address' },
      });
    expect(await failure(stack.client.listTokenHolders({ tokenId: token.tokenId!, limit: 101, offset: 0 }))).toMatchObject({
      code: 'validation_failed',
    });
  });
});
