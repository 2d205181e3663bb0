import { useEffect, useState } from 'preact/hooks';
import { api, type Page } from './api.js';

type Jurisdiction = { code: string; name: string };

/** Where the shop sells, for sales tax: books' table of jurisdictions, or none. */
export function JurisdictionSelect({ label, value }: { label: string; value?: string | null }) {
  const [jurisdictions, setJurisdictions] = useState<Jurisdiction[]>([]);
  useEffect(() => {
    api<Page<Jurisdiction>>('/api/v1/tax/jurisdictions', { key: null }).then(
      (page) => setJurisdictions(page.data),
      () => setJurisdictions([]),
    );
  }, []);
  return (
    <label class="field">
      <span>{label}</span>
      <select name="jurisdiction" key={jurisdictions.length}>
        <option value="">No sales tax</option>
        {jurisdictions.map((j) => (
          <option value={j.code} key={j.code} selected={j.code === value}>
            {j.code}: {j.name}
          </option>
        ))}
      </select>
    </label>
  );
}
