import { signal } from '@preact/signals';

const STORE = 'ctk.session';

type Held = { key: string; signedIn: boolean };

/**
 * Who is signed in on this tab: an API key, kept in sessionStorage (never localStorage), so it ends when the
 * tab closes, on sign-out, and when the API no longer accepts it (401: revoked, or a sign-in's key expired).
 * `signedIn`: the key is a key-based sign-in's session, which signing out revokes; an API key pasted to
 * sign in is the merchant's own, and signing out only forgets it here.
 */
const held = signal<Held | null>(read());

function read(): Held | null {
  try {
    return JSON.parse(sessionStorage.getItem(STORE) ?? 'null') as Held | null;
  } catch {
    return null;
  }
}

export const session = {
  key: () => held.value?.key ?? null,
  signedIn: () => held.value !== null,
  isKeySession: () => held.value?.signedIn ?? false,
  start(key: string, { signedIn }: { signedIn: boolean }) {
    held.value = { key, signedIn };
    sessionStorage.setItem(STORE, JSON.stringify(held.value));
  },
  end() {
    sessionStorage.removeItem(STORE);
    held.value = null;
  },
};
