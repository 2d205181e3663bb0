import { signal } from '@preact/signals';

/** The key's place in sessionStorage: the counter screen's (apps/gateway/pages/api.js), so the counter opens signed in. */
const KEY = 'ctk.apiKey';
/** Set while the key is a key-based sign-in's session. */
const KEY_SESSION = 'ctk.keySession';

type Held = { key: string; signedIn: boolean };

/**
 * Who is signed in on this tab: an API key, kept in sessionStorage (never localStorage), so it ends when the
 * tab closes, on sign-out (here or at the counter), and when the API no longer accepts it (401: revoked, or a
 * sign-in's key expired). `signedIn`: the key is a key-based sign-in's session, which signing out revokes;
 * an API key pasted to sign in is the merchant's own, and signing out only forgets it here.
 */
const held = signal<Held | null>(read());

function read(): Held | null {
  const key = sessionStorage.getItem(KEY);
  return key ? { key, signedIn: sessionStorage.getItem(KEY_SESSION) === key } : null;
}

export const session = {
  key: () => held.value?.key ?? null,
  signedIn: () => held.value !== null,
  isKeySession: () => held.value?.signedIn ?? false,
  start(key: string, { signedIn }: { signedIn: boolean }) {
    sessionStorage.setItem(KEY, key);
    if (signedIn) sessionStorage.setItem(KEY_SESSION, key);
    else sessionStorage.removeItem(KEY_SESSION);
    held.value = { key, signedIn };
  },
  end() {
    sessionStorage.removeItem(KEY);
    sessionStorage.removeItem(KEY_SESSION);
    held.value = null;
  },
};
