// The cart's price, from pos (docs/decisions/0023-counter-pricing-and-rewards.md): the page does no sums of
// tax or tip. Each change of the cart asks POST /api/pos/orders/quote for the order it would create, a
// moment after the last change (typing an amount is one request, not one per key); only the answer to the
// latest request is shown, so a slow answer to an older cart never overwrites a newer one.

/**
 * @param {{ send: (body: object) => Promise<any>, onQuote: (quote: any) => void, onError: (error: unknown) => void,
 *   onPending: () => void, delayMs?: number }} handlers
 */
export function cartQuoter({ send, onQuote, onError, onPending, delayMs = 200 }) {
  let timer = null;
  let latest = 0;
  let lastBody = null;
  return {
    /** Asks for the price of `body` (the CreateOrderRequest the cart would send), unless it is the one asked last. */
    request(body) {
      const key = JSON.stringify(body);
      if (key === lastBody) return;
      lastBody = key;
      clearTimeout(timer);
      const mine = ++latest;
      onPending();
      timer = setTimeout(async () => {
        try {
          const quote = await send(body);
          if (mine === latest) onQuote(quote);
        } catch (error) {
          if (mine === latest) onError(error);
        }
      }, delayMs);
    },
    /** An empty cart, or a new sale: nothing to price, and any answer on its way is dropped. */
    clear() {
      clearTimeout(timer);
      latest += 1;
      lastBody = null;
    },
  };
}
