/** BIP44's gap limit, and decision 0007's P2P_GAP_LIMIT: the service hands out no child more than 20 past the highest paid. */
export const GAP_LIMIT = 20;

/**
 * The children of the receive branch that were used, found as a wallet restored from its seed finds them:
 * children in order until `gapLimit` unused ones in a row follow the last used one (with none used, children
 * 0 to gapLimit - 1). Each window of unknown children is asked about at once.
 */
export async function scanReceiveBranch(isUsed: (n: number) => Promise<boolean>, gapLimit = GAP_LIMIT): Promise<number[]> {
  const used: number[] = [];
  let lastUsed = -1;
  let next = 0;
  while (next <= lastUsed + gapLimit) {
    const end = lastUsed + gapLimit + 1;
    const window = Array.from({ length: end - next }, (_, i) => next + i);
    const answers = await Promise.all(window.map(isUsed));
    window.forEach((n, i) => {
      if (answers[i]) {
        used.push(n);
        lastUsed = n;
      }
    });
    next = end;
  }
  return used;
}
