// The Buy button snippet a merchant pastes into a page (docs/decisions/0018-commerce-checkout.md): the
// checkout.js script tag, pinned by its SRI hash, and one <ctk-buy-button> element per item. The back
// office's settings give it to copy, and the site builder writes it into every page it publishes
// (docs/decisions/0035-site-builder.md). No Node API here: the back office bundles it for the browser.

export type CheckoutScript = { src: string; integrity: string };
export type BuyButton = { merchant: string; item: string; commerceKey: string; quantity?: number; label?: string };

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or an attribute's value as HTML: nothing in it is markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** `<script src=".../checkout/v2/checkout.js" integrity="sha384-..." crossorigin="anonymous" defer></script>` */
export function checkoutScriptTag(script: CheckoutScript): string {
  return `<script src="${escapeHtml(script.src)}" integrity="${escapeHtml(script.integrity)}" crossorigin="anonymous" defer></script>`;
}

/** `<ctk-buy-button merchant=".." item=".." commerce-key=".." quantity="1">Buy now</ctk-buy-button>` */
export function buyButtonElement(button: BuyButton): string {
  const quantity = button.quantity ?? 1;
  return (
    `<ctk-buy-button merchant="${escapeHtml(button.merchant)}" item="${escapeHtml(button.item)}" ` +
    `commerce-key="${escapeHtml(button.commerceKey)}" quantity="${quantity}">${escapeHtml(button.label ?? 'Buy now')}</ctk-buy-button>`
  );
}

/** The two things a merchant pastes: the script tag, then the element. */
export function buyButtonSnippet(script: CheckoutScript, button: BuyButton): string {
  return `${checkoutScriptTag(script)}\n${buyButtonElement(button)}`;
}
