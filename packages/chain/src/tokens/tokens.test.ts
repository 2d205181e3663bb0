import { LockingScript, P2PKH, PrivateKey, Transaction, Utils } from '@bsv/sdk';
import { deployBsv21Token, transferOrdTokens } from 'js-1sat-ord';
import { describe, expect, it } from 'vitest';
import { checkInputScripts } from '../verify/check-input-scripts.js';
import { cosignInput, cosignOwnerUnlock, formatTokenUnits, parseTokenOutput, tokenLock } from './index.js';

const owner = PrivateKey.fromRandom();
const ownerAddress = owner.toAddress('testnet');
const ownerPkh = Utils.toHex(owner.toPublicKey().toHash() as number[]);
const cosigner = PrivateKey.fromRandom();
const cosignerPublicKey = cosigner.toPublicKey().toString();
const TOKEN_ID = `${'ab'.repeat(32)}_0`;
const ICON = `${'cd'.repeat(32)}_0`;

const base64 = (script: LockingScript) => Utils.toBase64(script.toBinary());

/**
 * js-1sat-ord's type declarations import their siblings without a file extension, which NodeNext cannot
 * follow: its functions type as `any` here, and its `TokenType.BSV21` is written as the enum's value.
 */
const BSV21 = 'bsv21';

/** A BSV-21 deploy+mint and a transfer of part of it, built and signed by js-1sat-ord as a 1Sat wallet builds them. */
async function oneSatTransactions() {
  const funding = { txid: 'ef'.repeat(32), vout: 0, satoshis: 100_000, script: base64(new P2PKH().lock(ownerAddress)) };
  const { tx: deploy } = (await deployBsv21Token({
    symbol: 'USDX',
    decimals: 2,
    icon: ICON,
    utxos: [funding],
    initialDistribution: { address: ownerAddress, tokens: 1_000_000 },
    paymentPk: owner,
    destinationAddress: ownerAddress,
  })) as { tx: Transaction };
  const id = `${deploy.id('hex')}_0`;
  const recipient = PrivateKey.fromRandom().toAddress('testnet');
  const change = deploy.outputs[1]!;
  const { tx: transfer } = (await transferOrdTokens({
    protocol: BSV21,
    tokenID: id,
    decimals: 2,
    utxos: [{ txid: deploy.id('hex'), vout: 1, satoshis: change.satoshis!, script: base64(change.lockingScript) }],
    inputTokens: [{ txid: deploy.id('hex'), vout: 0, satoshis: 1, script: base64(deploy.outputs[0]!.lockingScript), amt: '100000000', id }],
    distributions: [{ address: recipient, tokens: 12.5 }],
    paymentPk: owner,
    ordPk: owner,
  })) as { tx: Transaction };
  return { deploy, transfer, id, recipient };
}

describe('token outputs of js-1sat-ord', () => {
  it("reads a deploy+mint and a transfer as 1Sat's indexer does, and builds the same bytes", async () => {
    const { deploy, transfer, id, recipient } = await oneSatTransactions();
    expect(parseTokenOutput(deploy.outputs[0]!.lockingScript)).toEqual({
      op: 'deploy+mint',
      amount: 100_000_000n,
      symbol: 'USDX',
      decimals: 2,
      ownerPkh,
    });
    expect(parseTokenOutput(deploy.outputs[1]!.lockingScript)).toBeUndefined();
    expect(
      tokenLock({
        ownerAddress,
        inscription: { op: 'deploy+mint', symbol: 'USDX', decimals: 2, amount: 100_000_000n, icon: ICON },
      }).toHex(),
    ).toBe(deploy.outputs[0]!.lockingScript.toHex());

    const [paid, rest] = transfer.outputs.map((output) => parseTokenOutput(output.lockingScript));
    expect(paid).toEqual({
      op: 'transfer',
      tokenId: id,
      amount: 1250n,
      ownerPkh: Utils.toHex(Utils.fromBase58Check(recipient).data as number[]),
    });
    expect(rest).toEqual({ op: 'transfer', tokenId: id, amount: 99_998_750n, ownerPkh });
    expect(tokenLock({ ownerAddress: recipient, inscription: { op: 'transfer', tokenId: id, amount: 1250n } }).toHex()).toBe(
      transfer.outputs[0]!.lockingScript.toHex(),
    );
    expect(parseTokenOutput(transfer.outputs[2]!.lockingScript.toHex())).toBeUndefined();
  });
});

