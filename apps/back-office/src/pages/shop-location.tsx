import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { Field, Problem, Refusal, useSubmit } from '../form.js';

type Place = { handle: string; category: string | null; location: { latitude: number; longitude: number } | null };

/** A coordinate as typed ("37.7765", "-122,4172"), within its bounds, or the reason it is not one. */
function coordinate(text: string, label: string, bound: number): number {
  const value = Number(text.replace(',', '.'));
  if (!/^\s*-?\d{1,3}([.,]\d+)?\s*$/.test(text) || Math.abs(value) > bound)
    throw new Refusal(`${label} is a number from -${bound} to ${bound}, such as ${bound === 90 ? '37.7765' : '-122.4172'}.`);
  return value;
}

/** Where customers find the shop: its category and its place on the map, which its catalog feed and discovery show. */
export function ShopLocation({ org, onSaved }: { org: Place; onSaved: () => void }) {
  const [saved, setSaved] = useState(false);
  const [here, setHere] = useState<{ latitude: string; longitude: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const {
    submit,
    busy,
    problem: refused,
  } = useSubmit(async (form) => {
    setSaved(false);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const category = text('category');
    const body = {
      ...(category ? { category } : {}),
      ...(text('latitude') || text('longitude')
        ? { latitude: coordinate(text('latitude'), 'Latitude', 90), longitude: coordinate(text('longitude'), 'Longitude', 180) }
        : {}),
    };
    await api(`/api/v1/organizations/${encodeURIComponent(org.handle)}`, { method: 'PATCH', body });
    setSaved(true);
    onSaved();
  });
  const locate = () => {
    setProblem(null);
    navigator.geolocation?.getCurrentPosition(
      ({ coords }) => setHere({ latitude: coords.latitude.toFixed(5), longitude: coords.longitude.toFixed(5) }),
      () => setProblem('This device did not give its location: type it, as a map app shows it.'),
    );
  };
  const value = (name: 'latitude' | 'longitude') => here?.[name] ?? (org.location ? String(org.location[name]) : '');
  return (
    <form onSubmit={submit} noValidate aria-label="Where customers find you">
      <h3>Where customers find you</h3>
      <p class="hint">Your catalog feed shows these: customers nearby find your shop on the map, and by its category.</p>
      <Field
        label="Category"
        name="category"
        defaultValue={org.category ?? ''}
        maxLength={60}
        autoComplete="off"
        hint="e.g. Cafe, Bakery."
      />
      <div class="range">
        <Field
          label="Latitude"
          name="latitude"
          key={`lat-${value('latitude')}`}
          defaultValue={value('latitude')}
          inputMode="decimal"
          autoComplete="off"
        />
        <Field
          label="Longitude"
          name="longitude"
          key={`lon-${value('longitude')}`}
          defaultValue={value('longitude')}
          inputMode="decimal"
          autoComplete="off"
        />
      </div>
      {'geolocation' in navigator && (
        <p>
          <button type="button" class="link" onClick={locate}>
            Use this device&rsquo;s location
          </button>
        </p>
      )}
      <Problem problem={refused ?? problem} />
      <p class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save the place'}
        </button>
        {saved && <span role="status">Saved. Publish your catalog again for other instances to see it.</span>}
      </p>
    </form>
  );
}
