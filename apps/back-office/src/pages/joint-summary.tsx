import { formatDateTime } from '../format.js';
import { payee, signedText, signers, type Parties } from '../joint-parties.js';
import { inputComplete, type JointTransaction } from '../joint-transactions.js';
import { groupedSatoshis, satoshisText } from '../satoshis.js';

/**
 * What a joint transaction spends and pays: each input with who may sign it and who has, each output with whom
 * it pays (named where the page knows the party), the fee, and once on the chain its transaction id.
 */
export function JointSummary({ joint, parties }: { joint: JointTransaction; parties: Parties }) {
  return (
    <div class="joint-summary">
      <p class="joint-part-title">It spends</p>
      <ol class="joint-parts">
        {joint.inputs.map((input, index) => (
          <li key={`${input.txid}:${input.vout}`}>
            <strong>Input {index + 1}</strong>: {satoshisText(input.satoshis)}, to be signed by {signers(parties, input)}.{' '}
            <span class={`signed${inputComplete(input) ? ' yes' : ''}`}>{signedText(parties, input)}.</span>
            <small class="muted coin">
              Coin <code>{`${input.txid}:${input.vout}`}</code>
            </small>
          </li>
        ))}
      </ol>
      <p class="joint-part-title">It pays</p>
      <ul class="joint-parts">
        {joint.outputs.map((output, index) => (
          <li key={index}>
            {satoshisText(output.satoshis)} to <span class="address">{payee(parties, output)}</span>
          </li>
        ))}
        <li class="muted">{groupedSatoshis(joint.fee_satoshis)} satoshis to the miners as the fee</li>
      </ul>
      {joint.txid && (
        <p class="txid">
          {joint.status === 'broadcast' ? 'On the chain' : 'Signed'}
          {joint.broadcast_at ? ` since ${formatDateTime(joint.broadcast_at)}` : ''}: transaction id <code>{joint.txid}</code>
        </p>
      )}
    </div>
  );
}
