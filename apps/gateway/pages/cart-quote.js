// The cart's price, from pos (docs/decisions/0023-counter-pricing-and-rewards.md): the page does no sums of
// tax or tip. Each change of the cart asks POST /api/pos/orders/quote for the order it would create, a
// moment after the last change (typing an amount is one request, not one per key); only the answer to the
// latest request is shown, so a slow answer to an older cart never overwrites a newer one. A busy or
// unreachable service (no answer, 429, 5xx) is asked again a few times before the problem is shown, and a
// cart whose price failed is asked again at its next change, even if it is the same cart.

/** Waits before asking again after a busy or unreachable service, in milliseconds. */
const RETRY_DELAYS_MS = [500, 1_500, 4_000];

/** No answer, too many requests or the service's own failure: the same question may work in a moment. */
const passing = (error) => {
  const status = error?.status;
  return status === 0 || status === 429 || status >= 500;
};

/**
 * @param {{ send: (body: object) => Promise<any>, onQuote: (quote: any) => void, onError: (error: unknown) => void,
 *   onPending: () => void, delayMs?: number, retryDelaysMs?: number[] }} handlers
 */
export function cartQuoter({ send, onQuote, onError, onPending, delayMs = 200, retryDelaysMs = RETRY_DELAYS_MS }) {
  let timer = null;
  let latest = 0;
  let lastBody = null;

  async function ask(body, mine, attempt) {
    try {
      const quote = await send(body);
      if (mine === latest) onQuote(quote);
    } catch (error) {
      if (mine !== latest) return;
      if (passing(error) && attempt < retryDelaysMs.length) {
        timer = setTimeout(() => ask(body, mine, attempt + 1), retryDelaysMs[attempt]);
        return;
      }
      lastBody = null;
      onError(error);
    }
  }

  return {
    /** Asks for the price of `body` (the CreateOrderRequest the cart would send), unless it is the one asked last. */
    request(body) {
      const key = JSON.stringify(body);
      if (key === lastBody) return;
      lastBody = key;
      clearTimeout(timer);
      const mine = ++latest;
      onPending();
      timer = setTimeout(() => ask(body, mine, 0), delayMs);
    },
    /** An empty cart, or a new sale: nothing to price, and any answer on its way is dropped. */
    clear() {
      clearTimeout(timer);
      latest += 1;
      lastBody = null;
    },
  };
}
