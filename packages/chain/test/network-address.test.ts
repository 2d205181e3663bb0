import { PrivateKey, Utils } from '@bsv/sdk';
import { describe, expect, it } from 'vitest';
import { addressBytes, p2pkhAddressHash } from '../src/address-bytes.js';
import { addressOfPublicKey, networkAddress } from '../src/network-address.js';

describe('customer addresses', () => {
  const key = PrivateKey.fromRandom();
  const publicKey = key.toPublicKey().toString();

  it("reads a compressed public key as its address in the network's form", () => {
    expect(addressOfPublicKey(publicKey, 'main', 'public_key')).toBe(key.toAddress([0x00]));
    expect(addressOfPublicKey(publicKey.toUpperCase(), 'test', 'public_key')).toBe(key.toAddress([0x6f]));
  });

  it.each([
    ['uncompressed', `04${publicKey.slice(2)}`],
    ['short', publicKey.slice(0, 64)],
    ['an x with no point', `02${'0'.repeat(63)}5`],
    // At or above the field prime: the SDK would reduce it to another x and answer that point's address.
    ['an x beyond the field', `02${'f'.repeat(64)}`],
  ])('refuses a public key that is %s, naming the field', (_, text) => {
    expect(() => addressOfPublicKey(text, 'main', 'holder.public_key')).toThrow(
      expect.objectContaining({ code: 'validation_failed', details: { field: 'holder.public_key' } }),
    );
  });

  it("takes an address of the chain's network only", () => {
    expect(networkAddress(key.toAddress([0x6f]), 'local', 'address')).toBe(key.toAddress([0x6f]));
    expect(() => networkAddress(key.toAddress([0x00]), 'test', 'address')).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    expect(() => networkAddress(key.toAddress([0x6f]), 'main', 'address')).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});

describe('addressBytes', () => {
  it("reads an address's version byte and hash as @bsv/sdk does, and P2PKH's alone as a public key hash", () => {
    for (let n = 0; n < 50; n++) {
      const random = PrivateKey.fromRandom();
      for (const prefix of [0x00, 0x6f]) {
        const address = random.toAddress([prefix]);
        const { prefix: sdkPrefix, data } = Utils.fromBase58Check(address);
        expect(addressBytes(address)).toEqual({ prefix: sdkPrefix[0], hash: Uint8Array.from(data as number[]) });
        expect(p2pkhAddressHash(address)).toEqual(Uint8Array.from(data as number[]));
      }
    }
    // A P2SH address (version 0x05) is an address, and no P2PKH one.
    const p2sh = Utils.toBase58Check(new Array(20).fill(7), [0x05]);
    expect(addressBytes(p2sh)?.prefix).toBe(0x05);
    expect(p2pkhAddressHash(p2sh)).toBeUndefined();
  });

  it('reads nothing from a wrong checksum, a length other than 25 bytes, or a character outside Base58', () => {
    const address = PrivateKey.fromRandom().toAddress([0x6f]) as string;
    const changed = `${address.slice(0, -1)}${address.endsWith('1') ? '2' : '1'}`;
    const short = Utils.toBase58Check(new Array(19).fill(1), [0x6f]);
    const long = Utils.toBase58Check(new Array(21).fill(1), [0x6f]);
    for (const text of [changed, short, long, `${address}\u0000`, address.replace(/.$/, '0'), '', 'm'.repeat(36), ' '.repeat(10)])
      expect(addressBytes(text)).toBeUndefined();
  });
});
