import { CopyButton } from '../copy-button.js';
import { formatDateTime } from '../format.js';
import type { Parties } from '../joint-parties.js';
import { jointPath, jointStatusText, type JointTransaction } from '../joint-transactions.js';
import { JointPanel } from './joint-panel.js';

type Props = {
  joint: JointTransaction;
  parties: Parties;
  /** The escrow page, when this is an escrow's funding, release or refund. */
  escrowPage?: string;
  onChange: (joint: JointTransaction) => void;
};

/**
 * One of the shop's jointly signed transactions: what it is for, its status in words, when it was built, its
 * link for the partners (the id is the invitation), and what it spends and pays with who has signed, the
 * command and the paste-back box while it collects signatures (joint-panel.tsx). An escrow's names its parties
 * as the escrow does, and links its page.
 */
export function JointTransactionCard({ joint, parties, escrowPage, onChange }: Props) {
  const headingId = `joint-${joint.id}`;
  const link = `${location.origin}${jointPath(joint.id)}`;
  return (
    <li class="card joint-card">
      <h3 id={headingId} tabIndex={-1}>
        {joint.description || 'Joint transaction'} <span class={`tag ${joint.status}`}>{jointStatusText(joint)}</span>
      </h3>
      <p class="muted">
        Built {formatDateTime(joint.created_at)}
        {escrowPage && (
          <>
            {' '}
            · part of an escrow, on the <a href={escrowPage}>Escrow page</a>
          </>
        )}
      </p>
      {joint.status === 'collecting' && (
        <div class="share-link">
          <p>
            Its link, for your partners to read it and hand in their signatures (no sign-in needed):{' '}
            <a class="address" href={jointPath(joint.id)}>
              {link}
            </a>
          </p>
          <p class="actions">
            <CopyButton text={link} label="Copy the link" copied="The link is copied: send it to your partners." secondary />
          </p>
        </div>
      )}
      <JointPanel joint={joint} parties={parties} level={4} onChange={onChange} />
    </li>
  );
}
