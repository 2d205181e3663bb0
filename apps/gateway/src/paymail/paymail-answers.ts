import { z } from 'zod';
import { messageDesc } from '../contract/contract-registry.js';
import { messageSchema } from '../contract/message-schema.js';
import { named } from '../routes/answer-schema.js';

/**
 * What the paymail (bsvalias) routes answer that p2p's contract does not say, in the shapes of the bsvalias
 * specifications: the capability document here; the identity key, the public profile and a key's match are
 * the gateway contract's; destinations and payments are p2p's messages (decision 0026). The example is a customer's
 * wallet paying cafe@example.com 25,000 satoshis.
 */

export const REFERENCE = '9f2c4e6a8b0d1f3e';
export const TX_HEX =
  '010000000195822f0cd823696d6f48a8aa57be7b247817178eceec476e0085618b8115e866000000006a473044022043552395694a071d139e5e976934fb1b6da0db622c927da7c4b02c7491f9c818022052616f4f076fdc0402afba5746851b015e02c5046c61a6c296361821847e9508412102741919ff11144a7a2efe037ec2dec4a69bd3191210f85ed140531ef9e024c2eaffffffff03a8610000000000001976a914ee556d99a810480b1058828e7298643c2ff0a2e788ac000000000000000053006a0b63746b2e7265636569707401311063616665406578616d706c652e636f6d1039663263346536613862306431663365205ea44c3961f16643e614435496b16115aa6d75458b5cc3fd5398aae291f3126bb8221e00000000001976a9146e0a97c9f65aa45b4fd37c7dc1ab03208fc8e63f88ac00000000';
export const BEEF_HEX =
  '0100beef0002010000000175305cc209154c0ce04ea2068258be3204cfe7f273fe8010a018215a2b92050d000000000151ffffffff0180841e00000000001976a9146e0a97c9f65aa45b4fd37c7dc1ab03208fc8e63f88ac000000000001' +
  TX_HEX +
  '00';
export const SENDER = {
  sender: 'ann@wallet.example',
  pubkey: '02741919ff11144a7a2efe037ec2dec4a69bd3191210f85ed140531ef9e024c2ea',
  signature: 'IEjeOFxITDFaBt4aucOMqVMg+YwNoGk6TZ2EHeV945A4XJ2emF2rHtYRIVNg0ZHwzdRZvkk1IQcs3NEgnZE9IBg=',
  note: 'Two lattes, thanks!',
};

/** The capability document of an instance at `base` (its public URL): each BRFC's URL template, or a flag. */
export function capabilities(base: string) {
  const url = (path: string) => `${base}/api/v1/bsvalias/${path}/{alias}@{domain.tld}`;
  return {
    bsvalias: '1.0' as const,
    capabilities: {
      pki: url('id'),
      paymentDestination: url('address'),
      f12f968c92d6: url('public-profile'),
      a9f510c16bde: `${url('verifypubkey')}/{pubkey}`,
      '2a40af698840': url('p2p-payment-destination'),
      '5f1323cddf31': url('receive-transaction'),
      '5c55a7fdb7bb': url('beef'),
      // Sender validation: senders may sign, and a signature sent is checked, but none is required.
      '6745385c3fc0': false,
    },
  };
}

export const bsvaliasCapabilities = named(
  'BsvaliasCapabilities',
  z.object({
    bsvalias: z.literal('1.0'),
    capabilities: z.record(z.string(), z.union([z.string(), z.boolean()])).describe('BRFC id or name: the URL template, or a flag'),
  }),
  capabilities('https://example.com'),
);

/** The identity key, the public profile and a key's match: the gateway contract's messages (proto/ctk/gateway/v1/paymail.proto). */
const answer = (name: string) => messageSchema(messageDesc(`ctk.gateway.v1.${name}`), 'answer');
export const paymailPki = answer('PaymailPki');
export const publicProfile = answer('PaymailPublicProfile');
export const verifiedPubkey = answer('PaymailPubkeyMatch');
