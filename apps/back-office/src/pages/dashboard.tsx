import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { describe } from '../form.js';
import { SecretOnce } from '../secret-once.js';

type Me = {
  name: string | null;
  email: string | null;
  organizations: { handle: string; name: string; role: 'owner' | 'admin' | 'staff' }[];
};

/** The signed-in merchant's start: the key just issued (shown once), and each organisation with where to go next. */
export function Dashboard({ newKey, onKeptKey }: { newKey: string | null; onKeptKey: () => void }) {
  const [me, setMe] = useState<Me | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    api<Me>('/api/v1/me').then(setMe, (error) => setProblem(describe(error)));
  }, []);
  return (
    <>
      <h1>{me?.name ? `Welcome, ${me.name}` : 'Your shops'}</h1>
      {newKey && (
        <SecretOnce
          title="Your shop is open. Keep this API key"
          secret={newKey}
          note="It is how you sign in here and call the API. It is shown only now: save it in your password manager."
          onDone={onKeptKey}
        />
      )}
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      {me?.organizations.length === 0 && <p>You are not a member of any organisation yet.</p>}
      <ul class="cards">
        {me?.organizations.map((org) => (
          <li class="card" key={org.handle}>
            <h2>{org.name}</h2>
            <p class="muted">
              @{org.handle} · {org.role}
            </p>
            <p class="actions">
              <a class="button" href="/pos">
                Open the counter
              </a>
              <a href="/settings">Settings</a>
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}
