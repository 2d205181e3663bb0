import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { CopyButton } from '../copy-button.js';
import { ADDRESS, type CreditsSale, type PosOrder, type ValuedCredits } from '../credits.js';
import { describe, Field, Problem } from '../form.js';
import { formatMoney } from '../format.js';
import { amountText, shellWord } from '../tokens.js';

/** How often the page reads the order while it waits for the customer's payment. */
const POLL_MS = 5_000;

type Props = { sale: CreditsSale; token: ValuedCredits; onDone: () => void };

/**
 * Credits sold, step by step: the order to pay (its QR for the customer's wallet, the customer's page), read
 * again until it is paid; then the `pnpm wallet send-token` command that sends the units from the merchant's
 * wallet to the customer's address, both typed in here and copied whole. The service never sends them: the
 * merchant's wallet holds the credits.
 */
export function CreditsSaleOrder({ sale, token, onDone }: Props) {
  const [order, setOrder] = useState<PosOrder>(sale.order);
  const [problem, setProblem] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [walletFile, setWalletFile] = useState('');
  const [customer, setCustomer] = useState('');
  const number = sale.order.order_number;
  const units = amountText(sale.units, token.decimals, sale.symbol);
  const price = formatMoney(sale.value_minor, sale.currency);
  const paid = order.status === 'paid' || order.status === 'confirmed';
  const ended = order.status === 'expired' || order.status === 'cancelled';
  const id = `${token.id}-sale`;

  const check = () => {
    setChecking(true);
    api<{ order?: PosOrder } & PosOrder>(`/api/pos/orders/${encodeURIComponent(number)}`, { cache: 'no-store' })
      .then(
        (answer) => (setOrder(answer.order ?? answer), setProblem(null)),
        (error) => setProblem(describe(error)),
      )
      .finally(() => setChecking(false));
  };
  // Read again while it waits, as the counter's screen does: it turns paid as the payment arrives.
  useEffect(() => {
    if (order.status !== 'open') return;
    const timer = setInterval(check, POLL_MS);
    return () => clearInterval(timer);
  }, [order.status, number]);

  const addressProblem =
    customer && !ADDRESS.test(customer) ? 'That is not a wallet address: paste the whole address the customer’s wallet shows.' : null;
  const command = sendCommand(sale, walletFile, addressProblem ? '' : customer);
  return (
    <div class="credits-sale">
      <p class={`status${paid ? ' done' : ended ? ' ended' : ''}`} role="status" aria-live="polite">
        {paid
          ? `Order ${number} is paid: ${price} for ${units}. Send the credits from your wallet now.`
          : ended
            ? `Order ${number} is ${order.status} unpaid: nothing is owed, and no credits are to be sent.`
            : `Order ${number}: ${units} for ${price}, without tax. Waiting for the customer to pay.`}
      </p>
      <ol class="steps">
        <li>
          <h5>Take the payment</h5>
          <p>
            The customer scans this with their wallet, or pays on{' '}
            <a href={`/pay/${encodeURIComponent(number)}`}>the order's payment page</a> (order {number}, {price}).
          </p>
          {order.status === 'open' && (
            <figure class="qr">
              <img src={`/api/pos/orders/${encodeURIComponent(number)}/qr?format=svg`} alt={`QR code to pay order ${number}, ${price}`} />
            </figure>
          )}
          {order.status === 'open' && (
            <p class="actions">
              <button type="button" class="secondary" onClick={check} disabled={checking}>
                {checking ? 'Checking…' : 'Check the payment'}
              </button>
            </p>
          )}
          <Problem problem={problem} />
        </li>
        <li>
          <h5>Once it is paid, send the credits</h5>
          <p>On the computer that has your wallet file, run this command: your wallet sends {units} to the customer.</p>
          <Field
            label="Customer's wallet address"
            name={`${id}-customer`}
            autoComplete="off"
            spellcheck={false}
            maxLength={35}
            hint="The address their wallet shows for receiving."
            problem={addressProblem}
            value={customer}
            onInput={(event) => setCustomer((event.currentTarget as HTMLInputElement).value.trim())}
          />
          <Field
            label="Your wallet file"
            name={`${id}-wallet-file`}
            autoComplete="off"
            spellcheck={false}
            placeholder="merchant.json"
            hint="The file pnpm wallet create made. It goes into the command and stays on this page."
            value={walletFile}
            onInput={(event) => setWalletFile((event.currentTarget as HTMLInputElement).value.trim())}
          />
          <p class="command">
            <code>{command}</code>
          </p>
          <p class="actions">
            <CopyButton text={command} label="Copy the command" copied="The command is copied: paste it where your wallet runs." />
          </p>
        </li>
      </ol>
      <p>
        <button type="button" class="secondary" onClick={onDone}>
          {paid || ended ? 'Sell more credits' : 'Close: the order stays open'}
        </button>
      </p>
    </div>
  );
}

/** The sale's next step, the wallet's send-token command, with the wallet file and the customer's address typed in. */
function sendCommand(sale: CreditsSale, walletFile: string, customer: string): string {
  const step = sale.next_steps.find((text) => text.includes(' send-token '));
  const start = step?.indexOf('pnpm wallet ') ?? -1;
  const template =
    step && start >= 0
      ? step.slice(start)
      : `pnpm wallet --file <your wallet file> send-token --token ${sale.token_id} --to <the customer's address> --amount ${sale.units}`;
  return template
    .replace('<your wallet file>', walletFile ? shellWord(walletFile) : '<your wallet file>')
    .replace("<the customer's address>", customer || "<the customer's address>");
}
