/** Request examples of key-based sign-in (the did and nonce of proto/ctk/gateway/v1/sign-in.examples.json's challenge). */

export const challengeExample = { did: 'did:key:zQ3shS33W5rNbKpmgZfdopQJKC3ZJJaUu7vaaXCWq6kEZwSXu' };
export const verifyExample = {
  nonce: '7c1e9a4f2b8d6e3a0f5c1b9d7e2a4c6f',
  signature:
    '3045022100ff6256e10d58fcff1b7a218063c936e6868d0879742933e432827e6ac05ad85802207d1f56679442cad840d2dda03a9a895f7c669d455c47bf18e6576cf6ae462e35',
};
