import type { FileAnswer, HeaderDoc } from '../routes/route-definition.js';

/**
 * What the Apple wallet pass route answers (docs/decisions/0017-customer-cards.md, "Wallet passes"): a
 * .pkpass file (the Google save link is cards.proto's GoogleWalletPass). Both carry the card's identifier
 * (the pass's QR), its bearer secret: they go only to the card's holder and its organisation's staff, and
 * are never stored by a shared cache.
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
