import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { capabilityMap, pageOf, standing, type CapabilityMap } from '../capabilities.js';
import { describe } from '../form.js';
import { KeyBackup } from '../key-backup.js';
import type { SignInKey } from '../sign-in-key.js';

type Me = {
  name: string | null;
  email: string | null;
  organizations: { handle: string; name: string; role: 'owner' | 'admin' | 'staff' }[];
};

/** The signed-in merchant's start: the new sign-in key to back up, and each organisation with where to go next. */
export function Dashboard({ backup, onBackedUp }: { backup: SignInKey | null; onBackedUp: () => void }) {
  const [me, setMe] = useState<Me | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    api<Me>('/api/v1/me').then(setMe, (error) => setProblem(describe(error)));
  }, []);
  return (
    <>
      <h1>{me?.name ? `Welcome, ${me.name}` : 'Your shops'}</h1>
      {backup && (
        <section class="card secret" aria-labelledby="backup-title">
          <h2 id="backup-title">Your shop is open. Back up your sign-in key</h2>
          <p>
            This browser keeps the key you sign in with. Download a backup to sign in on another device, or if this browser&rsquo;s data is
            cleared: without it, the shop cannot be reached from here again.
          </p>
          <KeyBackup signInKey={backup} name={me?.organizations[0]?.handle ?? 'shop'} />
          <p>
            <button type="button" class="link" onClick={onBackedUp}>
              I have backed it up
            </button>
          </p>
        </section>
      )}
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      {me?.organizations.length === 0 && <p>You are not a member of any organisation yet.</p>}
      {me?.organizations.map((org) => (
        <Organization key={org.handle} org={org} />
      ))}
    </>
  );
}

/** One organisation: where to sell, its next step, and each capability's page with how far it is. */
function Organization({ org }: { org: Me['organizations'][number] }) {
  const [map, setMap] = useState<CapabilityMap | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    capabilityMap(org.handle).then(setMap, (error) => setProblem(describe(error)));
  }, [org.handle]);
  const next = map?.rungs.flatMap((rung) => rung.capabilities).find((c) => c.id === map.next?.capability);
  return (
    <section class="card" aria-labelledby={`org-${org.handle}`}>
      <h2 id={`org-${org.handle}`}>{org.name}</h2>
      <p class="muted">
        @{org.handle} · {org.role}
      </p>
      <p class="actions">
        <a class="button" href="/pos">
          Open the counter
        </a>
        <a href={`/o/${org.handle}/pos`}>Items</a>
        <a href={`/o/${org.handle}/orders`}>Orders</a>
        <a href={`/o/${org.handle}/ledger`}>Ledger</a>
        <a href={`/o/${org.handle}/reports`}>Reports</a>
        <a href="/settings">Settings</a>
      </p>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      {next && map?.next?.next_step && (
        <p class="next">
          <strong>Next:</strong> <a href={pageOf(next, org.handle)}>{next.title}</a>. {map.next.next_step}
        </p>
      )}
      {map?.rungs.map((rung) => (
        <details key={rung.id} open={rung.step === 1}>
          <summary>
            {rung.step}. {rung.title}
          </summary>
          <ul class="capabilities">
            {rung.capabilities.map((capability) => (
              <li key={capability.id}>
                <a href={pageOf(capability, org.handle)}>{capability.title}</a> <span class="tag">{standing(capability)}</span>
              </li>
            ))}
          </ul>
        </details>
      ))}
    </section>
  );
}
