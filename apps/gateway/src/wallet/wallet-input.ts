import { z } from 'zod';

/** An address of the wallet API: p2p, which owns the wallet API, checks it is a P2PKH address. */
export const utxosQuery = z.object({ address: z.string().max(100) });
export const broadcastBody = z
  .object({
    transaction: z
      .string()
      .regex(/^([0-9a-fA-F]{2})+$/, 'a raw, EF or BEEF transaction in hex')
      .max(2_000_000),
  })
  .strict();
export const passthroughParams = z.object({ '*': z.string().max(300) });

/** Request examples of the wallet API. */

export const broadcastExample = {
  transaction:
    '010000000195822f0cd823696d6f48a8aa57be7b247817178eceec476e0085618b8115e866000000006a473044022043552395694a071d139e5e976934fb1b6da0db622c927da7c4b02c7491f9c818022052616f4f076fdc0402afba5746851b015e02c5046c61a6c296361821847e9508412102741919ff11144a7a2efe037ec2dec4a69bd3191210f85ed140531ef9e024c2eaffffffff03a8610000000000001976a914ee556d99a810480b1058828e7298643c2ff0a2e788ac000000000000000053006a0b63746b2e7265636569707401311063616665406578616d706c652e636f6d1039663263346536613862306431663365205ea44c3961f16643e614435496b16115aa6d75458b5cc3fd5398aae291f3126bb8221e00000000001976a9146e0a97c9f65aa45b4fd37c7dc1ab03208fc8e63f88ac00000000',
};
