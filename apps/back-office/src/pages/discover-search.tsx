import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { Field, Problem, useSubmit } from '../form.js';
import type { FoundItem, Merchant } from '../federation.js';
import { SignLine } from './live-sign.js';
import { ItemList } from './merchant-preview.js';

type Found = { q: string; items: FoundItem[]; merchants: Merchant[] };

/** A search as customers run it over every feed this instance carries (`GET /api/v1/discover/search`). */
export function DiscoverSearch() {
  const [found, setFound] = useState<Found | null>(null);
  const { submit, busy, problem } = useSubmit(async (form) => {
    const q = String(form.get('q') ?? '').trim();
    if (!q) return setFound(null);
    const answer = await api<Omit<Found, 'q'>>(`/api/v1/discover/search?q=${encodeURIComponent(q)}&limit=20`);
    setFound({ q, ...answer });
  });
  return (
    <section class="card" aria-labelledby="search-title">
      <h2 id="search-title">Search as a customer</h2>
      <form class="inline" role="search" aria-label="Search the federation" onSubmit={submit} noValidate>
        <Field label="Words" name="q" type="search" maxLength={200} autoComplete="off" hint="What a customer would type, e.g. latte." />
        <button type="submit" disabled={busy}>
          Search
        </button>
      </form>
      <Problem problem={problem} />
      {found && (
        <div role="status" aria-label="Search results">
          {found.merchants.length + found.items.length === 0 && <p>Nothing found for &ldquo;{found.q}&rdquo;.</p>}
          {found.merchants.length > 0 && (
            <ul class="found">
              {found.merchants.map((merchant) => (
                <li key={merchant.id}>
                  <span class="found-name">
                    <strong>{merchant.name}</strong>
                    <SignLine sign={merchant.sign} />
                  </span>
                </li>
              ))}
            </ul>
          )}
          {found.items.length > 0 && <ItemList items={found.items} withShop />}
        </div>
      )}
    </section>
  );
}
