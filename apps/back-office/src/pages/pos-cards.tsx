import { useEffect, useState } from 'preact/hooks';
import { api, type Page } from '../api.js';
import { describe, Field, Problem, useSubmit } from '../form.js';
import { formatDateTime, formatMoney } from '../format.js';

type GiftCard = { id: string; currency: string; status: string; balance_minor: number; identifier_last4: string };
type LoyaltyCard = { id: string; stamps: number; stamps_for_reward: number; rewards_available: number; identifier_last4: string };
type PosCard = {
  id: string;
  address: string;
  label: string;
  created_at: string;
  prepaid_cards: GiftCard[];
  loyalty_cards: LoyaltyCard[];
};

/**
 * `/o/:handle/cards-and-wallets`: the customers' cards at the counter. A POS card ties a customer's own
 * wallet address to the shop, so that scanning it at the counter shows the gift and loyalty cards it holds;
 * staff make one for an address (with what they call the customer) and see each with what it holds.
 */
export function PosCardsPage({ handle }: { handle: string }) {
  const [cards, setCards] = useState<PosCard[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const load = () =>
    api<Page<PosCard>>(`/api/pos/shops/${handle}/cards?limit=100`).then(
      (page) => setCards(page.data),
      (error) => setProblem(describe(error)),
    );
  useEffect(() => void load(), [handle]);
  const {
    submit,
    busy,
    problem: refused,
  } = useSubmit(async (form) => {
    setSaid(null);
    const address = String(form.get('address') ?? '').trim();
    const label = String(form.get('label') ?? '').trim();
    const card = await api<PosCard & { created: boolean }>('/api/pos/cards', {
      method: 'POST',
      body: { org_handle: handle, holder: { address }, ...(label ? { label } : {}) },
    });
    setSaid(
      card.created ? 'The card is made: scan the address at the counter.' : 'That address already has a card here: it is the one below.',
    );
    (document.getElementById('new-pos-card') as HTMLFormElement | null)?.reset();
    await load();
  });
  return (
    <>
      <h1>Cards and wallets</h1>
      <p>
        A customer&rsquo;s card is their own wallet address: scanned at the counter, it shows the gift cards and the loyalty card it holds
        here.
      </p>
      <section class="card" aria-labelledby="new-pos-card-title">
        <h2 id="new-pos-card-title">Make a card for a customer</h2>
        <form id="new-pos-card" onSubmit={submit} noValidate>
          <Field label="The customer's wallet address" name="address" required maxLength={100} autoComplete="off" spellcheck={false} />
          <Field
            label="What you call them"
            name="label"
            maxLength={120}
            autoComplete="off"
            placeholder="Sam, oat flat white"
            hint="Seen by your staff only."
          />
          <Problem problem={refused} />
          <p class="actions">
            <button type="submit" disabled={busy}>
              Make the card
            </button>
            {said && <span role="status">{said}</span>}
          </p>
        </form>
      </section>
      <section aria-labelledby="pos-cards">
        <h2 id="pos-cards">Your customers&rsquo; cards</h2>
        <Problem problem={problem} />
        {cards.length === 0 && <p>No cards yet.</p>}
        <ul class="entries">
          {cards.map((card) => (
            <li class="card" key={card.id}>
              <h3>{card.label || 'A customer'}</h3>
              <p class="txid">
                <code>{card.address}</code>
              </p>
              <p>
                Since {formatDateTime(card.created_at)} · {holdings(card)}
              </p>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

/** What the card's address holds here, in a few words. */
function holdings(card: PosCard): string {
  const gifts = card.prepaid_cards.map(
    (gift) => `gift card ····${gift.identifier_last4}: ${formatMoney(gift.balance_minor, gift.currency)} (${gift.status})`,
  );
  const loyalty = card.loyalty_cards.map(
    (stamps) => `loyalty card ····${stamps.identifier_last4}: ${stamps.stamps} of ${stamps.stamps_for_reward} stamps`,
  );
  const held = [...gifts, ...loyalty];
  return held.length ? held.join('; ') : 'no gift or loyalty card yet';
}
