import { api } from './api.js';
import { session } from './session.js';
import { signChallenge, type SignInKey } from './sign-in-key.js';

/** Key-based sign-in (POST /api/auth/challenge, then /verify): the API key it answers, a session's, not started yet. */
export async function keySession(key: SignInKey): Promise<{ id: string; key: string }> {
  const challenge = await api<{ nonce: string; message: string }>('/api/auth/challenge', {
    method: 'POST',
    key: null,
    body: { did: key.did },
  });
  const signedIn = await api<{ api_key: { id: string; key: string } }>('/api/auth/verify', {
    method: 'POST',
    key: null,
    body: { nonce: challenge.nonce, signature: signChallenge(key, challenge.message) },
  });
  return signedIn.api_key;
}

/** Signs in with the key: the tab's session starts. */
export async function signInWithKey(key: SignInKey): Promise<void> {
  session.start((await keySession(key)).key, { signedIn: true });
}

/** Signs out: a sign-in's key is revoked, so it works nowhere any more; a pasted API key is only forgotten here. */
export async function signOut(): Promise<void> {
  try {
    if (session.isKeySession()) {
      const me = await api<{ api_key: { id: string } | null }>('/api/v1/me');
      if (me.api_key) await api(`/api/v1/me/api-keys/${me.api_key.id}`, { method: 'DELETE' });
    }
  } catch {
    // Already refused (expired or revoked): there is nothing left to revoke.
  } finally {
    session.end();
  }
}
