import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { Field, Problem, useSubmit } from '../form.js';

type LoyaltyCard = {
  id: string;
  stamps: number;
  stamps_for_reward: number;
  rewards_available: number;
  reward: string;
  identifier_last4: string;
};
type IssuedCard = LoyaltyCard & { identifier: string; holder: { address: string | null } };

/**
 * The program's cards, beside it on the loyalty page: staff give a customer a card (bound to the wallet
 * address they show, so the counter finds it from the address; or held by its number alone), its number
 * shown once; and a card looked up by its number shows where it stands.
 */
export function LoyaltyCards({ handle }: { handle: string }) {
  const [issued, setIssued] = useState<IssuedCard | null>(null);
  return (
    <>
      {issued ? <NewLoyaltyCard card={issued} onDone={() => setIssued(null)} /> : <GiveCard handle={handle} onIssued={setIssued} />}
      <LookUpCard />
    </>
  );
}

function GiveCard({ handle, onIssued }: { handle: string; onIssued: (card: IssuedCard) => void }) {
  const { submit, busy, problem } = useSubmit(async (form) => {
    const address = String(form.get('address') ?? '').trim();
    onIssued(
      await api<IssuedCard>('/api/pos/loyalty-cards', {
        method: 'POST',
        body: { org_handle: handle, ...(address ? { holder: { address } } : {}) },
      }),
    );
  });
  return (
    <section class="card" aria-labelledby="give-card">
      <h2 id="give-card">Give a customer a card</h2>
      <form onSubmit={submit} noValidate>
        <Field
          label="The customer's wallet address"
          name="address"
          maxLength={100}
          autoComplete="off"
          spellcheck={false}
          hint="The counter then finds the card from the address they show. Empty: whoever has the card's number holds it."
        />
        <Problem problem={problem} />
        <button type="submit" disabled={busy}>
          Give the card
        </button>
      </form>
    </section>
  );
}

function NewLoyaltyCard({ card, onDone }: { card: IssuedCard; onDone: () => void }) {
  return (
    <section class="card secret" aria-labelledby="new-loyalty-card">
      <h2 id="new-loyalty-card">The card's number</h2>
      <p>
        Give it to the customer now: it is shown only this once, and it is how they show the card at the counter
        {card.holder.address ? ', besides their address' : ''}.
      </p>
      <output class="secret-value" aria-label="Loyalty card number">
        {card.identifier}
      </output>
      <p class="actions">
        <button type="button" class="secondary" onClick={onDone}>
          The customer has it
        </button>
      </p>
    </section>
  );
}

function LookUpCard() {
  const [card, setCard] = useState<LoyaltyCard | null>(null);
  const { submit, busy, problem } = useSubmit(async (form) => {
    setCard(null);
    const identifier = String(form.get('identifier') ?? '').trim();
    setCard(await api<LoyaltyCard>(`/api/pos/loyalty-cards/lookup/${encodeURIComponent(identifier)}`));
  });
  return (
    <section class="card" aria-labelledby="look-up-card">
      <h2 id="look-up-card">Look up a card</h2>
      <form onSubmit={submit} noValidate>
        <Field label="Card number" name="identifier" required maxLength={40} autoComplete="off" spellcheck={false} />
        <Problem problem={problem} />
        <button type="submit" disabled={busy}>
          Look up
        </button>
      </form>
      {card && (
        <p role="status" aria-label="The card">
          {standingOf(card)}
        </p>
      )}
    </section>
  );
}

/** Where a card stands, in a sentence: its stamps toward the reward, and the rewards it can take now. */
function standingOf(card: LoyaltyCard): string {
  const rewards = card.rewards_available;
  const available = rewards > 0 ? `, ${rewards} reward${rewards > 1 ? 's' : ''} available` : '';
  return `Card ending ${card.identifier_last4}: ${card.stamps} of ${card.stamps_for_reward} stamps${available} (${card.reward}).`;
}