describe('cosign-locked token outputs', () => {
  it("reads MNEE's cosign template: the owner's key hash and the cosigner's key", () => {
    const script = tokenLock({ ownerAddress, inscription: { op: 'transfer', tokenId: TOKEN_ID, amount: 5n }, cosignerPublicKey });
    expect(script.toASM()).toMatch(
      new RegExp(`OP_ENDIF OP_DUP OP_HASH160 ${ownerPkh} OP_EQUALVERIFY OP_CHECKSIGVERIFY ${cosignerPublicKey} OP_CHECKSIG$`),
    );
    expect(parseTokenOutput(script)).toEqual({ op: 'transfer', tokenId: TOKEN_ID, amount: 5n, ownerPkh, cosignerPublicKey });
  });

  it('spends only with both signatures: the owner alone fails the script', async () => {
    const lock = tokenLock({ ownerAddress, inscription: { op: 'transfer', tokenId: TOKEN_ID, amount: 5n }, cosignerPublicKey });
    const source = new Transaction(1, [], [{ satoshis: 1, lockingScript: lock }], 0);
    const spend = new Transaction();
    spend.addInput({
      sourceTransaction: source,
      sourceOutputIndex: 0,
      unlockingScriptTemplate: cosignOwnerUnlock(owner),
      sequence: 0xffffffff,
    });
    spend.addOutput({
      satoshis: 1,
      lockingScript: tokenLock({ ownerAddress, inscription: { op: 'transfer', tokenId: TOKEN_ID, amount: 5n }, cosignerPublicKey }),
    });
    await spend.sign();
    const coins = [{ satoshis: 1, lockingScript: lock }];

    expect(checkInputScripts(spend, coins, { scriptChecks: 'sdk' })).toMatchObject({ index: 0 });
    expect(() => cosignInput({ tx: spend, inputIndex: 0, cosignerKey: PrivateKey.fromRandom() })).toThrow(
      /not spend an output cosign-locked to this cosigner/,
    );
    const cosigned = cosignInput({ tx: spend, inputIndex: 0, cosignerKey: cosigner });
    expect(Transaction.fromHex(cosigned.toHex()).inputs[0]!.unlockingScript!.chunks).toHaveLength(3);
    expect(spend.inputs[0]!.unlockingScript!.chunks).toHaveLength(2);
    expect(checkInputScripts(cosigned, coins, { scriptChecks: 'sdk' })).toBeUndefined();
    expect(checkInputScripts(cosigned, coins, { scriptChecks: 'fast' })).toBeUndefined();
  });

  it("fails when the cosigner's signature covers another transaction", async () => {
    const lock = tokenLock({ ownerAddress, inscription: { op: 'transfer', tokenId: TOKEN_ID, amount: 5n }, cosignerPublicKey });
    const source = new Transaction(1, [], [{ satoshis: 1, lockingScript: lock }], 0);
    const spend = new Transaction();
    spend.addInput({
      sourceTransaction: source,
      sourceOutputIndex: 0,
      unlockingScriptTemplate: cosignOwnerUnlock(owner),
      sequence: 0xffffffff,
    });
    spend.addOutput({ satoshis: 1, lockingScript: new P2PKH().lock(ownerAddress) });
    await spend.sign();
    const cosigned = cosignInput({ tx: spend, inputIndex: 0, cosignerKey: cosigner });
    cosigned.outputs[0]!.lockingScript = new P2PKH().lock(PrivateKey.fromRandom().toAddress('testnet'));
    cosigned.inputs[0]!.unlockingScript!.chunks.splice(1, 2, ...(await cosignOwnerUnlock(owner).sign(cosigned, 0)).chunks);
    expect(checkInputScripts(cosigned, [{ satoshis: 1, lockingScript: lock }], { scriptChecks: 'sdk' })).toMatchObject({ index: 0 });
  });
});

