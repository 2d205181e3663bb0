// The cart at the counter: lines (a menu item with its modifiers, or a keypad amount), a discount and a
// tip, in integers of minor units. It does no sums of its own: pos prices it (cart-quote.js asks for the
// quote as it changes), and the order it creates charges exactly that.

/**
 * @typedef {{ key: string, itemId: string | null, name: string, priceMinor: number, chosenPriceMinor: number | null,
 *   modifiers: Array<{ id: string, name: string, price_cents: number }>, quantity: number }} CartLine
 * @typedef {{ basisPoints?: number, minor?: number }} Share a percent in basis points, or an amount in minor units
 * @typedef {{ lines: CartLine[], discount: Share | null, tip: Share | null, note: string }} Cart
 */

/** @returns {Cart} */
export function emptyCart() {
  return { lines: [], discount: null, tip: null, note: '' };
}

/** The line's unit price: the item's (or the price the payer chose) plus its modifiers'. */
export function unitPrice(line) {
  const base = line.chosenPriceMinor ?? line.priceMinor;
  return base + line.modifiers.reduce((sum, modifier) => sum + modifier.price_cents, 0);
}

/** Adds an item with the chosen modifiers; the same item with the same choices adds to its quantity. */
export function addItem(cart, item, modifiers = [], chosenPriceMinor = null) {
  const key = [item.id, ...modifiers.map((modifier) => modifier.id).sort(), chosenPriceMinor ?? ''].join('|');
  const existing = cart.lines.find((line) => line.key === key);
  if (existing) existing.quantity += 1;
  else
    cart.lines.push({
      key,
      itemId: item.id,
      name: item.name,
      priceMinor: item.price_cents,
      chosenPriceMinor,
      modifiers,
      quantity: 1,
    });
}

let keypadLines = 0;

/** A keypad line: a name and a unit price typed at the counter. */
export function addKeypadLine(cart, name, unitPriceMinor) {
  cart.lines.push({
    key: `keypad-${++keypadLines}`,
    itemId: null,
    name: name || 'Custom amount',
    priceMinor: unitPriceMinor,
    chosenPriceMinor: null,
    modifiers: [],
    quantity: 1,
  });
}

/** Quantity up or down by `delta`; a line at 0 leaves the cart. */
export function changeQuantity(cart, key, delta) {
  const line = cart.lines.find((candidate) => candidate.key === key);
  if (!line) return;
  line.quantity = Math.min(999, line.quantity + delta);
  if (line.quantity <= 0) cart.lines.splice(cart.lines.indexOf(line), 1);
}

/** The body of POST /api/pos/orders and of its quote (the snake_case CreateOrderRequest of proto/ctk/pos/v1/pos.proto). */
export function orderRequest(cart, orgHandle) {
  const body = {
    org_handle: orgHandle,
    lines: cart.lines.map((line) =>
      line.itemId
        ? {
            item_id: line.itemId,
            quantity: line.quantity,
            modifiers: line.modifiers.map((modifier) => ({ modifier_id: modifier.id })),
            ...(line.chosenPriceMinor !== null ? { chosen_price_minor: line.chosenPriceMinor } : {}),
          }
        : { name: line.name, unit_price_minor: line.priceMinor, quantity: line.quantity },
    ),
  };
  if (cart.discount?.basisPoints) body.discount_basis_points = cart.discount.basisPoints;
  if (cart.discount?.minor) body.discount_minor = cart.discount.minor;
  if (cart.tip?.basisPoints) body.tip_basis_points = cart.tip.basisPoints;
  if (cart.tip?.minor) body.tip_minor = cart.tip.minor;
  if (cart.note.trim()) body.note = cart.note.trim();
  return body;
}
