import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { FileAnswer, HeaderDoc } from '../routes/route-definition.js';
import { named } from '../routes/answer-schema.js';

/**
 * What the wallet pass routes answer (docs/decisions/0017-customer-cards.md, "Wallet passes"): an Apple
 * .pkpass file, or a Google Wallet save link with its JWT. Both carry the card's identifier (the pass's QR),
 * its bearer secret: they go only to the card's holder and its organisation's staff, and are never stored
 * by a shared cache.
 */

export const PKPASS_MEDIA_TYPE = 'application/vnd.apple.pkpass';

export const APPLE_PASS_FILES: Record<typeof PKPASS_MEDIA_TYPE, FileAnswer> = {
  [PKPASS_MEDIA_TYPE]: {
    description:
      'The .pkpass (a zip): pass.json (a store card: the stamps out of stamps_for_reward, the reward, the rewards ready, and a QR of ' +
      "the card's identifier), icon and logo images, manifest.json (each file's SHA-1) and signature (a detached PKCS#7 of the " +
      'manifest by the pass certificate). Open it on an iPhone or a Mac to add it to Apple Wallet.',
    binary: true,
  },
};

export const APPLE_PASS_HEADERS: Record<string, HeaderDoc> = {
  'content-disposition': {
    description: "An attachment named after the shop's handle",
    example: 'attachment; filename="blue-bottle-cafe-loyalty-card.pkpass"',
  },
};

const ISSUER = '3388000000022222222';
const segment = (json: object) => Buffer.from(JSON.stringify(json)).toString('base64url');
/** A save link's JWT as pos makes one for Blue Bottle Cafe's card (the signature's 256 bytes stand in for a real one). */
const JWT_EXAMPLE = [
  segment({ alg: 'RS256', typ: 'JWT', kid: '8f14e45fceea167a5a36dedd4bea2543' }),
  segment({
    iss: 'wallet@blue-bottle-wallet.iam.gserviceaccount.com',
    aud: 'google',
    typ: 'savetowallet',
    iat: 1773478320,
    origins: ['https://pay.bluebottle.example'],
    payload: {
      loyaltyClasses: [{ id: `${ISSUER}.blue-bottle-cafe`, issuerName: 'Blue Bottle Cafe', programName: 'Blue Bottle Cafe stamps' }],
      loyaltyObjects: [
        {
          id: `${ISSUER}.da279546-38e8-4f15-8601-3678ec634da7`,
          classId: `${ISSUER}.blue-bottle-cafe`,
          state: 'ACTIVE',
          loyaltyPoints: { label: 'Stamps', balance: { int: 7 } },
          barcode: { type: 'QR_CODE', value: '7K3M-Q9TX-2HDR-V4PN', alternateText: 'V4PN' },
        },
      ],
    },
  }),
  createHash('sha256').update('blue-bottle-cafe').digest().toString('base64url').repeat(8).slice(0, 342),
].join('.');

export const googleWalletPass = named(
  'GoogleWalletPass',
  z.object({
    save_url: z.url().describe('https://pay.google.com/gp/v/save/<jwt>: opening it adds the card to Google Wallet'),
    jwt: z
      .string()
      .describe(
        'The save link\'s JWT, signed RS256 by the service account (typ "savetowallet"): the loyalty class of the shop and the ' +
          "loyalty object of the card (its stamps, and a QR of the card's identifier)",
      ),
  }),
  { save_url: `https://pay.google.com/gp/v/save/${JWT_EXAMPLE}`, jwt: JWT_EXAMPLE },
);
export type GoogleWalletPassAnswer = z.infer<typeof googleWalletPass>;
