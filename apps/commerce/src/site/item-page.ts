import { escapeHtml } from '@ctk/shared';
import { buyMarkup, priceOf } from './item-markup.js';
import { decimalAmount, formatMoney } from './money.js';
import { page } from './page-frame.js';
import type { Item, SiteFrame } from './site-source.js';

/**
 * items/<slug>.html: one item with its Buy button, as a schema.org Product with its Offer. It shows nothing
 * of other items, the hours or the texts, so a change elsewhere leaves its bytes as they were.
 */
export function itemPage(frame: SiteFrame, item: Item): string {
  const { source } = frame;
  const options = item.modifiers.length
    ? `<h2>Options</h2>\n<ul class="options">\n${item.modifiers
        .map(
          (modifier) =>
            `<li>${escapeHtml(modifier.name)}${modifier.group ? ` (${escapeHtml(modifier.group)})` : ''}: +${escapeHtml(formatMoney(modifier.priceMinor, item.currency))}</li>`,
        )
        .join('\n')}\n</ul>`
    : '';
  return page({
    title: `${item.name} · ${frame.title}`,
    description: item.description,
    css: frame.inlineCss ? { inline: frame.css } : { href: `../${frame.cssPath}` },
    script: item.soldOut ? undefined : source.buy?.script,
    gatewayOrigin: new URL(source.publicUrl).origin,
    imageOrigins: [],
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: item.name,
      ...(item.description ? { description: item.description } : {}),
      ...(item.category ? { category: item.category } : {}),
      offers: {
        '@type': 'Offer',
        price: decimalAmount(item.priceMinor, item.currency),
        priceCurrency: item.currency,
        availability: item.soldOut ? 'https://schema.org/OutOfStock' : 'https://schema.org/InStock',
        seller: { '@type': 'LocalBusiness', name: source.profile.name },
      },
    },
    body: `<header class="site-header"><div class="wrap"><a href="../index.html">${escapeHtml(frame.title)}</a></div></header>
<main class="wrap">
<article class="product">
<h1>${escapeHtml(item.name)}</h1>
${item.description ? `<p class="description">${escapeHtml(item.description)}</p>\n` : ''}<p class="price">${priceOf(item)}</p>
${buyMarkup(source, item)}
${options}
</article>
<p><a href="../index.html#menu">Back to the menu</a></p>
</main>`,
  });
}
