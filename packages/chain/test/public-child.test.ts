import { HD } from '@bsv/sdk';
import { describe, expect, it } from 'vitest';
import { publicChild } from '../src/keys/public-child.js';

const nodeOf = (hd: HD) => ({ publicKey: Uint8Array.from(hd.pubKey.encode(true) as number[]), chainCode: Uint8Array.from(hd.chainCode) });
const hex = (bytes: Uint8Array | number[]) => Buffer.from(bytes).toString('hex');

describe('publicChild (BIP32 CKDpub with libsecp256k1)', () => {
  it("derives the same child key and chain code as @bsv/sdk's HD, over random xpubs and indices", () => {
    for (let n = 0; n < 200; n++) {
      const chain = HD.fromRandom().derive("m/44'/236'/0'").toPublic().derive('m/0');
      const index = n < 100 ? n : Math.floor(Math.random() * 0x8000_0000);
      const sdk = chain.deriveChild(index);
      const child = publicChild(nodeOf(chain), index)!;
      expect(hex(child.publicKey)).toBe(hex(sdk.pubKey.encode(true) as number[]));
      expect(hex(child.chainCode)).toBe(hex(sdk.chainCode));
    }
  });

  it("matches BIP32's published test vector 1 (M/0H/1 of the seed 000102...0f)", () => {
    // From BIP32: chain m/0H/1 of seed 000102030405060708090a0b0c0d0e0f; the public derivation of index 1 from M/0H.
    const parent = HD.fromString(
      'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw',
    );
    const child = publicChild(nodeOf(parent), 1)!;
    expect(hex(child.publicKey)).toBe('03501e454bf00751f24b1b489aa925215d66af2234e3891c3b21a52bedb3cd711c');
    expect(hex(child.chainCode)).toBe('2a7857631386ba23dacac34180dd1983734e444fdbf774041578e9b6adb37c19');
  });

  it('is undefined for a hardened or malformed index, which the caller derives otherwise', () => {
    const chain = nodeOf(HD.fromRandom().toPublic());
    for (const index of [0x8000_0000, -1, 1.5, Number.NaN]) expect(publicChild(chain, index)).toBeUndefined();
  });
});
