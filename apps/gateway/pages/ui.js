// Small DOM helpers shared by the pages. Text goes in as text nodes, never as HTML: names and notes
// come from merchants and customers.

export const $ = (id) => document.getElementById(id);

/** An element with attributes (booleans set or omit) and children (strings become text). */
export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (value === true) node.setAttribute(name, '');
    else node.setAttribute(name, String(value));
    if (name === 'checked' || name === 'selected') node[name] = Boolean(value);
  }
  for (const child of children) if (child !== '' && child !== null && child !== undefined) node.append(child);
  return node;
}

/** The page's one alert line; empty text hides it. */
export function showAlert(text) {
  const alert = $('alert');
  alert.textContent = text;
  alert.hidden = !text;
}

/** An order's status in words, for the live status line. */
export function statusText(order) {
  const flags = new Set(order.flags ?? []);
  switch (order.status) {
    case 'open':
      return order.paid_satoshis > 0 ? 'Part paid: waiting for the rest' : 'Waiting for payment';
    case 'paid':
      return `Paid${flags.has('overpaid') ? ' (overpaid)' : ''}${flags.has('paid_late') ? ' (late)' : ''}`;
    case 'confirmed':
      // An order a gift card paid in full has no transaction: nothing was mined.
      return (order.payments ?? []).length === 0 && order.card_paid_minor > 0 ? 'Paid by gift card' : 'Paid and confirmed on the chain';
    case 'expired':
      return flags.has('paid_partial') ? 'Expired, part paid' : 'Expired';
    case 'cancelled':
      return 'Cancelled';
    case 'paid_elsewhere':
      // Paid in the dollar stablecoin (its intent), held by a funded escrow, or an online checkout paid by card
      // or another wallet: nothing is due in bitcoin.
      if (order.paid_elsewhere_by === 'stablecoin') return 'Paid in stablecoin';
      if (order.paid_elsewhere_by === 'escrow') return 'Paid into escrow';
      return order.paid_elsewhere_by === 'wallet-provider' ? 'Paid through the wallet provider' : 'Paid by card';
    default:
      return String(order.status ?? '');
  }
}

/** Only wallet schemes are put in a link: a URI from the API never becomes javascript: or another scheme. */
export function walletHref(uri) {
  return typeof uri === 'string' && /^(bitcoin|pay):/i.test(uri) ? uri : null;
}
