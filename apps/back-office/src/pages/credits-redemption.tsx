import { useState } from 'preact/hooks';
import { api } from '../api.js';
import {
  dueMinorOf,
  type Answer,
  orderNumberOf,
  unitsJson,
  type PosOrder,
  type RedemptionAddress,
  type TokenRedemption,
  type ValuedCredits,
} from '../credits.js';
import { addressRefusal, ORDER_NUMBER_WORDS, orderProblem, orderReadRefusal, redemptionRefusal } from '../credits-refusals.js';
import { Field, Problem } from '../form.js';
import { formatMoney } from '../format.js';
import { amountText } from '../tokens.js';
import { CreditsRedemptionAddress } from './credits-redemption-address.js';

type Opened = { order: PosOrder; address: RedemptionAddress };

/**
 * "Redeem credits against an order": staff type the order's number; the page reads the order (open, the shop's,
 * in the credits' currency: what it still owes) and opens its redemption address (`POST .../redemption-addresses`,
 * the merchant's own, held for this order alone); the customer's wallet sends the credits there; staff paste the
 * transfer's txid and redeem it (`POST .../redemptions`): their face value pays the order, and the page says
 * what it paid and what the order still owes. Each refusal is said in words.
 */
export function CreditsRedemptionPanel({ handle, token }: { handle: string; token: ValuedCredits }) {
  const [opened, setOpened] = useState<Opened | null>(null);
  const [spend, setSpend] = useState<string | null>(null);
  const [redemption, setRedemption] = useState<TokenRedemption | null>(null);
  const [numberProblem, setNumberProblem] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `redeem-${token.id}`;
  const tokenPath = `/api/v1/orgs/${encodeURIComponent(handle)}/tokens/${encodeURIComponent(token.token_id)}`;

  /** One step's form at a time: its problem cleared, busy while it runs. */
  const run = (action: (form: FormData) => Promise<void>) => async (event: Event) => {
    event.preventDefault();
    setProblem(null);
    setNumberProblem(null);
    setBusy(true);
    try {
      await action(new FormData(event.currentTarget as HTMLFormElement));
    } finally {
      setBusy(false);
    }
  };

  const open = run(async (form) => {
    const number = orderNumberOf(String(form.get(`${id}-order`) ?? ''));
    if (!number) return setNumberProblem(ORDER_NUMBER_WORDS);
    let order: PosOrder;
    try {
      const answer = await api<{ order?: PosOrder } & PosOrder>(`/api/pos/orders/${number}`, { cache: 'no-store' });
      order = answer.order ?? answer;
    } catch (error) {
      return setNumberProblem(orderReadRefusal(error, number));
    }
    const refused = orderProblem(order, handle, token);
    if (refused) return setNumberProblem(refused);
    try {
      const answer = await api<Answer<'redemption_address', RedemptionAddress>>(`${tokenPath}/redemption-addresses`, {
        method: 'POST',
        body: { order_number: number },
      });
      setSpend('');
      setOpened({ order, address: answer.redemption_address ?? answer });
    } catch (error) {
      setProblem(addressRefusal(error));
    }
  });

  const redeem = run(async (form) => {
    if (!opened || spend === null) return;
    const txid = String(form.get(`${id}-txid`) ?? '')
      .trim()
      .toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(txid))
      return setProblem('A transaction id is 64 letters (a to f) and digits: paste it whole, as the customer’s wallet printed it.');
    const body = { order_number: opened.order.order_number, txid, ...(spend ? { amount: unitsJson(spend) } : {}) };
    try {
      const answer = await api<Answer<'redemption', TokenRedemption>>(`${tokenPath}/redemptions`, { method: 'POST', body });
      const redeemed = answer.redemption ?? answer;
      setRedemption(redeemed);
      // What the order owes now: step 1 and the most the customer may still send say it.
      if (redeemed.order) setOpened({ ...opened, order: redeemed.order });
    } catch (error) {
      setProblem(redemptionRefusal(error, token, opened.order, opened.address.address));
    }
  });

  const reset = () => (setOpened(null), setSpend(null), setRedemption(null), setProblem(null), setNumberProblem(null));

  return (
    <section class="credits-panel" aria-labelledby={id}>
      <h4 id={id}>Redeem credits against an order</h4>
      <p class="muted">
        The customer sends their {token.symbol} from their wallet to an address your wallet holds for the order, and their face value pays
        it.
      </p>
      <ol class="steps">
        <li>
          <h5>Which order</h5>
          {opened ? (
            <p>
              Order <strong>{opened.order.order_number}</strong> still owes {formatMoney(dueMinorOf(opened.order), opened.order.currency)}.
            </p>
          ) : (
            <form onSubmit={open} noValidate>
              <Field
                label="Order number"
                name={`${id}-order`}
                autoComplete="off"
                spellcheck={false}
                autoCapitalize="characters"
                maxLength={12}
                placeholder="7Q2M9K4X1C"
                hint="The ten letters and digits on the counter's screen or the receipt."
                problem={numberProblem}
                onInput={() => setNumberProblem(null)}
              />
              <button type="submit" disabled={busy}>
                Get the address for this order
              </button>
            </form>
          )}
        </li>
        {opened && (
          <li>
            <h5>The customer sends the credits</h5>
            <CreditsRedemptionAddress token={token} order={opened.order} address={opened.address} onAmount={setSpend} />
          </li>
        )}
        {opened && (
          <li>
            <h5>Redeem the transfer</h5>
            {!redemption && (
              <form onSubmit={redeem} noValidate>
                <Field
                  label="Transaction id of the transfer"
                  name={`${id}-txid`}
                  autoComplete="off"
                  spellcheck={false}
                  maxLength={64}
                  hint="What the customer's wallet printed when it sent the credits: 64 letters and digits."
                />
                <button type="submit" disabled={busy || spend === null}>
                  {busy ? 'Checking the transfer…' : 'Redeem the credits'}
                </button>
              </form>
            )}
          </li>
        )}
      </ol>
      <Problem problem={problem} />
      <p class={`status${redemption ? ' done' : ''}`} role="status" aria-live="polite">
        {redemption ? redeemedText(redemption, token) : ''}
      </p>
      {redemption?.order?.status === 'open' && (
        <p>
          <a href={`/pay/${encodeURIComponent(redemption.order_number)}`}>Order {redemption.order_number}'s payment page</a>, for the rest.
        </p>
      )}
      {opened && (
        <p>
          <button type="button" class="secondary" onClick={reset}>
            {redemption ? 'Redeem against another order' : 'Choose another order'}
          </button>
        </p>
      )}
    </section>
  );
}

/** What the redeemed credits paid, and whether the order is now paid or what it still owes. */
function redeemedText(redemption: TokenRedemption, token: ValuedCredits): string {
  const spent = `${amountText(redemption.amount, token.decimals, token.symbol)} paid ${formatMoney(redemption.value_minor, redemption.currency)}`;
  const order = redemption.order;
  const number = redemption.order_number;
  if (!order) return `${spent} on order ${number}.`;
  if (order.status === 'paid' || order.status === 'confirmed') return `${spent}: order ${number} is paid.`;
  return `${spent} on order ${number}. It still owes ${formatMoney(dueMinorOf(order), order.currency)}: take the rest in money.`;
}
