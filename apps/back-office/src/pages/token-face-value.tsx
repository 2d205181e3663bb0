import { useState } from 'preact/hooks';
import { currencyDigits, unitValueOfFaceValue } from '../credits.js';
import { Field } from '../form.js';
import { formatMoney } from '../format.js';
import { amountText } from '../tokens.js';
import type { FieldProblems } from '../token-refusals.js';

type Props = { decimals: number; symbol: string; problems: FieldProblems };

/**
 * The mint form's face value of credits: what one whole token is worth ("1.00") in a currency ("USD"), read by
 * the form as `face-value` and `currency` and sent as `unit_value_minor`, the minor units one unit on the chain
 * is worth (credits.ts). The hint says it back as it is typed ("1 BEAN = $1.00"), and with decimals what the
 * smallest amount is worth, so that the merchant sees what a wallet's units will pay.
 */
export function TokenFaceValueFields({ decimals, symbol, problems }: Props) {
  const [faceValue, setFaceValue] = useState('');
  const [currency, setCurrency] = useState('USD');
  const code = currency.trim().toUpperCase();
  const digits = currencyDigits(code);
  return (
    <fieldset class="face-value">
      <legend>Face value of the credits</legend>
      <Field
        label={`What one ${symbol || 'credit'} is worth`}
        name="face-value"
        required
        inputMode="decimal"
        autoComplete="off"
        placeholder={digits ? `1.${'0'.repeat(digits)}` : '1'}
        hint={faceValueHint(faceValue, decimals, code, symbol)}
        problem={problems.face_value}
        value={faceValue}
        onInput={(event) => setFaceValue((event.currentTarget as HTMLInputElement).value)}
      />
      <Field
        label="Currency"
        name="currency"
        required
        maxLength={3}
        autoComplete="off"
        autoCapitalize="characters"
        spellcheck={false}
        hint="Its three-letter code, such as USD or EUR. Credits pay only orders in this currency."
        problem={problems.currency}
        value={currency}
        onInput={(event) => setCurrency((event.currentTarget as HTMLInputElement).value)}
      />
    </fieldset>
  );
}

/** What one credit will be worth, said back as typed, or how to choose the value with the decimals in mind. */
function faceValueHint(typed: string, decimals: number, currency: string, symbol: string): string {
  const name = symbol || 'credit';
  const about = `What a customer pays for one ${name}, and what one takes off an order when it is spent. It cannot be changed once minted.`;
  if (currencyDigits(currency) === null) return about;
  const smallest = amountText(1, decimals, name);
  if (typed.trim()) {
    try {
      const unit = unitValueOfFaceValue(typed, decimals, currency, symbol);
      const whole = formatMoney(BigInt(unit) * 10n ** BigInt(decimals), currency);
      const parts = decimals > 0 ? `, so ${smallest}, the smallest amount, = ${formatMoney(unit, currency)}` : '';
      return `1 ${name} = ${whole}${parts}. ${about}`;
    } catch {
      // What is typed is not a face value yet: the form says why when it is sent.
    }
  }
  if (decimals === 0) return about;
  return (
    `With ${decimals} decimals a wallet can send as little as ${smallest}, which must be worth a whole number of ${formatMoney(1, currency)}: ` +
    `make one ${name} worth a multiple of ${formatMoney(10n ** BigInt(decimals), currency)}. ${about}`
  );
}