describe('what parseTokenOutput refuses', () => {
  const envelope = (json: string, contentType = 'application/bsv-20') =>
    `OP_0 OP_IF ${Utils.toHex(Utils.toArray('ord', 'utf8'))} OP_1 ${Utils.toHex(Utils.toArray(contentType, 'utf8'))} OP_0 ${Utils.toHex(Utils.toArray(json, 'utf8'))} OP_ENDIF`;
  const p2pkh = `OP_DUP OP_HASH160 ${ownerPkh} OP_EQUALVERIFY OP_CHECKSIG`;
  const transfer = (fields: Record<string, unknown>) =>
    JSON.stringify({ p: 'bsv-20', op: 'transfer', amt: '100', id: TOKEN_ID, ...fields });
  const script = (asm: string) => LockingScript.fromASM(asm);

  it('reads the largest amount there is, 2^63 - 1', () => {
    expect(parseTokenOutput(script(`${envelope(transfer({ amt: '9223372036854775807' }))} ${p2pkh}`))?.amount).toBe(2n ** 63n - 1n);
  });

  it.each([
    ['an amount with a leading zero', transfer({ amt: '0100' })],
    ['a zero amount', transfer({ amt: '0' })],
    ['a negative amount', transfer({ amt: '-1' })],
    ['a fractional amount', transfer({ amt: '1.5' })],
    ['an amount of 2^63', transfer({ amt: '9223372036854775808' })],
    ['an amount as a JSON number', transfer({ amt: 100 })],
    ['another protocol', transfer({ p: 'bsv-21' })],
    ['a BSV-20 ticker instead of an id', JSON.stringify({ p: 'bsv-20', op: 'transfer', amt: '100', tick: 'PEPE' })],
    ['an id without its vout', transfer({ id: 'ab'.repeat(32) })],
    ['an id in upper case', transfer({ id: `${'AB'.repeat(32)}_0` })],
    ['an id whose vout has a leading zero', transfer({ id: `${'ab'.repeat(32)}_01` })],
    ['a mint (BSV-20), not a deploy+mint', JSON.stringify({ p: 'bsv-20', op: 'mint', amt: '100', tick: 'PEPE' })],
    ['a burn', transfer({ op: 'burn' })],
    ['JSON that is not an object', '"transfer"'],
    ['bytes that are not JSON', '{"p":"bsv-20",'],
  ])('refuses %s', (_what, json) => {
    expect(parseTokenOutput(script(`${envelope(json)} ${p2pkh}`))).toBeUndefined();
  });

  it.each([
    ['another content type', `${envelope(transfer({}), 'text/plain')} ${p2pkh}`],
    ['no owner lock', envelope(transfer({}))],
    ['something after the owner lock', `${envelope(transfer({}))} ${p2pkh} OP_RETURN 00`],
    ['an owner lock that is not P2PKH', `${envelope(transfer({}))} OP_HASH160 ${ownerPkh} OP_EQUAL`],
    [
      'a cosigner key that is not a compressed key',
      `${envelope(transfer({}))} OP_DUP OP_HASH160 ${ownerPkh} OP_EQUALVERIFY OP_CHECKSIGVERIFY 04${'11'.repeat(32)} OP_CHECKSIG`,
    ],
    ['the owner lock before the envelope', `${p2pkh} ${envelope(transfer({}))}`],
    ['a plain P2PKH output', p2pkh],
  ])('refuses %s', (_what, asm) => {
    expect(parseTokenOutput(script(asm))).toBeUndefined();
  });

  it('refuses a script that is not hex', () => {
    expect(parseTokenOutput('zz')).toBeUndefined();
  });

  it('builds nothing it would refuse to read', () => {
    expect(() => tokenLock({ ownerAddress, inscription: { op: 'transfer', tokenId: TOKEN_ID, amount: 0n } })).toThrow(/from 1 to/);
    expect(() => tokenLock({ ownerAddress, inscription: { op: 'transfer', tokenId: 'USDX', amount: 1n } })).toThrow(/not a token id/);
    expect(() => tokenLock({ ownerAddress: 'nope', inscription: { op: 'transfer', tokenId: TOKEN_ID, amount: 1n } })).toThrow(
      /not a P2PKH/,
    );
    expect(() =>
      tokenLock({ ownerAddress, inscription: { op: 'transfer', tokenId: TOKEN_ID, amount: 1n }, cosignerPublicKey: '04ab' }),
    ).toThrow(/compressed key/);
  });
});

describe('formatTokenUnits', () => {
  it.each([
    [1250n, 2, '12.50'],
    [5n, 5, '0.00005'],
    [100_000n, 5, '1.00000'],
    [42n, 0, '42'],
    [2n ** 63n - 1n, 5, '92233720368547.75807'],
  ])('shows %s units with %i decimals as %s', (units, decimals, shown) => {
    expect(formatTokenUnits(units, decimals)).toBe(shown);
  });
});
