import { randomUUID } from 'node:crypto';
import { Transaction } from '@bsv/sdk';
import { requestFaucet } from '@ctk/chain/local';
import { failure } from '@ctk/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STACK_START_MS, startTokenStack, type TokenStack } from './token-stack.js';

let stack: TokenStack;
beforeAll(async () => {
  stack = await startTokenStack();
}, STACK_START_MS);
afterAll(() => stack?.close());

type Merchant = Awaited<ReturnType<TokenStack['merchant']>>;
type Mint = { symbol: string; name: string; kind: string; decimals: number; supply: bigint };
const brew: Mint = { symbol: 'BREW', name: 'Brew Club membership', kind: 'membership', decimals: 0, supply: 500n };

/** What the merchant does after drafting: the wallet signs the draft's transaction, the wallet API broadcasts it. */
async function signAndBroadcast(merchant: Merchant, transaction: string): Promise<string> {
  const signed = await stack.walletCommand<{ transaction: string; txid: string }>(merchant.wallet.file, 'sign-transaction', transaction);
  const { txid } = await stack.p2p.broadcastTransaction({ transaction: signed.transaction });
  expect(txid).toBe(signed.txid);
  return txid;
}

describe('minting a token: the service drafts, the merchant’s wallet signs', () => {
  it('drafts the deploy+mint from the merchant’s coins to a fresh address, and once signed and broadcast the token is active', async () => {
    const merchant = await stack.merchant();
    const before = await stack.client.getSetup({ org: merchant.org });
    expect(before.capabilities.find((c) => c.capabilityId === 'tokens')?.setUp).toBe(false);
    const { token: draft } = await stack.client.draftTokenMint({ org: merchant.org, ...brew });
    expect(draft).toMatchObject({
      id: expect.stringMatching(/^tkd_[A-Za-z0-9_-]{24}$/),
      status: 'draft',
      kind: 'membership',
      symbol: 'BREW',
      supply: 500n,
      ownerDerivationPath: 'm/0/0',
      tokenId: undefined,
      draft: { mintVout: 0, changeAddress: merchant.wallet.address },
    });
    expect(draft!.ownerAddress).not.toBe(merchant.wallet.address);
    expect(draft!.draft!.inputs).toEqual([
      expect.objectContaining({ address: merchant.wallet.address, derivationPath: "m/0'", satoshis: 1_000_000n }),
    ]);
    const unsigned = Transaction.fromHexEF(draft!.draft!.transaction);
    expect(unsigned.inputs.every((input) => input.unlockingScript!.toBinary().length === 0)).toBe(true);
    expect(1_000_000n - 1n - draft!.draft!.feeSatoshis).toBe(draft!.draft!.changeSatoshis);

    const txid = await signAndBroadcast(merchant, draft!.draft!.transaction);
    const { token } = await stack.client.confirmTokenMint({ org: merchant.org, draftId: draft!.id, txid });
    expect(token).toMatchObject({ id: draft!.id, status: 'active', tokenId: `${txid}_0`, txid, draft: undefined });
    expect(token!.deployedAt).toEqual(expect.any(String));
    expect(await stack.chain.tokenBalance(draft!.ownerAddress, `${txid}_0`)).toMatchObject({ symbol: 'BREW', pending: 500n });

    const again = await stack.client.confirmTokenMint({ org: merchant.org, draftId: draft!.id, txid });
    expect(again.token).toEqual(token);
    const { capabilities } = await stack.client.getSetup({ org: merchant.org });
    expect(capabilities.find((c) => c.capabilityId === 'tokens')).toEqual({ capabilityId: 'tokens', setUp: true, nextStep: '' });
  });

  it('takes a supply up to 2^63 - 1 units and 8 decimals, as BSV-21 writes them', async () => {
    const merchant = await stack.merchant();
    const supply = 2n ** 63n - 1n;
    const { token } = await stack.client.draftTokenMint({
      org: merchant.org,
      symbol: 'CAFÉ',
      name: 'Café credits',
      kind: 'credits',
      decimals: 8,
      supply,
      unitValueMinor: 1n,
      currency: 'EUR',
    });
    const txid = await signAndBroadcast(merchant, token!.draft!.transaction);
    const confirmed = await stack.client.confirmTokenMint({ org: merchant.org, draftId: token!.id, txid });
    expect(confirmed.token).toMatchObject({ status: 'active', supply, decimals: 8, symbol: 'CAFÉ' });
    expect((await stack.chain.tokenBalance(token!.ownerAddress, `${txid}_0`)).pending).toBe(supply);
  });

  it('refuses a txid that is not the draft’s mint (naming what differs), one the chain does not have, and a second txid; leaves a draft its coins', async () => {
    const merchant = await stack.merchant();
    const { token: wanted } = await stack.client.draftTokenMint({ org: merchant.org, ...brew });
    // The wallet's one coin pays for the first draft until it is broadcast: a second needs another coin.
    const held = await failure(stack.client.draftTokenMint({ org: merchant.org, ...brew }));
    expect(held).toMatchObject({ code: 'failed_precondition', details: { reason: 'coins_in_drafts', drafts: [{ id: wanted!.id }] } });
    await stack.walletCommand(merchant.wallet.file, 'faucet', '50000');
    const { token: other } = await stack.client.draftTokenMint({ org: merchant.org, ...brew, symbol: 'BEAN', supply: 900n, decimals: 2 });
    const otherTxid = await signAndBroadcast(merchant, other!.draft!.transaction);

    const refused = await failure(stack.client.confirmTokenMint({ org: merchant.org, draftId: wanted!.id, txid: otherTxid }));
    expect(refused.code).toBe('validation_failed');
    expect(refused.message).toContain(`Transaction ${otherTxid} is not draft ${wanted!.id}'s mint`);
    expect(refused.details?.differences).toEqual([
      { field: 'symbol', expected: 'BREW', found: 'BEAN' },
      { field: 'decimals', expected: '0', found: '2' },
      { field: 'supply', expected: '500', found: '900' },
      { field: 'owner_address', expected: wanted!.ownerAddress, found: other!.ownerAddress },
    ]);

    const payment = (await requestFaucet(stack.chainUrl, merchant.wallet.address, 10_000)).txid;
    const noMint = await failure(stack.client.confirmTokenMint({ org: merchant.org, draftId: wanted!.id, txid: payment }));
    expect(noMint.details?.differences).toEqual([{ field: 'deploy_mint', expected: 'a BSV-21 deploy+mint output', found: 'none' }]);

    const unknown = await failure(stack.client.confirmTokenMint({ org: merchant.org, draftId: wanted!.id, txid: 'c'.repeat(64) }));
    expect(unknown).toMatchObject({ code: 'not_found', details: { field: 'txid' } });

    const wantedTxid = await signAndBroadcast(merchant, wanted!.draft!.transaction);
    await stack.client.confirmTokenMint({ org: merchant.org, draftId: wanted!.id, txid: wantedTxid });
    const second = await failure(stack.client.confirmTokenMint({ org: merchant.org, draftId: wanted!.id, txid: otherTxid }));
    expect(second.code).toBe('failed_precondition');
  });

  it('answers not found for another shop’s draft, and for a draft id no shop has', async () => {
    const owner = await stack.merchant();
    const stranger = await stack.merchant();
    const { token } = await stack.client.draftTokenMint({ org: owner.org, ...brew });
    const txid = await signAndBroadcast(owner, token!.draft!.transaction);
    const theirs = await failure(stack.client.confirmTokenMint({ org: stranger.org, draftId: token!.id, txid }));
    expect(theirs).toMatchObject({ code: 'not_found', details: { field: 'draft_id' } });
    const none = await failure(stack.client.confirmTokenMint({ org: owner.org, draftId: 'tkd_' + 'A'.repeat(24), txid }));
    expect(none.code).toBe('not_found');
  });

  it('says how to fund the wallet when it has no spendable satoshis, or no address p2p knows to look at', async () => {
    const broke = await stack.merchant(0);
    const refused = await failure(stack.client.draftTokenMint({ org: broke.org, ...brew }));
    expect(refused).toMatchObject({ code: 'failed_precondition', details: { reason: 'no_funds', addresses: [broke.wallet.address] } });
    expect(refused.message).toContain(`send a little BSV to ${broke.wallet.address} (on the local chain: pnpm wallet faucet)`);

    const unregistered = { id: randomUUID(), handle: 'no-wallet-shop' };
    const none = await failure(stack.client.draftTokenMint({ org: unregistered, ...brew }));
    expect(none).toMatchObject({ code: 'failed_precondition', details: { reason: 'no_funding_address' } });
  });

  it('refuses a bad symbol, decimals, supply, kind or name, control characters and NUL included, naming the field', async () => {
    const merchant = await stack.merchant();
    const refusals: Array<[Partial<Mint>, string]> = [
      [{ symbol: '' }, 'symbol'],
      [{ symbol: 'TWO WORDS' }, 'symbol'],
      [{ symbol: 'S'.repeat(17) }, 'symbol'],
      [{ symbol: 'BR\u0000EW' }, 'symbol'],
      [{ symbol: 'BR\u0007EW' }, 'symbol'],
      [{ symbol: 'BR\u202eEW' }, 'symbol'],
      [{ decimals: 9 }, 'decimals'],
      [{ decimals: -1 }, 'decimals'],
      [{ supply: 0n }, 'supply'],
      [{ kind: 'gold' }, 'kind'],
      [{ name: '' }, 'name'],
      [{ name: 'Brew\u0000Club' }, 'name'],
      [{ name: 'Brew\u001bClub' }, 'name'],
    ];
    for (const [change, field] of refusals) {
      const refused = await failure(stack.client.draftTokenMint({ org: merchant.org, ...brew, ...change }));
      expect([refused.code, refused.details?.field], String(Object.values(change)[0])).toEqual(['validation_failed', field]);
    }
  });
});
