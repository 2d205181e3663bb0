import { z } from 'zod';
import { named } from '../routes/answer-schema.js';
import type { FileAnswer } from '../routes/route-definition.js';

/** What the wallet API and the chain passthrough answer. */

const ADDRESS = '1B2r27RRmPE1VoS3fU63996rX5cbNuAWuo';
const TXID = 'b256360aa2c864e558e8064808f27b1ef4190f07c8402ae6ae3d512a6b992c9e';

export const utxoList = named(
  'UtxoList',
  z.object({
    address: z.string(),
    data: z.array(
      z.object({
        txid: z.string(),
        vout: z.number().int(),
        satoshis: z.number().int(),
        height: z.number().int().nullable().describe('null while unmined'),
      }),
    ),
  }),
  { address: ADDRESS, data: [{ txid: TXID, vout: 2, satoshis: 1_974_978, height: 938_412 }] },
);

export const broadcastResult = named(
  'BroadcastResult',
  z.object({ txid: z.string(), state: z.string().describe('e.g. seen, mined'), arc_status: z.string().nullable() }),
  { txid: TXID, state: 'seen', arc_status: 'SEEN_ON_NETWORK' },
);

/** The chain API's own answer, passed on with its status and media type: JSON for most routes. */
export const chainApiAnswer = named('ChainApiAnswer', z.unknown(), {
  chain: 'main',
  blocks: 938_412,
  headers: 938_412,
  bestblockhash: '000000000000000003a1f5c7e9b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c3e5b7',
});

export const CHAIN_API_FILES: Record<'text/plain', FileAnswer> = {
  'text/plain': {
    description: 'tx/<txid>/hex and a broadcast: the transaction in hex, or its txid',
    example: TXID,
  },
};

/* Request examples. */

export const broadcastExample = {
  transaction:
    '010000000195822f0cd823696d6f48a8aa57be7b247817178eceec476e0085618b8115e866000000006a473044022043552395694a071d139e5e976934fb1b6da0db622c927da7c4b02c7491f9c818022052616f4f076fdc0402afba5746851b015e02c5046c61a6c296361821847e9508412102741919ff11144a7a2efe037ec2dec4a69bd3191210f85ed140531ef9e024c2eaffffffff03a8610000000000001976a914ee556d99a810480b1058828e7298643c2ff0a2e788ac000000000000000053006a0b63746b2e7265636569707401311063616665406578616d706c652e636f6d1039663263346536613862306431663365205ea44c3961f16643e614435496b16115aa6d75458b5cc3fd5398aae291f3126bb8221e00000000001976a9146e0a97c9f65aa45b4fd37c7dc1ab03208fc8e63f88ac00000000',
};
