import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { Field, Problem, Refusal, useSubmit } from '../form.js';
import { minorUnits, rateOfPercent } from '../format.js';

type Choice = { key: number; name: string; price: string; group: string };
type TaxTreatment = 'standard' | 'reduced' | 'exempt';

let nextKey = 0;
const blankChoice = (): Choice => ({ key: nextKey++, name: '', price: '', group: '' });

/**
 * A new item as pos takes it: its name, price and category, how it is taxed (the jurisdiction's rate, a
 * reduced rate, or none), how its price is paid (fixed, at least, or the payer's choice), its stock when
 * counted, and the choices offered on it (a size, oat milk: each with what it adds, grouped when only one
 * of a group may be taken). pos checks every rule and names the field it refuses.
 */
export function AddItem({ handle, onSaved }: { handle: string; onSaved: () => void }) {
  const [tax, setTax] = useState<TaxTreatment>('standard');
  const [choices, setChoices] = useState<Choice[]>([]);
  const change = (key: number, patch: Partial<Choice>) => setChoices((all) => all.map((c) => (c.key === key ? { ...c, ...patch } : c)));
  const { submit, busy, problem } = useSubmit(async (form) => {
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const stock = text('inventory');
    if (stock && !/^\d{1,10}$/.test(stock)) throw new Refusal('Stock is a whole number of units, or empty when you do not count it.');
    await api(`/api/v1/orgs/${handle}/items`, {
      method: 'POST',
      body: {
        name: text('name'),
        price_cents: minorUnits(text('price')),
        ...(text('description') ? { description: text('description') } : {}),
        ...(text('category') ? { category: text('category') } : {}),
        tax_treatment: tax,
        ...(tax === 'reduced' ? { tax_rate: rateOfPercent(text('tax_rate')) } : {}),
        price_type: text('price_type'),
        ...(stock ? { inventory: Number(stock) } : {}),
        modifiers: choices.map((choice) => ({
          name: choice.name.trim(),
          price_cents: choice.price.trim() ? minorUnits(choice.price) : 0,
          ...(choice.group.trim() ? { group: choice.group.trim() } : {}),
        })),
      },
    });
    (document.getElementById('add-item') as HTMLFormElement | null)?.reset();
    setTax('standard');
    setChoices([]);
    onSaved();
  });
  return (
    <section class="card" aria-labelledby="add-item-title">
      <h2 id="add-item-title">Add an item</h2>
      <form id="add-item" onSubmit={submit} noValidate>
        <Field label="Name" name="name" required maxLength={200} autoComplete="off" />
        <Field label="Price" name="price" required inputMode="decimal" placeholder="4.50" autoComplete="off" />
        <Field label="Description" name="description" maxLength={1000} autoComplete="off" hint="Optional." />
        <Field label="Category" name="category" maxLength={60} autoComplete="off" hint="Optional, e.g. Coffee." />
        <label class="field">
          <span>Tax</span>
          <select
            name="tax_treatment"
            value={tax}
            onChange={(event) => setTax((event.currentTarget as HTMLSelectElement).value as TaxTreatment)}
          >
            <option value="standard">Your jurisdiction's rate</option>
            <option value="reduced">A reduced rate</option>
            <option value="exempt">No tax</option>
          </select>
        </label>
        {tax === 'reduced' && (
          <Field label="Reduced rate (%)" name="tax_rate" required inputMode="decimal" placeholder="5" autoComplete="off" />
        )}
        <label class="field">
          <span>Price type</span>
          <select name="price_type" defaultValue="fixed">
            <option value="fixed">Fixed</option>
            <option value="minimum">At least the price</option>
            <option value="top_up">The payer chooses (the price is suggested)</option>
          </select>
        </label>
        <Field
          label="Stock"
          name="inventory"
          inputMode="numeric"
          autoComplete="off"
          hint="Units in stock; empty when you do not count them."
        />
        <fieldset class="choices">
          <legend>Choices on the item</legend>
          {choices.length === 0 && <p class="muted">None: add one for a size or an extra.</p>}
          {choices.map((choice, index) => (
            <div class="choice" key={choice.key} role="group" aria-label={`Choice ${index + 1}`}>
              <label class="field">
                <span>Choice</span>
                <input
                  value={choice.name}
                  maxLength={100}
                  placeholder="Oat milk"
                  autoComplete="off"
                  onInput={(event) => change(choice.key, { name: (event.currentTarget as HTMLInputElement).value })}
                />
              </label>
              <label class="field">
                <span>Adds</span>
                <input
                  value={choice.price}
                  inputMode="decimal"
                  placeholder="0.50"
                  autoComplete="off"
                  onInput={(event) => change(choice.key, { price: (event.currentTarget as HTMLInputElement).value })}
                />
              </label>
              <label class="field">
                <span>Group</span>
                <input
                  value={choice.group}
                  maxLength={60}
                  placeholder="Size"
                  autoComplete="off"
                  onInput={(event) => change(choice.key, { group: (event.currentTarget as HTMLInputElement).value })}
                />
              </label>
              <button
                type="button"
                class="secondary"
                aria-label={`Remove choice ${index + 1}`}
                onClick={() => setChoices((all) => all.filter((c) => c.key !== choice.key))}
              >
                Remove
              </button>
            </div>
          ))}
          <p class="hint">A group&rsquo;s choices exclude each other (one size); choices without a group can be combined.</p>
          <button type="button" class="secondary" onClick={() => setChoices((all) => [...all, blankChoice()])}>
            Add a choice
          </button>
        </fieldset>
        <Problem problem={problem} />
        <button type="submit" disabled={busy}>
          Add the item
        </button>
      </form>
    </section>
  );
}
