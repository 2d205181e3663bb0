import { z } from 'zod';
import { named } from '../routes/answer-schema.js';
import type { FileAnswer } from '../routes/route-definition.js';

/** What the chain passthrough answers. */

const TXID = 'b256360aa2c864e558e8064808f27b1ef4190f07c8402ae6ae3d512a6b992c9e';

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
