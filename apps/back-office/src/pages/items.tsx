import { useEffect, useState } from 'preact/hooks';
import { api, type Page } from '../api.js';
import { describe, Problem, Refusal, useSubmit } from '../form.js';
import { formatMoney, percentOfRate } from '../format.js';
import { AddItem } from './item-form.js';
import { MenuSections } from './menu-sections.js';

type Item = {
  id: string;
  name: string;
  price_cents: number;
  currency: string;
  category: string | null;
  tax_treatment: 'standard' | 'reduced' | 'exempt';
  tax_rate: string | null;
  price_type: 'fixed' | 'minimum' | 'top_up';
  inventory: number | null;
  modifiers: { id: string; name: string; price_cents: number; group: string | null }[];
};
type Draft = { name: string; price_cents: number; currency: string; category: string; notes: string[] };
type Drafts = { drafts: Draft[]; skipped: string[]; source: string };

/**
 * `/o/:handle/pos`: what the shop sells at the counter: its items, one added by hand (with its choices, tax,
 * price type and stock: item-form.tsx), or many imported from a photo of the printed menu, a CSV or pasted
 * text (pos reads them into drafts, saving nothing), each draft reviewed with what was guessed before it is
 * saved; and the menu's sections in order (menu-sections.tsx).
 */
export function ItemsPage({ handle }: { handle: string }) {
  const [items, setItems] = useState<Item[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const load = () =>
    api<Page<Item>>(`/api/v1/orgs/${handle}/items?limit=100`).then(
      (page) => setItems(page.data),
      (error) => setProblem(describe(error)),
    );
  useEffect(() => void load(), [handle]);
  return (
    <>
      <h1>Point of sale: your items</h1>
      <p class="actions">
        <a class="button" href="/pos">
          Sell at the counter
        </a>
      </p>
      <Import handle={handle} onSaved={load} />
      <AddItem handle={handle} onSaved={load} />
      <section class="card" aria-labelledby="item-list">
        <h2 id="item-list">Your items</h2>
        <Problem problem={problem} />
        {items.length === 0 ? (
          <p>No items yet: import your menu or add one.</p>
        ) : (
          <table class="lines">
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Price</th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.id}>
                  <td>
                    {item.name}
                    {item.category && <span class="muted"> · {item.category}</span>}
                    {detailsOf(item) && (
                      <>
                        <br />
                        <small>{detailsOf(item)}</small>
                      </>
                    )}
                  </td>
                  <td>
                    {formatMoney(item.price_cents, item.currency)}
                    {item.price_type !== 'fixed' && <small> {item.price_type === 'minimum' ? 'at least' : 'suggested'}</small>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <MenuSections handle={handle} items={items} />
    </>
  );
}

/** An item's choices, tax and stock in a line, where any is other than plain. */
function detailsOf(item: Item): string {
  const choices = item.modifiers.map(
    (choice) =>
      `${choice.group ? `${choice.group}: ` : ''}${choice.name}${choice.price_cents ? ` +${formatMoney(choice.price_cents, item.currency)}` : ''}`,
  );
  const tax =
    item.tax_treatment === 'exempt' ? ['no tax'] : item.tax_treatment === 'reduced' ? [`tax ${percentOfRate(item.tax_rate ?? '0')}`] : [];
  const stock = item.inventory === null ? [] : [`${item.inventory} in stock`];
  return [...choices, ...tax, ...stock].join(' · ');
}

/** Import: a file (a menu photo, PNG or JPEG, or a CSV) or pasted text, read into drafts to review, then saved. */
function Import({ handle, onSaved }: { handle: string; onSaved: () => void }) {
  const [drafts, setDrafts] = useState<(Draft & { keep: boolean })[] | null>(null);
  const [skipped, setSkipped] = useState<string[]>([]);
  const [saved, setSaved] = useState<string | null>(null);
  const read = useSubmit(async (form) => {
    setSaved(null);
    const file = form.get('file') as File | null;
    const text = String(form.get('text') ?? '').trim();
    const body = file && file.size > 0 ? await fileInput(file) : text ? { text } : null;
    if (!body) throw new Refusal('Choose a photo or a CSV of your menu, or paste its text.');
    const answer = await api<Drafts>('/api/v1/items/analyze', { method: 'POST', body });
    setDrafts(answer.drafts.map((d) => ({ ...d, keep: true })));
    setSkipped(answer.skipped);
  });
  const save = useSubmit(async () => {
    const kept = (drafts ?? []).filter((d) => d.keep);
    for (const d of kept)
      await api(`/api/v1/orgs/${handle}/items`, {
        method: 'POST',
        body: { name: d.name, price_cents: d.price_cents, currency: d.currency, ...(d.category ? { category: d.category } : {}) },
      });
    setDrafts(null);
    setSaved(`${kept.length} item${kept.length === 1 ? '' : 's'} saved.`);
    onSaved();
  });
  const change = (index: number, patch: Partial<Draft & { keep: boolean }>) =>
    setDrafts((all) => all && all.map((d, i) => (i === index ? { ...d, ...patch } : d)));
  return (
    <section class="card" aria-labelledby="import-title">
      <h2 id="import-title">Import your menu</h2>
      <form onSubmit={read.submit} noValidate aria-label="Read a menu">
        <label class="field">
          <span>A photo of the printed menu, or a CSV</span>
          <input type="file" name="file" accept="image/png,image/jpeg,.csv,text/csv" />
        </label>
        <label class="field">
          <span>Or paste it</span>
          <textarea name="text" rows={4} placeholder={'Flat white 4.50\nCroissant 3.25'} />
        </label>
        <Problem problem={read.problem} />
        <button type="submit" disabled={read.busy}>
          {read.busy ? 'Reading… (a photo takes a few seconds)' : 'Read it'}
        </button>
      </form>
      {saved && <p role="status">{saved}</p>}
      {drafts && (
        <form onSubmit={save.submit} aria-label="Review the items read">
          <h3>Check what was read</h3>
          {drafts.length === 0 && <p>No items were found: try a sharper photo, or paste the text.</p>}
          <ul class="drafts">
            {drafts.map((d, i) => (
              <li key={i}>
                <label class="check">
                  <input type="checkbox" checked={d.keep} onChange={(e) => change(i, { keep: (e.target as HTMLInputElement).checked })} />
                  <span>
                    <strong>{d.name}</strong>, {formatMoney(d.price_cents, d.currency)}
                    {d.category && <span class="muted"> · {d.category}</span>}
                  </span>
                </label>
                {d.notes.length > 0 && (
                  <ul class="notes">
                    {d.notes.map((note) => (
                      <li key={note}>{note}</li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
          {skipped.length > 0 && <p class="muted">Not read as items: {skipped.join('; ')}.</p>}
          <Problem problem={save.problem} />
          <button type="submit" disabled={save.busy || !drafts.some((d) => d.keep)}>
            Save {drafts.filter((d) => d.keep).length} items
          </button>
        </form>
      )}
    </section>
  );
}

/** The file as analyze takes it: an image as a data URL, a CSV as its text. */
async function fileInput(file: File): Promise<{ image: string } | { csv: string }> {
  if (file.type.startsWith('image/')) {
    const dataUrl = await new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.onerror = () => reject(new Refusal('The file could not be read.'));
      reader.readAsDataURL(file);
    });
    return { image: dataUrl };
  }
  return { csv: await file.text() };
}
