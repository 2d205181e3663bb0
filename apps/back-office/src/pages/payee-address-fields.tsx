import { Field } from '../form.js';

/**
 * Where a contract's release and refund pay, both optional (decisions 0038, 0039): the escrow's and the
 * time-locked refund's forms ask the same, and the service defaults each to the shop's or the buyer's key.
 */
export function PayeeAddressFields({ problems }: { problems: { release_address?: string; refund_address?: string } }) {
  return (
    <details>
      <summary>Where the money goes (optional)</summary>
      <Field
        label="Release pays"
        name="release_address"
        autoComplete="off"
        spellcheck={false}
        problem={problems.release_address}
        hint="An address of your wallet. Empty: the address of your wallet's identity key."
      />
      <Field
        label="Refund pays"
        name="refund_address"
        autoComplete="off"
        spellcheck={false}
        problem={problems.refund_address}
        hint="An address of the buyer's wallet. Empty: the address of the buyer's key."
      />
    </details>
  );
}
