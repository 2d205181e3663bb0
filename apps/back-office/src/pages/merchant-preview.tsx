import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { describe, Problem } from '../form.js';
import { formatMoney } from '../format.js';
import type { FoundItem, MerchantDetail } from '../federation.js';
import { SignLine } from './live-sign.js';

/** "How customers find you": the shop as discovery shows it on any instance (`GET /api/v1/discover/merchants/:handle`). */
export function MerchantPreview({ handle, version }: { handle: string; version: number }) {
  const [detail, setDetail] = useState<MerchantDetail | null | undefined>(undefined);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    api<MerchantDetail>(`/api/v1/discover/merchants/${encodeURIComponent(handle)}`).then(setDetail, (error) =>
      error instanceof ApiError && error.status === 404 ? setDetail(null) : setProblem(describe(error)),
    );
  }, [handle, version]);
  const merchant = detail?.merchant;
  return (
    <section class="card" aria-labelledby="preview-title">
      <h2 id="preview-title">How customers find you</h2>
      <Problem problem={problem} />
      {detail === null && <p class="muted">Nothing yet: once your catalog is published, this is what customers see of your shop.</p>}
      {merchant && (
        <>
          <p class="muted">As customers see your shop on this instance and on others that carry your feed.</p>
          <article class="listing" aria-label={`${merchant.name}, as customers see it`}>
            <h3>
              {merchant.name}
              {merchant.category && <span class="tag">{merchant.category}</span>}
            </h3>
            <SignLine sign={merchant.sign} />
            {merchant.paymail && <p class="muted">Pays to {merchant.paymail}</p>}
            <ItemList items={detail.items} />
          </article>
        </>
      )}
    </section>
  );
}

const sats = (n: number) => `${new Intl.NumberFormat().format(n)} sats`;

/** Items as discovery lists them: name, price (and satoshis at the feed's rate), whether available; with their shop's name if asked. */
export function ItemList({ items, withShop = false }: { items: FoundItem[]; withShop?: boolean }) {
  if (items.length === 0) return <p class="muted">No items listed.</p>;
  return (
    <ul class="found">
      {items.map((item) => (
        <li key={`${item.merchant_id} ${item.id}`}>
          <span class="found-name">
            {item.name}
            {!item.available && <span class="tag">sold out</span>}
            {(withShop || item.category) && <small class="muted">{withShop ? item.merchant_name : item.category}</small>}
          </span>
          <span class="found-price">
            {formatMoney(item.price_minor, item.currency)}
            {item.satoshis !== null && <small class="muted">{sats(item.satoshis)}</small>}
          </span>
        </li>
      ))}
    </ul>
  );
}
