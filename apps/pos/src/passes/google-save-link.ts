import type { GoogleWalletAccount } from './google-wallet-account.js';
import { checkedPassContent, identifierLast4, rewardsAvailable, stampsText, type PassContent } from './pass-content.js';

export const GOOGLE_SAVE_URL = 'https://pay.google.com/gp/v/save/';

/**
 * A loyalty card as a Google Wallet save link: `https://pay.google.com/gp/v/save/<jwt>`, the JWT signed
 * RS256 by the service account (iss its email, aud "google", typ "savetowallet", the instance's origin in
 * `origins`), carrying the merchant's loyalty class and the card's loyalty object: id
 * `<issuer id>.<card id>`, the stamps as its points, the reward, and a QR of the identifier. Saving it
 * again updates the same object.
 */
export async function makeGoogleSaveLink(
  account: GoogleWalletAccount,
  input: PassContent,
  now: Date = new Date(),
): Promise<{ saveUrl: string; jwt: string }> {
  const content = checkedPassContent(input);
  const classId = `${account.issuerId}.${content.merchantHandle}`;
  const loyaltyClass = {
    id: classId,
    issuerName: content.merchantName,
    programName: `${content.merchantName} stamps`,
    reviewStatus: 'UNDER_REVIEW',
    hexBackgroundColor: content.colours.background,
    ...(content.logoUrl ? { programLogo: { sourceUri: { uri: content.logoUrl } } } : {}),
  };
  const loyaltyObject = {
    id: `${account.issuerId}.${content.cardId}`,
    classId,
    state: 'ACTIVE',
    accountId: content.cardId,
    loyaltyPoints: { label: 'Stamps', balance: { int: content.stamps } },
    secondaryLoyaltyPoints: { label: 'Rewards ready', balance: { int: rewardsAvailable(content) } },
    barcode: { type: 'QR_CODE', value: content.identifier, alternateText: identifierLast4(content.identifier) },
    textModulesData: [
      { id: 'stamps', header: 'Stamps', body: stampsText(content) },
      { id: 'reward', header: `Reward after ${content.stampsForReward} stamps`, body: content.reward },
    ],
    linksModuleData: { uris: [{ id: 'card', uri: content.publicUrl, description: content.merchantName }] },
  };
  // jose is loaded by the first save link, not at pos's start (decision 0054): about 0.07 s of every start.
  const { SignJWT } = await import('jose');
  const jwt = await new SignJWT({
    typ: 'savetowallet',
    origins: [new URL(content.publicUrl).origin],
    payload: { loyaltyClasses: [loyaltyClass], loyaltyObjects: [loyaltyObject] },
  })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(account.keyId ? { kid: account.keyId } : {}) })
    .setIssuer(account.clientEmail)
    .setAudience('google')
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .sign(account.privateKey);
  return { saveUrl: `${GOOGLE_SAVE_URL}${jwt}`, jwt };
}
