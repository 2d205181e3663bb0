import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { describe, Field, Problem, useSubmit } from '../form.js';
import { decimalOf, minorUnits } from '../format.js';
import { LoyaltyCards } from './loyalty-cards.js';

type Program = {
  stamp_rule: 'visit' | 'amount';
  amount_per_stamp_minor: number;
  stamps_for_reward: number;
  reward: string;
  reward_value_minor: number;
  active: boolean;
  version: number;
};

/**
 * `/o/:handle/loyalty`: the shop's loyalty program, replaced as a whole: a stamp per visit or per amount spent,
 * how many stamps earn the reward, what the reward is and what it takes off an order; paused or running.
 * Once there is a program, its cards: given to a customer, and looked up (loyalty-cards.tsx).
 */
export function LoyaltyPage({ handle }: { handle: string }) {
  const [program, setProgram] = useState<Program | null | undefined>(undefined);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    api<Program>(`/api/v1/orgs/${handle}/loyalty-program`).then(setProgram, (error) =>
      error instanceof ApiError && error.status === 404 ? setProgram(null) : setProblem(describe(error)),
    );
  }, [handle]);
  const {
    submit,
    busy,
    problem: refused,
  } = useSubmit(async (form) => {
    setSaved(false);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const rule = text('stamp_rule') as Program['stamp_rule'];
    const value = text('reward_value');
    setProgram(
      await api<Program>(`/api/v1/orgs/${handle}/loyalty-program`, {
        method: 'PUT',
        body: {
          stamp_rule: rule,
          amount_per_stamp_minor: rule === 'amount' ? minorUnits(text('amount_per_stamp')) : 0,
          stamps_for_reward: Number(text('stamps_for_reward')),
          reward: text('reward'),
          reward_value_minor: value ? minorUnits(value) : 0,
          active: form.get('active') === 'on',
        },
      }),
    );
    setSaved(true);
  });
  if (program === undefined)
    return (
      <>
        <h1>Loyalty</h1>
        <Problem problem={problem} />
      </>
    );
  // Amounts are in the currency of the order stamped or redeemed on.
  const money = (minor: number | undefined) => (minor ? decimalOf(minor) : '');
  return (
    <>
      <h1>Loyalty</h1>
      <section class="card" aria-labelledby="program">
        <h2 id="program">{program ? 'Your program' : 'Start a program'}</h2>
        <p>
          Customers collect stamps on a card with their wallet&rsquo;s address; staff attach it at the counter, and paid orders stamp it.
        </p>
        <form onSubmit={submit} noValidate aria-label="Loyalty program">
          <label class="field">
            <span>A stamp for</span>
            <select name="stamp_rule" defaultValue={program?.stamp_rule ?? 'visit'}>
              <option value="visit">Each paid visit</option>
              <option value="amount">Each amount spent</option>
            </select>
          </label>
          <Field
            label="Amount that earns a stamp"
            name="amount_per_stamp"
            inputMode="decimal"
            defaultValue={money(program?.amount_per_stamp_minor)}
            hint="Only for a stamp per amount spent, e.g. 10.00."
            autoComplete="off"
          />
          <Field
            label="Stamps for the reward"
            name="stamps_for_reward"
            type="number"
            min={1}
            max={100}
            required
            defaultValue={String(program?.stamps_for_reward ?? 8)}
          />
          <Field
            label="The reward"
            name="reward"
            required
            maxLength={200}
            defaultValue={program?.reward ?? ''}
            placeholder="A free coffee"
            autoComplete="off"
          />
          <Field
            label="What the reward takes off the order"
            name="reward_value"
            inputMode="decimal"
            defaultValue={money(program?.reward_value_minor)}
            hint="Before tax, e.g. 5.75; empty: it cannot be redeemed on an order."
            autoComplete="off"
          />
          <label class="check">
            <input type="checkbox" name="active" defaultChecked={program?.active ?? true} />
            <span>Running (paused: no new cards and no stamps; rewards earned can still be redeemed)</span>
          </label>
          <Problem problem={refused ?? problem} />
          <p class="actions">
            <button type="submit" disabled={busy}>
              Save the program
            </button>
            {saved && <span role="status">Saved.</span>}
          </p>
        </form>
      </section>
      {program && <LoyaltyCards handle={handle} />}
    </>
  );
}
