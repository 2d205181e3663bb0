import { termsRefusal } from './contract-terms.js';
import { REFERRAL_FIELDS, shareText, LEAST_SHARE, MOST_SHARE, type ReferralProblems } from './referral-links.js';

/** Said beside the share when it is out of bounds, typed or refused. */
export const SHARE_BOUNDS = `Give the referrer from ${shareText(LEAST_SHARE)} to ${shareText(MOST_SHARE)} of each sale, such as 10.`;

/** Said beside the address when it is not one at all. */
export const NOT_AN_ADDRESS = "That is not a wallet address: copy it whole from the referrer's wallet.";

/** Said beside the name or the address left empty. */
export const NAME_MISSING = 'Type who refers the item, such as Coffee Weekly.';
export const ADDRESS_MISSING = "Paste the referrer's wallet address: their share is paid to it.";

/**
 * A referral link refused (`POST /api/v1/orgs/:handle/referral-links`), in words the merchant acts on, beside
 * the field the route names: an item no longer for sale, an address of another chain, a share out of bounds.
 */
export function referralLinkRefusal(error: unknown): { problem: string; fields: ReferralProblems } {
  return termsRefusal(error, {
    fields: REFERRAL_FIELDS,
    contract: 'A referral link',
    then: 'make the link',
    text: (field, message) => {
      switch (field) {
        case 'item_id':
          return 'That item is not for sale now: choose another, or make it available on the Point of sale page.';
        case 'commission_basis_points':
          return SHARE_BOUNDS;
        case 'referrer_address': {
          const network = /\(([^:]+): \w+ addresses, starting with ([^)]+)\)/.exec(message);
          if (network)
            return `That address is of another network: this shop is paid on the ${network[1]} chain, where addresses start with ${network[2]}. Ask the referrer for their wallet's address on it.`;
          return /required/.test(message) ? ADDRESS_MISSING : NOT_AN_ADDRESS;
        }
        case 'referrer_name':
          return /required/.test(message) ? NAME_MISSING : undefined;
      }
    },
  });
}
