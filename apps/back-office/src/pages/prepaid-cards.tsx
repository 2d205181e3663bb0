import { useEffect, useState } from 'preact/hooks';
import { api, type Page } from '../api.js';
import { describe, Field, Problem, useSubmit } from '../form.js';
import { formatDateTime, formatMoney, minorUnits } from '../format.js';

type Activity = {
  sequence: number;
  kind: 'issue' | 'redeem' | 'restore' | 'transfer';
  amount_minor: number;
  balance_after_minor: number;
  order_number: string | null;
  occurred_at: string;
};
type Card = {
  id: string;
  currency: string;
  status: 'pending' | 'active' | 'empty' | 'void';
  balance_minor: number;
  initial_minor: number;
  identifier_last4: string;
  identifier: string | null;
  order_number: string;
  created_at: string;
  activities: Activity[];
};
type Issued = { card: Card; order: { order_number: string; total_minor: number; currency: string } };

const STATUS: Record<Card['status'], string> = {
  pending: 'waiting for its payment',
  active: 'active',
  empty: 'used up',
  void: 'void: never paid',
};
const KIND: Record<Activity['kind'], string> = { issue: 'Sold', redeem: 'Spent', restore: 'Given back', transfer: 'New number' };

/**
 * `/o/:handle/prepaid-cards`: gift cards. Staff issue one for an amount: its number is shown once, to print
 * or write on the card, and it is active once its order is paid (at the counter, or by the customer from
 * the order's page). The list shows each card's status, balance and history; spending it is at the counter.
 */
export function PrepaidCardsPage({ handle }: { handle: string }) {
  const [cards, setCards] = useState<Card[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [issued, setIssued] = useState<Issued | null>(null);
  const load = () =>
    api<Page<Card>>(`/api/v1/orgs/${handle}/prepaid-cards?limit=100`).then(
      (page) => setCards(page.data),
      (error) => setProblem(describe(error)),
    );
  useEffect(() => void load(), [handle]);
  return (
    <>
      <h1>Prepaid cards</h1>
      <p>Gift cards: sold for an amount, spent at your counter until nothing is left.</p>
      {issued ? (
        <NewCard issued={issued} onDone={() => setIssued(null)} />
      ) : (
        <IssueCard handle={handle} onIssued={(card) => (setIssued(card), load())} />
      )}
      <section aria-labelledby="cards">
        <h2 id="cards">Your cards</h2>
        <Problem problem={problem} />
        {cards.length === 0 && <p>No cards yet.</p>}
        <ul class="entries">
          {cards.map((card) => (
            <li class="card" key={card.id}>
              <h3>
                Card ending {card.identifier_last4} <span class="tag">{STATUS[card.status]}</span>
              </h3>
              <p>
                {formatMoney(card.balance_minor, card.currency)} left of {formatMoney(card.initial_minor, card.currency)} · issued{' '}
                {formatDateTime(card.created_at)}
              </p>
              {card.activities.length > 0 && (
                <details>
                  <summary>History</summary>
                  <table class="lines">
                    <caption class="visually-hidden">History of the card ending {card.identifier_last4}</caption>
                    <thead>
                      <tr>
                        <th scope="col">What</th>
                        <th scope="col">Amount</th>
                        <th scope="col">Balance</th>
                      </tr>
                    </thead>
                    <tbody>
                      {card.activities.map((activity) => (
                        <tr key={activity.sequence}>
                          <td>
                            {KIND[activity.kind]}
                            {activity.order_number && `, order ${activity.order_number}`}
                            <br />
                            <small>{formatDateTime(activity.occurred_at)}</small>
                          </td>
                          <td>{formatMoney(activity.amount_minor, card.currency)}</td>
                          <td>{formatMoney(activity.balance_after_minor, card.currency)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </details>
              )}
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

function IssueCard({ handle, onIssued }: { handle: string; onIssued: (issued: Issued) => void }) {
  const { submit, busy, problem } = useSubmit(async (form) => {
    const currency = String(form.get('currency') ?? '')
      .trim()
      .toUpperCase();
    const issued = await api<Issued>('/api/pos/prepaid-cards', {
      method: 'POST',
      body: { org_handle: handle, amount_minor: minorUnits(String(form.get('amount') ?? '')), ...(currency ? { currency } : {}) },
    });
    onIssued(issued);
  });
  return (
    <section class="card" aria-labelledby="issue-card">
      <h2 id="issue-card">Sell a gift card</h2>
      <form onSubmit={submit} noValidate>
        <Field label="Value" name="amount" required inputMode="decimal" placeholder="25.00" autoComplete="off" />
        <Field label="Currency" name="currency" maxLength={3} autoComplete="off" hint="Empty: your shop's currency." />
        <Problem problem={problem} />
        <button type="submit" disabled={busy}>
          Issue the card
        </button>
      </form>
    </section>
  );
}

/** The new card's number, shown once, and where its payment is taken. */
function NewCard({ issued, onDone }: { issued: Issued; onDone: () => void }) {
  const { card, order } = issued;
  return (
    <section class="card secret" aria-labelledby="new-card">
      <h2 id="new-card">The card's number</h2>
      <p>Write or print it on the card now: it is shown only this once, and whoever has it can spend the card.</p>
      <output class="secret-value" aria-label="Card number">
        {card.identifier}
      </output>
      <p>
        It is worth {formatMoney(card.initial_minor, card.currency)} once its order is paid: take{' '}
        {formatMoney(order.total_minor, order.currency)} at the counter, or have the customer pay it on{' '}
        <a href={`/pay/${order.order_number}`}>the order's page</a> (order {order.order_number}).
      </p>
      <p class="actions">
        <button type="button" class="secondary" onClick={onDone}>
          I have written it down
        </button>
      </p>
    </section>
  );
}
