import { EXAMPLE_DID, EXAMPLE_NONCE } from './sign-in-answers.js';

/** Request examples of key-based sign-in. */

export const challengeExample = { did: EXAMPLE_DID };
export const verifyExample = {
  nonce: EXAMPLE_NONCE,
  signature:
    '3045022100ff6256e10d58fcff1b7a218063c936e6868d0879742933e432827e6ac05ad85802207d1f56679442cad840d2dda03a9a895f7c669d455c47bf18e6576cf6ae462e35',
};
