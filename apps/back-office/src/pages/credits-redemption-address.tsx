import { useState } from 'preact/hooks';
import { CopyButton } from '../copy-button.js';
import { creditsValueMinor, dueMinorOf, unitsWorth, type PosOrder, type RedemptionAddress, type ValuedCredits } from '../credits.js';
import { Field, Refusal } from '../form.js';
import { formatDateTime, formatMoney } from '../format.js';
import { amountText, unitsOfAmount } from '../tokens.js';

type Props = {
  token: ValuedCredits;
  order: PosOrder;
  address: RedemptionAddress;
  /** The units the customer spends as typed ('' for whatever they send), or null while what is typed is no amount. */
  onAmount: (units: string | null) => void;
};

/**
 * Where the customer sends the credits they spend on the order: the address the merchant's wallet holds for it
 * (copied whole), how many at most pay what the order still owes, and, for a customer with `pnpm wallet`, the
 * `send-token` command. The credits to spend are optional: typed, the redemption refuses a transfer of fewer.
 */
export function CreditsRedemptionAddress({ token, order, address, onAmount }: Props) {
  const [typed, setTyped] = useState('');
  const most = unitsWorth(token, dueMinorOf(order));
  const mostText = `${amountText(most.toString(), token.decimals, token.symbol)} (${formatMoney(creditsValueMinor(token, most.toString()), token.currency)})`;
  let units = '';
  let problem: string | null = null;
  if (typed.trim()) {
    try {
      units = unitsOfAmount(typed, token.decimals, token.symbol, { what: 'the number of credits', whole: '5' });
      if (BigInt(units) > most) problem = `That is worth more than the order still owes: at most ${mostText}.`;
    } catch (error) {
      problem = error instanceof Refusal ? error.message : String(error);
    }
  }
  const command = `pnpm wallet send-token --token ${token.token_id} --to ${address.address} --amount ${units || '<credits>'}`;
  const id = `${token.id}-spend`;
  return (
    <>
      <p>
        Have the customer send their {token.symbol} to this address, which your wallet holds for order {order.order_number} until{' '}
        {formatDateTime(address.expires_at)}:
      </p>
      <p class="secret-value redemption-address">
        <code>{address.address}</code>
      </p>
      <p class="actions">
        <CopyButton text={address.address} label="Copy the address" copied="The address is copied." />
      </p>
      <Field
        label="Credits the customer spends"
        name={id}
        autoComplete="off"
        inputMode="decimal"
        placeholder={amountText(most.toString(), token.decimals, '').trim()}
        hint={`At most ${mostText}: credits worth more than the order still owes are refused. Empty: whatever they send.`}
        problem={problem}
        value={typed}
        onInput={(event) => {
          const text = (event.currentTarget as HTMLInputElement).value;
          setTyped(text);
          onAmount(spendOf(text, token, most));
        }}
      />
      <p class="command">
        With <code>pnpm wallet</code>, the customer runs <code>{command}</code>
      </p>
      <p class="actions">
        <CopyButton text={command} label="Copy the customer's command" copied="The customer's command is copied." secondary />
      </p>
    </>
  );
}

/** The units typed, '' when empty, null when they are no amount or more than the order takes. */
function spendOf(text: string, token: ValuedCredits, most: bigint): string | null {
  if (!text.trim()) return '';
  try {
    const units = unitsOfAmount(text, token.decimals, token.symbol);
    return BigInt(units) > most ? null : units;
  } catch {
    return null;
  }
}
