import { PassType, PKPass } from 'passkit-generator';
import type { ApplePassSigner } from './apple-pass-signer.js';
import { checkedPassContent, identifierLast4, rewardsAvailable, stampsText, type PassContent } from './pass-content.js';

/** An Apple `.pkpass` is a zip served with this media type. */
export const PKPASS_MEDIA_TYPE = 'application/vnd.apple.pkpass';

/**
 * A loyalty card as an Apple Wallet store card (a `.pkpass`, made with passkit-generator): pass.json with
 * the stamps ("7 of 10"), the reward and a QR of the identifier (its last 4 characters printed under it),
 * the images, manifest.json with each file's SHA-1, and `signature`, a detached PKCS#7 of the manifest by
 * the pass certificate (with the WWDR certificate). The serial number is the card id: a new pass for the
 * same card replaces the one in Wallet.
 */
export function makeApplePass(signer: ApplePassSigner, images: Record<string, Buffer>, input: PassContent): Buffer {
  const content = checkedPassContent(input);
  const pass = new PKPass({ ...images }, signer.certificates, {
    formatVersion: 1,
    passTypeIdentifier: signer.passTypeIdentifier,
    teamIdentifier: signer.teamIdentifier,
    serialNumber: content.cardId,
    organizationName: content.merchantName,
    description: `${content.merchantName} loyalty card`,
    logoText: content.merchantName,
    backgroundColor: rgb(content.colours.background),
    foregroundColor: rgb(content.colours.foreground),
    labelColor: rgb(content.colours.label),
    // The QR is the card's bearer secret: Wallet's share button would hand it on.
    sharingProhibited: true,
  });
  const storeCard = new PassType('storeCard');
  storeCard.primaryFields.push({ key: 'stamps', label: 'Stamps', value: stampsText(content) });
  storeCard.secondaryFields.push({ key: 'reward', label: `Reward after ${content.stampsForReward} stamps`, value: content.reward });
  storeCard.auxiliaryFields.push({ key: 'rewards', label: 'Rewards ready', value: rewardsAvailable(content) });
  storeCard.backFields.push(
    { key: 'merchant', label: 'Merchant', value: content.merchantHandle },
    { key: 'card', label: 'Card', value: content.publicUrl },
  );
  pass.types.push(storeCard);
  pass.setBarcodes({
    format: 'PKBarcodeFormatQR',
    message: content.identifier,
    messageEncoding: 'iso-8859-1',
    altText: identifierLast4(content.identifier),
  });
  // passkit-generator drops a barcode it finds invalid with a console warning; a pass without its QR is no use.
  if (pass.props.barcodes?.[0]?.message !== content.identifier) throw new Error('The pass lost its QR code');
  return pass.getAsBuffer();
}

/** Wallet wants colours as rgb(r, g, b). */
function rgb(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}
