import { z } from 'zod';

const hexColour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour is #RRGGBB');

/**
 * What a loyalty card's wallet pass shows (docs/decisions/0017-customer-cards.md, "Wallet passes"): the
 * merchant, the stamps out of stamps_for_reward, the reward, and a QR of the card's identifier, which the
 * counter scans to stamp and redeem. The identifier is the card's bearer secret: content is made only for
 * the card's holder or the organisation's staff.
 */
export const passContentSchema = z.object({
  /** The card's id (a UUID): the pass's serial number and the Google object's id. */
  cardId: z.guid(),
  merchantName: z.string().min(1).max(120),
  merchantHandle: z.string().min(1).max(120),
  stamps: z.number().int().min(0),
  stampsForReward: z.number().int().min(1).max(100),
  /** What a reward is, as the customer reads it ("A free coffee"). */
  reward: z.string().min(1).max(120),
  /** The card's identifier, XXXX-XXXX-XXXX-XXXX: the QR's message. */
  identifier: z.string().regex(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/, 'the identifier is XXXX-XXXX-XXXX-XXXX'),
  colours: z.object({ background: hexColour, foreground: hexColour, label: hexColour }),
  /** Where the card can be seen on the web (the instance's public URL or the card's page): the pass links to it. */
  publicUrl: z.url({ protocol: /^https?$/ }),
  /** An https image of the merchant's logo for Google Wallet's card (Apple's pass carries its images). */
  logoUrl: z.url({ protocol: /^https$/ }).optional(),
});

export type PassContent = z.input<typeof passContentSchema>;

/** A coffee shop's colours: espresso, white, cream. */
export const DEFAULT_PASS_COLOURS = { background: '#3B2A20', foreground: '#FFFFFF', label: '#E8D5B5' } as const;

/** The content, checked: content that breaks these rules is pos's bug, not the customer's, and makes no pass. */
export function checkedPassContent(content: PassContent): z.output<typeof passContentSchema> {
  const parsed = passContentSchema.safeParse(content);
  if (!parsed.success) {
    throw new Error(
      `Wallet pass content is invalid: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

/** "7 of 10": the stamps toward the next reward, as both passes show them. */
export function stampsText(content: { stamps: number; stampsForReward: number }): string {
  return `${content.stamps} of ${content.stampsForReward}`;
}

/** How many rewards the stamps pay for now. */
export function rewardsAvailable(content: { stamps: number; stampsForReward: number }): number {
  return Math.floor(content.stamps / content.stampsForReward);
}

/** The identifier's last 4 characters: printed under the QR, as staff views show it. */
export function identifierLast4(identifier: string): string {
  return identifier.slice(-4);
}
