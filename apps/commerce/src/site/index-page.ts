import { escapeHtml } from '@ctk/shared';
import { buyMarkup, priceOf } from './item-markup.js';
import { openingHoursSpecification, upcoming, weekRows } from './opening-hours.js';
import { page } from './page-frame.js';
import type { Section } from './site-settings.js';
import type { SiteFrame } from './site-source.js';

/** index.html: the sections in the order the settings give, and the shop as a schema.org LocalBusiness. */
export function indexPage(frame: SiteFrame): string {
  const { source } = frame;
  const { look, profile } = source;
  const sections = look.sections.map((section) => SECTION_MARKUP[section](frame)).filter(Boolean);
  const header = look.sections.includes('hero')
    ? ''
    : `<header class="site-header"><div class="wrap"><h1>${escapeHtml(frame.title)}</h1>${
        look.tagline ? `<p>${escapeHtml(look.tagline)}</p>` : ''
      }</div></header>\n`;
  const hero = look.sections[0] === 'hero' ? sections.shift() : undefined;
  const currencies = [...new Set(source.catalog.items.map((item) => item.currency))];
  const map = mapUrl(source);
  return page({
    title: frame.title,
    description: look.tagline,
    css: frame.inlineCss ? { inline: frame.css } : { href: frame.cssPath },
    script: source.catalog.items.length && look.sections.includes('menu') ? source.buy?.script : undefined,
    gatewayOrigin: new URL(source.publicUrl).origin,
    imageOrigins: avatarOrigin(source),
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'LocalBusiness',
      name: profile.name,
      ...(look.tagline ? { description: look.tagline } : {}),
      ...(profile.avatarUrl ? { image: profile.avatarUrl } : {}),
      ...(profile.latitude !== undefined && profile.longitude !== undefined
        ? { geo: { '@type': 'GeoCoordinates', latitude: profile.latitude, longitude: profile.longitude } }
        : {}),
      ...(map ? { hasMap: map } : {}),
      ...(currencies.length ? { currenciesAccepted: currencies.join(', ') } : {}),
      paymentAccepted: 'Bitcoin (BSV)',
      openingHoursSpecification: openingHoursSpecification(source.hours, source.today),
    },
    body: `${hero ?? ''}${header}<main class="wrap">
${sections.join('\n')}
</main>
<footer class="wrap"><p>${escapeHtml(profile.name)}${profile.paymail ? ` · ${escapeHtml(profile.paymail)}` : ''}</p></footer>`,
  });
}

const SECTION_MARKUP: Record<Section, (frame: SiteFrame) => string> = {
  hero: ({ source, title }) => {
    const avatar = source.profile.avatarUrl?.startsWith('https://')
      ? `<img src="${escapeHtml(source.profile.avatarUrl)}" alt="" width="64" height="64">`
      : '';
    const tagline = source.look.tagline ? `<p>${escapeHtml(source.look.tagline)}</p>` : '';
    return `<header class="hero"><div class="wrap">${avatar}<h1>${escapeHtml(title)}</h1>${tagline}</div></header>\n`;
  },
  about: ({ source }) => {
    const paragraphs = source.look.about
      .split(/\n\s*\n/)
      .map((text) => text.trim())
      .filter(Boolean);
    if (!paragraphs.length) return '';
    const text = paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`).join('\n');
    return `<section id="about" aria-labelledby="about-title">\n<h2 id="about-title">About us</h2>\n${text}\n</section>`;
  },
  menu: (frame) => {
    const { catalog } = frame.source;
    if (!catalog.items.length) return '';
    const byId = new Map(catalog.items.map((item) => [item.id, item]));
    const groups = catalog.sections.map((section) => {
      const items = section.itemIds.map((id) => byId.get(id)).filter((item) => item !== undefined);
      const list = items
        .map((item) => {
          const href = escapeHtml(frame.itemPaths.get(item.id)!);
          const description = item.description ? `<p class="description">${escapeHtml(item.description)}</p>` : '';
          return `<li class="item"><h4><a href="${href}">${escapeHtml(item.name)}</a></h4><span class="price">${priceOf(item)}</span>${description}${buyMarkup(frame.source, item)}</li>`;
        })
        .join('\n');
      return `<h3>${escapeHtml(section.name)}</h3>\n<ul class="items">\n${list}\n</ul>`;
    });
    return `<section id="menu" aria-labelledby="menu-title">\n<h2 id="menu-title">Menu</h2>\n${groups.join('\n')}\n</section>`;
  },
  hours: ({ source }) => {
    const badge = `<img class="sign" src="${escapeHtml(signUrl(source))}" alt="Whether ${escapeHtml(source.profile.name)} is open now" width="220" height="40">`;
    const rows = weekRows(source.hours)
      .map((row) => `<tr><th scope="row">${row.day}</th><td>${row.periods.length ? row.periods.join(', ') : 'Closed'}</td></tr>`)
      .join('\n');
    const special = upcoming(source.hours, source.today)
      .map((day) => {
        const periods = day.periods.length ? day.periods.map((period) => `${period.opens}–${period.closes}`).join(', ') : 'Closed';
        return `<li><time datetime="${escapeHtml(day.date)}">${escapeHtml(day.date)}</time>: ${escapeHtml(periods)}${day.note ? ` (${escapeHtml(day.note)})` : ''}</li>`;
      })
      .join('\n');
    const zone = source.hours?.timeZone || source.profile.timeZone;
    return `<section id="hours" aria-labelledby="hours-title">\n<h2 id="hours-title">Hours</h2>\n${badge}\n<table>\n<caption class="description">Times in ${escapeHtml(zone)}</caption>\n${rows}\n</table>${
      special ? `\n<h3>Special days</h3>\n<ul>\n${special}\n</ul>` : ''
    }\n</section>`;
  },
  location: (frame) => {
    const map = mapUrl(frame.source);
    if (!map) return '';
    return `<section id="location" aria-labelledby="location-title">\n<h2 id="location-title">Find us</h2>\n<p><a href="${escapeHtml(map)}">${escapeHtml(frame.source.profile.name)} on the map</a></p>\n</section>`;
  },
  contact: ({ source }) => {
    const { paymail, category } = source.profile;
    if (!paymail) return '';
    const kind = category ? `<p>${escapeHtml(category)}</p>\n` : '';
    return `<section id="contact" aria-labelledby="contact-title">\n<h2 id="contact-title">Contact</h2>\n${kind}<p>Pay us from any wallet at our paymail <strong>${escapeHtml(paymail)}</strong>.</p>\n</section>`;
  },
};

/** The open sign's badge (federation, decision 0034): live, whatever the page says. */
export function signUrl(source: SiteFrame['source']): string {
  return `${source.publicUrl}/api/v1/shops/${encodeURIComponent(source.handle)}/sign?format=svg`;
}

/** The shop's place on OpenStreetMap; undefined without a place. */
function mapUrl(source: SiteFrame['source']): string | undefined {
  const { latitude, longitude } = source.profile;
  if (latitude === undefined || longitude === undefined) return undefined;
  return `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=18/${latitude}/${longitude}`;
}

function avatarOrigin(source: SiteFrame['source']): string[] {
  const url = source.profile.avatarUrl;
  if (!url?.startsWith('https://')) return [];
  try {
    return [new URL(url).origin];
  } catch {
    return [];
  }
}
